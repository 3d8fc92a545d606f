"""The one reader of the book's sources (tools/nwbook/): its brace parser,
the book's metadata (book.toml) and the numbers read from a PDF's .aux.
Expected values are worked by hand."""
import os
import subprocess
import sys
import tempfile

import pytest

from helpers import TOP

sys.path.insert(0, os.path.join(TOP, 'tools'))
from nwbook import aux, lang, meta, tex  # noqa: E402


def test_braces_arguments_and_comments():
    assert tex.read_group(r'{a{b}\}c}d', 0) == (r'a{b}\}c', 9)
    with pytest.raises(ValueError):
        tex.read_group('{a{b}', 0)
    assert tex.arguments('\\tablehead[3cm]{A}', 10, 1, optional=True) == (['3cm', 'A'], 18)
    assert tex.arguments('\\zhen{a}', 5, 2) == (None, 8)
    bad = []
    out = tex.replace_macro(r'\raggedleft\zhen{中}{en} and \zhen{x}', 'zhen', 2,
                            lambda a, b: b, on_bad=bad.append)
    assert out == r'\raggedleft{}en and \zhen{x}' and len(bad) == 1
    # the comment takes its line end and the next line's indent, as TeX does
    assert tex.strip_comments('a % c\n   b\n% whole\nc\\% d') == 'a b\nc\\% d\n'


def test_one_language_selection():
    lines = ['\\nwbegindocs{1}\\begin{zh}', '中文', '\\end{zh}', '\\begin{en}', 'English',
             '\\end{en}', 'both']
    assert list(lang.select_language(lines, 'zh')) == ['\\nwbegindocs{1}', '中文', 'both']
    assert list(lang.select_language(lines, 'en')) == ['\\nwbegindocs{1}', 'English', 'both']
    assert lang.resolve_language(r'\zhen{注意}{Attention} \zhword{词}', 'en') == 'Attention 词'


def test_book_toml_is_read_and_checked():
    m = meta.load()
    assert m['book']['title'] == {'zh': '注意力机制', 'en': 'Attention'}
    t = meta.tex(m)
    assert '\\def\\attntitle{\\zhen{注意力机制}{Attention}}' in t
    assert '\\csname attnnw@zh@used_in\\endcsname#1{本段代码用于#1。}' in t
    assert meta.words('en')['used'].format('2.1') == 'This code is used in 2.1.'
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'book.toml')
        text = open(meta.PATH, encoding='utf-8').read()
        open(path, 'w', encoding='utf-8').write(text.replace('title    =', 'titel    =', 1))
        with pytest.raises(meta.MetaError, match='missing book.title'):
            meta.load(path)
        open(path, 'w', encoding='utf-8').write(text.replace('zh = "注意力机制", ', '', 1))
        with pytest.raises(meta.MetaError, match='book.title must be'):
            meta.load(path)
        # the command line: exit 2, the file named, nothing written
        env = dict(os.environ)
        p = subprocess.run([sys.executable, '-c', 'import sys; sys.path.insert(0, %r); '
                            'from nwbook import meta; meta.PATH = %r; '
                            'sys.exit(meta.main(["m", "tex", %r]))'
                            % (os.path.join(TOP, 'tools'), path, os.path.join(d, 'out.tex'))],
                           capture_output=True, text=True, env=env)
        assert p.returncode == 2 and path in p.stderr and not p.stdout
        assert not os.path.exists(os.path.join(d, 'out.tex'))


AUX = r"""\relax
\@writefile{toc}{\contentsline {chapter}{Preface}{vi}{chapter*.2}\protected@file@percent }
\@writefile{toc}{\contentsline {section}{Who}{vi}{section*.3}\protected@file@percent }
\newlabel{ch:why}{{1}{1}{\zhen {为什么}{Why}}{chapter.1}{}}
\@writefile{toc}{\contentsline {chapter}{\numberline {Chapter 1}Why}{1}{chapter.1}\protected@file@percent }
\@writefile{toc}{\contentsline {section}{\numberline {1.1}Three {layers}}{1}{section.1.1}\protected@file@percent }
\attnnumber{equation}{1}
\newlabel{eq:why-conv}{{{C}}{1}{x}{AMS.10}{}}
\@writefile{lof}{\contentsline {figure}{\numberline {1.1}{\ignorespaces Time $n$\relax }}{20}{figure.caption.16}\protected@file@percent }
\attnnumber{exercise}{1.1}
\@writefile{toc}{\contentsline {chapter}{\numberline {附录 A\hspace  {.3em}}C}{300}{appendix.A}\protected@file@percent }
"""


def test_numbers_come_from_the_aux():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'book-en.aux')
        open(path, 'w', encoding='utf-8').write(AUX)
        n = aux.Numbers(path)
    assert [n.take('chapter') for _ in range(3)] == ['', '1', 'A']
    assert [n.take('section'), n.take('section')] == ['', '1.1']
    assert (n.take('equation'), n.take('figure'), n.take('exercise')) == ('1', '1.1', '1.1')
    assert n.labels == {'ch:why': '1', 'eq:why-conv': 'C'}
    with pytest.raises(aux.AuxError, match='more equations than the PDF numbered'):
        n.take('equation')
