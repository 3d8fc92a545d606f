"""Chinese typography and terms: the language check (tools/nwlang.py check)
flags ASCII quotes in Chinese text, the line break that prints a space
between Chinese characters, chapter references in other forms than
第~\\ref{..}~章, and the variants the glossary says to avoid.  Each check must
be able to fail."""
import os
import shutil
import subprocess
import tempfile

from helpers import TOP

PYTHON = '/usr/bin/python3'
GLOSSARY = os.path.join(TOP, 'chapters', '91-appendix-glossary.nw')


def lint(text):
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(GLOSSARY, d)
        path = os.path.join(d, 'x.nw')
        open(path, 'w', encoding='utf-8').write(text)
        p = subprocess.run([PYTHON, os.path.join(TOP, 'tools', 'nwlang.py'), 'check',
                            path, os.path.join(d, os.path.basename(GLOSSARY))],
                           capture_output=True, text=True)
        return p.returncode, p.stderr


def passage(zh, en='An English partner.'):
    return '\\begin{zh}\n%s\n\\end{zh}\n\\begin{en}\n%s\n\\end{en}\n' % (zh, en)


def test_clean_chinese_passes():
    rc, err = lint(passage('这是“引号”。见第~\\ref{ch:attention}~章的计算核，前向传播，独热向量。'))
    assert rc == 0, err


def test_each_typography_slip_is_named_with_its_line():
    cases = [
        ("这是``引号''。", "ASCII quotes"),
        ('见第\\ref{ch:x}章。', '第~\\ref{...}~章'),
        ('见第~\\ref{ch:x} 章。', '第~\\ref{...}~章'),
        ('就得到\n\\emph{线性}的形式。', 'end this line with %'),
        ('正向传播。', '"正向"'),
        ('每个内核都不分配内存。', '"内核"'),
        ('一个 one-hot 向量。', '"one-hot"'),
        ('掩住的键。', '"掩住"'),
        ('扇入 是输入宽度。', 'a space between two Chinese characters'),
    ]
    for zh, want in cases:
        rc, err = lint(passage(zh))
        assert rc != 0 and want in err and 'x.nw:2:' in err, \
            'the check missed %r: rc=%d, %r' % (zh, rc, err)


def test_code_and_english_are_not_linted():
    rc, err = lint(passage('代码 [[one_hot]] 与 \\texttt{fan-in} 不算。',
                           "English may say ``forward'' and one-hot."))
    assert rc == 0, err


def test_chinese_half_of_zhen_is_linted():
    rc, err = lint("\\section{\\zhen{``坏''标题}{A title}}\n" + passage('好。'))
    assert rc != 0 and 'x.nw:1:' in err and '\\zhen' in err, err


def test_pairs_agree_on_numbers_and_references():
    """Each zh/en pair gives the same numbers and cites the same labels."""
    chapters = sorted(os.path.join(TOP, 'chapters', f)
                      for f in os.listdir(os.path.join(TOP, 'chapters')) if f.endswith('.nw'))
    p = subprocess.run([PYTHON, os.path.join(TOP, 'tools', 'nwlang.py'), 'pairs'] + chapters,
                       capture_output=True, text=True)
    bad = [l for l in p.stdout.split('\n') if 'number' in l or 'reference' in l]
    assert p.returncode == 0 and not bad, '\n'.join(bad) + p.stderr


def test_pair_check_can_fail():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'x.nw')
        open(path, 'w', encoding='utf-8').write(passage(
            '见公式~\\eqref{eq:a}，误差 1.3e-15。',
            'See equation~\\eqref{eq:b}; the error is 2.2e-16.'))
        p = subprocess.run([PYTHON, os.path.join(TOP, 'tools', 'nwlang.py'), 'pairs', path],
                           capture_output=True, text=True)
        assert p.returncode != 0
        assert 'x.nw:1: number' in p.stdout and 'x.nw:1: reference' in p.stdout, p.stdout


def test_bilingual_edition_loses_no_figure():
    """The side-by-side pairs (paracol) must not swallow a pending float:
    every figure of the English edition is set in the bilingual one.  A
    figure's \\label reaches the .aux only when the figure is shipped out."""
    import re
    def figures(edition):
        aux = open(os.path.join(TOP, 'build', 'book-%s.aux' % edition), encoding='utf-8',
                   errors='replace').read()
        return set(re.findall(r'\\newlabel\{(fig:[^}]*)\}', aux))
    en, bi = figures('en'), figures('bilingual')
    assert en and en <= bi, 'figures missing from book-bilingual.pdf: %s' % sorted(en - bi)
