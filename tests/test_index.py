"""The subject index and the glossary's page references (issue 13).

The source: every glossary term has exactly one defining use (\\defterm) in a
zh passage and one in an en passage, and every key is a glossary term
(tools/glossary.py check).  The PDFs: the Chinese index (upmendex's
build/book-zh.znd) is in pinyin order, checked against initials written by
hand, not against upmendex; the English index (book-en.end) is alphabetical;
each edition's .aux holds the page of every term's defining use in its
language, and no PDF prints "??" for a reference that did not resolve.  Each
check is shown failing on broken input.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

import pytest

from helpers import TOP, pdf_text

sys.path.insert(0, os.path.join(TOP, 'tools'))
import glossary  # noqa: E402

B = os.path.join(TOP, 'build')
CHAPTERS = sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw')))
EDITIONS = ('zh', 'en', 'bilingual')

# The pinyin initial of a term's first character, written by hand.
INITIAL = {
    '注意力': 'Z', '编码器': 'B', '掩码': 'Y', '嵌入': 'Q', '键': 'J', '值': 'Z',
    '查询': 'C', '解码器': 'J', '多头注意力': 'D', '梯度': 'T', '词元': 'C',
    '层归一化': 'C', '残差连接': 'C', '位置编码': 'W', '前馈网络': 'Q',
    '因果掩码': 'Y', '预热': 'Y', '标签平滑': 'B', '困惑度': 'K', '饱和（Softmax 的）': 'B',
    '自注意力': 'Z', '温度': 'W', '熵': 'S', '独热': 'D', '束搜索': 'S',
}
# Terms that begin with a Latin letter: first, under their own heading.
LATIN_FIRST = ('Adam', 'BLEU', 'GELU', 'RMSNorm', 'Softmax（归一化指数函数）')


def need(path):
    if not os.path.exists(path):
        pytest.skip('%s is missing: run make' % os.path.relpath(path, TOP))
    return path


# ---- the source ---------------------------------------------------------

def test_every_glossary_term_is_defined_once_in_each_language():
    errors = glossary.check(CHAPTERS)
    assert not errors, '\n'.join(errors[:30])


def test_the_glossary_has_the_terms_the_text_uses():
    keys = {t.key for t in glossary.load()}
    for key in ('warm-up', 'GELU', 'RMSNorm', 'rotary positional encoding',
                'Xavier initialisation', 'label smoothing', 'perplexity', 'teacher forcing',
                'key--value cache', 'dropout', 'loss'):
        assert key in keys, 'the glossary lacks "%s"' % key


def test_glossary_rows_stay_in_english_alphabetical_order():
    terms = glossary.load()
    names = [glossary.en_sort(t.en) for t in terms]
    assert names == sorted(names), [
        (a, b) for a, b in zip(names, names[1:]) if a > b][:5]


def copy_chapters(d, edit):
    """The chapters in d, the text of each passed through edit(name, text)."""
    paths = []
    for p in CHAPTERS:
        with open(p, encoding='utf-8') as f:
            text = edit(os.path.basename(p), f.read())
        q = os.path.join(d, os.path.basename(p))
        with open(q, 'w', encoding='utf-8') as f:
            f.write(text)
        paths.append(q)
    return paths


@pytest.mark.parametrize('breakage, expected', [
    # a defining use dropped from the English passage
    (lambda n, t: t.replace('\\defterm{attention weights}', '', 2)
     if n.startswith('02') else t, r'"attention weights" has 0 defining uses.* en'),
    # a second defining use in Chinese
    (lambda n, t: t.replace('\\defterm{beam search}', '\\defterm{beam search}束\\defterm{beam search}', 1)
     if n.startswith('09') else t, r'"beam search" has 2 defining uses.* zh'),
    # a key that is not a glossary term
    (lambda n, t: t.replace('\\defterm{dropout}', '\\defterm{drop-out}', 1)
     if n.startswith('08') else t, r'\\defterm\{drop-out\}: no such term'),
])
def test_the_source_check_fails_on_a_broken_chapter(breakage, expected):
    with tempfile.TemporaryDirectory() as d:
        errors = glossary.check(copy_chapters(d, breakage))
    assert any(re.search(expected, e) for e in errors), errors[:10]


def test_an_unknown_key_stops_the_build_naming_it():
    """tex/attnbook.sty's \\defterm on a key that is not a glossary term: the
    build stops, and the error names the key.  (A small document that reads
    the book's style and the build's glossary.tex, bookmeta.tex.)"""
    need(os.path.join(B, 'glossary.tex'))
    need(os.path.join(B, 'bookmeta.tex'))
    tex = ('\\def\\bookedition{zh}\\documentclass[fontset=none]{ctexbook}'
           '\\usepackage{attnbook}\\begin{document}\n'
           '注意力\\defterm{attention}，%s\n\\end{document}\n')
    env = dict(os.environ, TEXINPUTS='.:%s:%s//:' % (B, os.path.join(TOP, 'tex')))
    outcome = {}
    for name, key in (('good', 'attention weights'), ('bad', 'attention wieghts')):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 't.tex'), 'w', encoding='utf-8') as f:
                f.write(tex % ('权重\\defterm{%s}' % key))
            r = subprocess.run(['xelatex', '-interaction=nonstopmode', '-halt-on-error',
                                '-no-pdf', 't.tex'], cwd=d, env=env, capture_output=True,
                               timeout=300)
            log = open(os.path.join(d, 't.log'), encoding='utf-8', errors='replace').read()
            outcome[name] = (r.returncode, log)
    assert outcome['good'][0] == 0, outcome['good'][1][-2000:]
    rc, log = outcome['bad']
    assert rc != 0, 'the unknown key did not stop XeLaTeX'
    log = log.replace('\n', '')          # TeX wraps its log at 79 characters
    assert '\\defterm{attention wieghts}' in log and 'is not a term of the glossary' in log, \
        log[-2000:]


# ---- the indexes the build made ---------------------------------------

def read_ind(path):
    """[(heading, [entry, ...])] of an upmendex .ind (tex/index-*.ist)."""
    groups = []
    for line in open(need(path), encoding='utf-8'):
        m = re.match(r'^\\indexgroup\{(.*)\}\s*$', line)
        if m:
            groups.append((m.group(1), []))
            continue
        m = re.match(r'^\s*\\item (.*?),(\s|$)', line)
        if m:
            assert groups, 'an entry before the first heading: %s' % line
            groups[-1][1].append(re.sub(r'\\attnidxgloss\s*\{.*\}$', '', m.group(1)))
    return groups


def check_zh_order(groups):
    """Raise AssertionError where groups (from read_ind) are not the Chinese
    index the book wants."""
    heads = [h for h, _ in groups]
    assert heads and heads[0] == '\\attnindexlatin', 'the Latin terms do not come first: %s' % heads
    letters = heads[1:]
    assert all(re.fullmatch(r'[A-Z]', h) for h in letters), letters
    assert letters == sorted(set(letters)), 'headings out of order or repeated: %s' % letters
    where = {e: h for h, es in groups for e in es}
    for e in groups[0][1]:
        assert re.match(r'[A-Za-z]', e), '%s under the Latin heading' % e
    for e in LATIN_FIRST:
        assert where.get(e) == '\\attnindexlatin', '%s is under %s' % (e, where.get(e))
    for e, letter in INITIAL.items():
        assert where.get(e) == letter, '%s is under %s, not %s' % (e, where.get(e), letter)


@pytest.mark.parametrize('edition', ['zh', 'bilingual'])
def test_the_chinese_index_is_in_pinyin_order(edition):
    check_zh_order(read_ind(os.path.join(B, 'book-%s.znd' % edition)))


def test_the_pinyin_check_can_fail():
    groups = read_ind(os.path.join(B, 'book-zh.znd'))
    # 注意力 moved under B, as a sort by code point or strokes might put it
    moved = [(h, [e for e in es if e != '注意力'] + (['注意力'] if h == 'B' else []))
             for h, es in groups]
    with pytest.raises(AssertionError):
        check_zh_order(moved)
    # headings reversed
    with pytest.raises(AssertionError):
        check_zh_order(groups[:1] + groups[:0:-1])


def check_en_order(groups):
    heads = [h for h, _ in groups]
    assert heads == sorted(set(heads)), heads
    flat = []
    for h, es in groups:
        for e in es:
            assert e[0].upper() == h, '%s under %s' % (e, h)
            flat.append(glossary.en_sort(e))
    assert flat == sorted(flat), [(a, b) for a, b in zip(flat, flat[1:]) if a > b][:5]


@pytest.mark.parametrize('edition', ['en', 'bilingual'])
def test_the_english_index_is_alphabetical(edition):
    check_en_order(read_ind(os.path.join(B, 'book-%s.end' % edition)))


def test_the_alphabetical_check_can_fail():
    groups = read_ind(os.path.join(B, 'book-en.end'))
    h, es = groups[1]
    with pytest.raises(AssertionError):
        check_en_order([groups[0], (h, es[::-1])] + groups[2:])


def read_subitems(path):
    """{entry: [sub-entry, ...]} of an upmendex .ind, glosses dropped."""
    subs, item = {}, None
    for line in open(need(path), encoding='utf-8'):
        m = re.match(r'^\s*\\(item|subitem) (.*?),(\s|$)', line)
        if m:
            text = re.sub(r'\\attnidxgloss\s*\{.*\}$', '', m.group(2))
            if m.group(1) == 'item':
                item = text
            else:
                subs.setdefault(item, []).append(text)
    return subs


@pytest.mark.parametrize('ind,parent,kinds,not_kinds', [
    ('book-en.end', 'attention', ['additive attention', 'multi-head attention', 'self-attention'],
     ['attention scores']),
    ('book-en.end', 'self-attention', ['encoder self-attention', 'masked decoder self-attention'], []),
    ('book-en.end', 'mask', ['causal mask', 'padding mask'], []),
    ('book-zh.znd', '注意力', ['加性注意力', '多头注意力', '自注意力'], ['注意力得分']),
    ('book-zh.znd', '位置编码', ['正弦位置编码', '旋转位置编码（RoPE）'], []),
    ('book-bilingual.znd', '掩码', ['因果掩码', '填充掩码'], []),
])
def test_a_kind_of_a_term_is_listed_under_it(ind, parent, kinds, not_kinds):
    """The index lists "additive attention" under "attention" as well as in
    its own place (tools/glossary.py's parent(): the longest term a term ends
    with, as a word), with the same pages."""
    subs = read_subitems(os.path.join(B, ind))
    got = subs.get(parent, [])
    for k in kinds:
        assert k in got, '%s is not under %s in %s: %s' % (k, parent, ind, got)
    for k in not_kinds:
        assert k not in got, k
    entries = {e for _, es in read_ind(os.path.join(B, ind)) for e in es}
    assert set(kinds) <= entries, 'a kind is no longer in its own place too'


def test_a_one_character_chinese_word_is_not_a_parent_alone():
    """抽头 (a tap) ends with 头 (a head) but is not a kind of it; 交叉熵 is a
    kind of 熵 because the English says so too (cross-entropy, entropy)."""
    terms = glossary.load()
    by_key = {t.key: t for t in terms}
    tex = glossary.tex(terms)
    line = {t.key: l for t, l in zip(terms, tex.split('\n')[1:])}
    assert line['tap'].endswith('{0}{0}'), line['tap']
    assert line['cross-entropy'].endswith('{%d}{%d}' % ((by_key['entropy'].id,) * 2))
    assert glossary.parent(by_key['scaled dot-product attention'], terms, 'en').key == \
        'dot-product attention'


@pytest.mark.parametrize('edition', EDITIONS)
def test_every_term_has_its_page_and_index_entry(edition):
    """Each term's defining use left its page in the .aux (the glossary's
    \\pageref), in each language the edition holds; and each is in the index."""
    aux = open(need(os.path.join(B, 'book-%s.aux' % edition)), encoding='utf-8').read()
    pages = dict(re.findall(r'\\newlabel\{attn-gl-(\d+-(?:zh|en))\}\{\{[^{}]*\}\{([^{}]*)\}', aux))
    langs = {'zh': ['zh'], 'en': ['en'], 'bilingual': ['zh', 'en']}[edition]
    terms = glossary.load()
    missing = ['%s (%s)' % (t.key, lang) for t in terms for lang in langs
               if not pages.get('%d-%s' % (t.id, lang))]
    assert not missing, 'no page for: %s' % ', '.join(missing[:20])
    for lang in langs:
        ind = os.path.join(B, 'book-%s.%s' % (edition, 'znd' if lang == 'zh' else 'end'))
        entries = {e for _, es in read_ind(ind) for e in es}
        want = {glossary.zh_display(t.zh) if lang == 'zh' else t.en for t in terms}
        assert want <= entries, 'not in the %s index: %s' % (lang, sorted(want - entries)[:10])


@pytest.mark.parametrize('edition', EDITIONS)
def test_no_reference_prints_question_marks(edition):
    text = pdf_text(need(os.path.join(B, 'book-%s.pdf' % edition)))
    assert '??' not in text, '...%s...' % text[max(0, text.index('??') - 80):text.index('??') + 40]


@pytest.mark.parametrize('edition', EDITIONS)
def test_the_index_is_in_the_contents(edition):
    toc = open(need(os.path.join(B, 'book-%s.toc' % edition)), encoding='utf-8').read()
    titles = {'zh': ['索引'], 'en': ['Index'],
              'bilingual': ['中文索引', 'Index of Chinese terms', '英文索引', 'Index of English terms']}
    chapters = re.findall(r'\\contentsline \{chapter\}\{(.*)\}\{[^{}]*\}\{[^{}]*\}%', toc)
    last = chapters[-1] if edition != 'bilingual' else ' '.join(chapters[-2:])
    for t in titles[edition]:
        assert t in last, 'the contents end with %s, not the index' % chapters[-2:]


def bookmarks(path):
    """The top-level PDF bookmarks hyperref wrote to the .out, decoded."""
    out = []
    for line in open(need(path), encoding='latin-1'):
        m = re.match(r'\\BOOKMARK \[0\]\[-\]\{[^{}]*\}\{(.*)\}\{\}%', line)
        if m:
            raw = re.sub(rb'\\([0-7]{3})', lambda o: bytes([int(o.group(1), 8)]),
                         m.group(1).encode('latin-1'))
            out.append(raw.decode('utf-16') if raw.startswith(b'\xfe\xff') else raw.decode())
    return out


@pytest.mark.parametrize('edition', EDITIONS)
def test_the_index_is_in_the_bookmarks(edition):
    marks = bookmarks(os.path.join(B, 'book-%s.out' % edition))
    want = {'zh': ['索引'], 'en': ['Index'],
            'bilingual': ['中文索引 / Index of Chinese terms', '英文索引 / Index of English terms']}
    assert marks[-len(want[edition]):] == want[edition], marks[-3:]


# ---- the identifier index: no local variables (tools/nwlocals.py) ------

def test_nwlocals_drops_definitions_only_in_chunks_inside_functions():
    """A root uses <<piece>> at a line's start (file scope) and <<body>>
    indented (inside a function); <<body>> uses <<inner>> at its line's
    start, which is still inside the function."""
    import nwlocals
    stream = ['@begin code 0\n', '@defn file.c\n', '@nl\n',
              '@use piece\n', '@nl\n',
              '@text void f(void) {\n', '@nl\n',
              '@text     \n', '@use body\n', '@nl\n', '@text }\n', '@end code 0\n',
              '@begin code 1\n', '@defn piece\n', '@nl\n', '@text int g;\n',
              '@index defn g\n', '@nl\n', '@end code 1\n',
              '@begin code 2\n', '@defn body\n', '@nl\n', '@text double m = 0;\n',
              '@index defn m\n', '@nl\n', '@use inner\n', '@nl\n', '@end code 2\n',
              '@begin code 3\n', '@defn inner\n', '@nl\n', '@text int t = 1;\n',
              '@index defn t\n', '@nl\n', '@end code 3\n']
    out = nwlocals.filter_stream(stream)
    defs = [l.split()[2] for l in out if l.startswith('@index defn ')]
    assert defs == ['g'], defs
    assert len(out) == len(stream) - 2


def test_the_identifier_index_has_no_local_variables():
    """Chapter 2's trace chunk starts 'double m = x[0];' inside a function:
    m is not an identifier of the book, nor is an include guard;
    attention_backward and the macro ALL_BUT still are."""
    woven = open(need(os.path.join(B, 'woven.tex')), encoding='utf-8').read()
    entries = set(re.findall(r'\\nwixlogsorted\{i\}\{\{\\nwixident\{((?:[^{}]|\{\\_\})*)\}\}',
                             woven))
    for local in ('m', 't', 'max', 'out', 'rng', 'ATTN{\\_}ATTENTION{\\_}H'):
        assert local not in entries, local
    assert 'ALL{\\_}BUT' in entries         # a macro, not a guard
    assert 'attention{\\_}backward' in entries


# ---- the identifier index: code only (tools/nwlocals.py uses) -----------

def test_nwlocals_drops_uses_in_strings_comments_and_file_names():
    """finduses marks attention in '#include "attention.h"', in a comment
    and in quoted prose `build/bin/ch02-attention`; only the call stays."""
    import nwlocals
    def use(x):
        return ['@index use %s\n' % x, '@text %s\n' % x]
    stream = (['@begin code 0\n', '@defn f\n', '@nl\n', '@text #include "\n'] + use('attention') +
              ['@text .h"\n', '@nl\n', '@text /* pre-\n'] + use('softmax') +
              ['@text  scores\n', '@nl\n', '@text    and more */ y = \n'] + use('attention') +
              ['@text (x); // \n'] + use('softmax') + ['@nl\n', '@text s = "\\"" + \n'] +
              use('softmax') + ['@text ;\n', '@nl\n', '@end code 0\n',
               '@begin docs 1\n', '@quote\n', '@text build/bin/ch02-\n'] + use('attention') +
              ['@endquote\n', '@quote\n'] + use('softmax') + ['@text (x)\n', '@endquote\n',
               '@end docs 1\n'])
    out = nwlocals.filter_uses(stream)
    kept = [l.split()[2] for l in out if l.startswith('@index use ')]
    assert kept == ['attention', 'softmax', 'softmax'], kept
    text = ''.join(l[6:-1] for l in out if l.startswith('@text '))
    assert text == ''.join(l[6:-1] for l in stream if l.startswith('@text '))


def test_nwlocals_names_a_files_own_statics_after_the_file():
    """Two programs each define a static `opts`; each gets its own entry and
    its own uses; autodefs's `size_t` for `static size_t count(...)` becomes
    `count`."""
    import nwlocals
    def prog(n, name):
        return ['@begin code %d\n' % n, '@defn code/%s\n' % name, '@nl\n',
                '@text static int opts;\n', '@index localdefn opts\n', '@nl\n',
                '@text static size_t count(void) { return opts; }\n',
                '@index localdefn size_t\n', '@nl\n', '@end code %d\n' % n]
    stream = prog(0, 'ch02-attention.c') + prog(1, 'ch08-training.c')
    out = nwlocals.filter_stream(stream)
    defs = [l[7:-1] for l in out if l.startswith('@index ')]
    assert defs == ['localdefn opts (ch02)', 'localdefn count (ch02)',
                    'localdefn opts (ch08)', 'localdefn count (ch08)'], defs
    after = nwlocals.filter_uses(out)
    uses = [l[11:-1] for l in after if l.startswith('@index use ')]
    assert uses == ['opts (ch02)', 'count (ch02)', 'opts (ch02)',
                    'opts (ch08)', 'count (ch08)', 'opts (ch08)'], uses


def index_entries():
    woven = open(need(os.path.join(B, 'woven.tex')), encoding='utf-8').read()
    return woven, set(re.findall(r'\\nwixlogsorted\{i\}\{\{\\nwixident\{((?:[^{}]|\{\\_\})*)\}\}',
                                 woven))


def test_the_identifier_index_knows_code_from_strings_and_files():
    woven, entries = index_entries()
    # '#include "attention.h"' and `build/bin/ch02-attention` link nothing
    assert '#include "\\nwlinkedidentc' not in woven
    assert not re.search(r'ch0\d-\\nwlinkedident', woven)
    # one entry per program for a program's own main and opts, none merged
    for ident in ('main', 'opts', 'Options', 'size{\\_}t', 'inline', 'uint64{\\_}t'):
        assert ident not in entries, ident
    assert {'main\\ (ch02)', 'opts\\ (ch08)', 'opts\\ (ch09)', 'program\\ (cli.c)',
            'carve{\\_}params'} <= entries


def test_nwlocals_drops_members_and_other_files_statics():
    """`p->norm2` is a member, not a function norm2() of saturation.c; Chapter 4's
    parameter `words` is not Chapter 6's static array; a use of the static
    in its own file stays."""
    import nwlocals
    def use(x):
        return ['@index use %s\n' % x, '@text %s\n' % x]
    stream = (['@begin code 0\n', '@defn code/saturation.c\n', '@nl\n', '@text double \n'] +
              use('norm2') + ['@text (void);\n', '@index defn norm2\n', '@nl\n',
              '@text static int \n'] + use('words') + ['@text [3];\n', '@index localdefn words\n',
              '@nl\n', '@text int n = \n'] + use('words') + ['@text [0];\n', '@nl\n',
              '@end code 0\n',
              '@begin code 1\n', '@defn code/ch04-masking.c\n', '@nl\n', '@text x = p->\n'] +
              use('norm2') + ['@text  + s. \n'] + use('norm2') + ['@text  + \n'] + use('norm2') +
              ['@text (x) + \n'] + use('words') + ['@text [1];\n', '@nl\n', '@end code 1\n'])
    out = nwlocals.filter_uses(stream)
    kept = [(l.split()[2]) for l in out if l.startswith('@index use ')]
    assert kept == ['norm2', 'words', 'words', 'norm2'], kept


def test_nwlocals_links_a_files_own_identifier_but_not_a_member_of_that_name():
    import nwlocals
    def prog(n, name):
        return ['@begin code %d\n' % n, '@defn code/%s\n' % name, '@nl\n',
                '@text static int opts;\n', '@index localdefn opts\n', '@nl\n',
                '@text x = opts + s.opts + p->opts;\n', '@nl\n', '@end code %d\n' % n]
    out = nwlocals.filter_uses(nwlocals.filter_stream(prog(0, 'ch02-attention.c') +
                                                      prog(1, 'ch08-training.c')))
    uses = [l[11:-1] for l in out if l.startswith('@index use ')]
    assert uses == ['opts (ch02)', 'opts (ch02)', 'opts (ch08)', 'opts (ch08)'], uses
