"""The three PDFs as a reader sees them (text extracted with pdftotext)."""
import functools
import glob
import os
import re
import sys

from helpers import TOP, pdf_text

sys.path.insert(0, os.path.join(TOP, 'tools'))
from nwbook import aux  # noqa: E402

B = os.path.join(TOP, 'build')
CJK = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff01-\uff5e]')
CJK_RUN = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff01-\uff5e]+')
# Chapter 9's subject: the English edition shows these in its examples too.
NUMERALS = set('零一二三四五六七八九十百千万两')


@functools.lru_cache(maxsize=None)
def pages(edition):
    """The pages' text of build/book-EDITION.pdf (extracted once per module)."""
    return tuple(pdf_text(os.path.join(B, 'book-%s.pdf' % edition)).split('\f'))


def code_lines():
    """Every line of every code chunk in chapters/*.nw."""
    for path in glob.glob(os.path.join(TOP, 'chapters', '*.nw')):
        in_code = False
        for line in open(path, encoding='utf-8'):
            if re.match(r'^<<.*>>=\s*$', line):
                in_code = True
            elif re.match(r'^@( |$)', line):
                in_code = False
            elif in_code:
                yield line


def chinese_in_code_chunks():
    """The Chinese the programs print (their bilingual --help): it stands in
    code chunks, which both editions show, so the English edition has it too."""
    runs = set()
    for line in code_lines():
        runs.update(CJK_RUN.findall(line))
    return runs


def test_code_shows_a_chinese_string_right_after_its_quote():
    """xeCJK puts a space between a Latin character and a Chinese one; in a
    code chunk that printed "在照抄 as " 在照抄, which is not what the file
    holds (tex/attnbook.sty turns it off in code)."""
    starts, spaced_in_source = set(), set()
    for line in code_lines():
        starts.update(re.findall(r'"([\u4e00-\u9fff]{3,})', line))
        spaced_in_source.update(re.findall(r'" +([\u4e00-\u9fff]{3,})', line))
    # a string the source itself spaces ("  解码器每句...") would look like
    # the bug for any string it starts with ("解码器")
    starts = {s for s in starts if not any(t.startswith(s) for t in spaced_in_source)}
    assert len(starts) > 20, starts
    for edition in ('zh', 'en', 'bilingual'):
        text = '\n'.join(pages(edition))
        spaced = sorted(s for s in starts if '" ' + s in text)
        assert not spaced, '%s edition: a space after the quote of %s' % (edition, spaced[:5])
        shown = [s for s in starts if '"' + s in text]
        assert len(shown) > 20, '%s edition shows only %d of the strings' % (edition, len(shown))


def test_english_edition_has_no_chinese_outside_the_glossary():
    ps = pages('en')
    # The glossary is the chapter whose opening page starts with its heading
    # (the contents pages mention it too, but do not start with it).
    start = next(i for i, p in enumerate(ps) if re.match(r'\s*Appendix B\s+Glossary', p))
    end = next(i for i, p in enumerate(ps)
               if i > start and re.match(r'\s*(Appendix [C-Z]\b|Index of chunks)', p))
    assert end - start < 10, 'the glossary seems to run from page %d to %d' % (start + 1, end)
    allowed = chinese_in_code_chunks()
    for i, p in enumerate(ps):
        if start <= i < end:
            continue
        for m in CJK_RUN.finditer(p):
            if set(m.group()) <= NUMERALS:
                continue        # Chapter 9 translates into Chinese numerals
            if not any(m.group() in run for run in allowed):
                raise AssertionError('page %d of book-en.pdf has Chinese text: ...%s...' % (
                    i + 1, p[max(0, m.start() - 40):m.end() + 40].replace('\n', ' ')))


def test_english_edition_check_sees_stray_chinese():
    """The check above must be able to fail: a Chinese word from the prose of
    the Chinese edition is not among the programs' strings."""
    allowed = chinese_in_code_chunks()
    assert not any('这本书写给谁' in run for run in allowed)
    assert any('为什么是注意力' in run for run in allowed), 'expected Chapter 1\'s --help text'


def test_chinese_edition_speaks_chinese():
    text = '\n'.join(pages('zh'))
    for want in ('目录', '前言', '附录', '本段代码写入文件', '本段代码用于', '图 A.1',
                 '代码块索引', '标识符索引', '术语表'):
        assert want in text, 'book-zh.pdf should contain %r' % want
    for unwanted in ('This code is used', 'This code is written', 'Defines:', 'Uses ',
                     'Contents', 'Figure A.1', 'Index of chunks'):
        assert unwanted not in text, 'book-zh.pdf should not contain %r' % unwanted


def test_english_edition_labels():
    text = '\n'.join(pages('en'))
    for want in ('Contents', 'Preface', 'This code is written to file', 'This code is used in',
                 'Figure A.1', 'Index of chunks', 'Index of identifiers'):
        assert want in text, 'book-en.pdf should contain %r' % want


def test_bilingual_edition_has_both_languages_passage_by_passage():
    text = '\n'.join(pages('bilingual'))
    zh = text.index('每一章的程序都站在同一个小小的')
    en = text.index('Every chapter’s program stands on one small')
    assert zh < en < zh + 2000, 'the English passage should follow its Chinese partner'


def test_no_unresolved_references_or_missing_glyphs():
    for e in ('zh', 'en', 'bilingual'):
        text = '\n'.join(pages(e))
        assert '??' not in text, 'book-%s.pdf has an unresolved reference (??)' % e
        log = open(os.path.join(B, 'book-%s.log' % e), encoding='utf-8', errors='replace').read()
        for bad in ('undefined references', 'Missing character', 'multiply defined'):
            assert bad not in log, 'book-%s.log: %s' % (e, bad)


def test_cross_references_settled():
    """latexmk stopped because the .aux had settled, not because it ran out of
    passes (a page break and a reference to it moving each other): otherwise
    some page number printed in the book is one pass out of date."""
    for e in ('zh', 'en', 'bilingual'):
        path = os.path.join(B, 'book-%s.latexmk.out' % e)
        out = open(path, encoding='utf-8', errors='replace').read()
        assert 'Maximum runs of xelatex reached' not in out, \
            'book-%s: the cross-references never settled (%s)' % (e, path)


def label_numbers(edition):
    """Each label's number in build/book-EDITION.aux, as the HTML edition reads
    it (tools/nwbook/aux.py; '' for an unnumbered one)."""
    return aux.Numbers(os.path.join(B, 'book-%s.aux' % edition)).labels


def test_every_label_has_the_same_number_in_every_edition():
    """The bilingual edition sets a pair's two passages in paracol's columns,
    and shows paracol only the counters a passage steps (tex/attnbook.sty,
    \\attn@paircounters); a counter stepped in both columns and missing from
    that list would count twice there, and every number after it would drift."""
    # (A glossary term's labels carry their language: attn-gl-N-zh, -en.)
    zh, en, bi = (dict((k, v) for k, v in label_numbers(e).items() if not k.startswith('attn-gl-'))
                  for e in ('zh', 'en', 'bilingual'))
    assert len(zh) > 100, 'book-zh.aux should hold the book\'s labels'
    assert set(zh) == set(en) == set(bi), 'the editions should define the same labels: %s' % \
        sorted((set(zh) | set(en) | set(bi)) - (set(zh) & set(en) & set(bi)))[:5]
    numbered = 0
    for name, number in zh.items():
        assert (en[name], bi[name]) == (number, number), \
            'label %s is %r in the Chinese edition, %r in the English one, %r in the bilingual one' % \
            (name, number, en[name], bi[name])
        numbered += number != ''
    assert numbered > 100, 'most labels should carry a number'


PAGE_READ = ('ch:', 'attn-gl-')   # tex/attnbook.sty, \\attn_label_paged:n
PAGE_ASKS = re.compile(r'\\(?:auto|v)?pageref\*?\{([^}]*)\}|\\getpagerefnumber\{([^}]*)\}')


def page_asks(text):
    """The labels whose page TEXT asks for (\\pageref, \\getpagerefnumber...)
    that the .aux does not record a page for."""
    asked = [a or b for a, b in PAGE_ASKS.findall(text)]
    return [k for k in asked if not k.startswith(PAGE_READ) and '\\attn@glossid' not in k]


def test_a_label_records_its_page_only_where_the_book_reads_it():
    """A label's page goes to the .aux only for chapters and glossary terms,
    so an equation that moves across a page break costs no second XeLaTeX
    pass (tex/attnbook.sty).  So no source may ask for another label's page:
    it would print nothing."""
    assert page_asks(r'see page~\pageref{eq:attention}') == ['eq:attention']
    assert page_asks(r'\pageref{ch:why} \getpagerefnumber{attn-gl-\attn@glossid-zh}') == []
    sources = glob.glob(os.path.join(TOP, 'chapters', '*.nw')) + \
        glob.glob(os.path.join(TOP, 'tex', '*.*')) + glob.glob(os.path.join(TOP, 'course', '*')) + \
        glob.glob(os.path.join(TOP, 'tools', '**', '*.*'), recursive=True)
    for path in sources:
        if os.path.isfile(path):
            text = open(path, encoding='utf-8', errors='replace').read()
            assert page_asks(text) == [], '%s asks for the page of %s, which the .aux does not ' \
                'record (tex/attnbook.sty: only ch: and attn-gl- labels)' % (path, page_asks(text))
    for e in ('zh', 'en', 'bilingual'):
        numbers = aux.Numbers(os.path.join(B, 'book-%s.aux' % e))
        paged = {k for k, p in numbers.pages.items() if p}
        assert paged and all(k.startswith(PAGE_READ) for k in paged), \
            'book-%s.aux records a page for %s' % (e, sorted(k for k in paged if not k.startswith(PAGE_READ))[:5])
        chapters = [k for k in numbers.labels if k.startswith('ch:')]
        assert len(chapters) >= 10 and all(numbers.pages[k] for k in chapters), \
            'book-%s.aux should record the page of every chapter' % e


def test_every_pass_reads_the_identifier_uses_the_aux_would_give():
    """noweb's "Defines: x, used in chunks ..." lines come from \\nwixadd
    lines.  XeLaTeX writes them to the .aux as pages go out; every pass reads
    them instead from build/nwuses.tex, which tools/nwlang.py takes from the
    weave (tex/attnbook.sty), so that a clean build's first pass has them
    and paginates like the second.  The two must be the same lines in the
    same order, or the lists would differ from noweb's own."""
    with open(os.path.join(B, 'nwuses.tex'), encoding='utf-8') as f:
        uses = f.read().splitlines()
    assert len(uses) > 1000 and len(set(uses)) > 1000, 'build/nwuses.tex: %d lines' % len(uses)
    for e in ('zh', 'en', 'bilingual'):
        with open(os.path.join(B, 'book-%s.aux' % e), encoding='utf-8') as f:
            written = [l.rstrip('\n') for l in f if l.startswith('\\nwixadd{')]
        assert written == uses, 'book-%s.aux: %d \\nwixadd lines, build/nwuses.tex %d; ' \
            'first difference at %d' % (e, len(written), len(uses), next(
                (i for i, (a, b) in enumerate(zip(written, uses)) if a != b), min(len(written), len(uses))))
    body = ''.join(pages('en'))
    assert 'Defines:' in body and 'used in chunk' in body


def test_bookmarks_exist_in_each_edition():
    for e, want in (('zh', '前言'), ('en', 'Preface'), ('bilingual', 'Preface')):
        out = os.path.join(B, 'book-%s.out' % e)
        lines = open(out, encoding='latin-1').read().split('\n')
        titles = [decode_bookmark(l) for l in lines if l.startswith('\\BOOKMARK')]
        assert len(titles) >= 5, 'book-%s: too few PDF bookmarks' % e
        assert any(want in t for t in titles), 'book-%s: no %r bookmark in %r' % (e, want, titles)


def decode_bookmark(line):
    """hyperref writes a title as UTF-16 bytes, mostly octal escapes: {\\376\\377...}."""
    title = re.match(r'\\BOOKMARK \[[^]]*\]\[[^]]*\]\{[^}]*\}\{(.*)\}\{[^}]*\}%', line).group(1)
    raw, i = bytearray(), 0
    while i < len(title):
        if title[i] == '\\' and re.match(r'[0-7]{3}', title[i + 1:i + 4]):
            raw.append(int(title[i + 1:i + 4], 8))
            i += 4
        else:
            raw.append(ord(title[i]))
            i += 1
    return raw[2:].decode('utf-16-be') if raw[:2] == b'\xfe\xff' else raw.decode('latin-1')


def test_chapter_references_are_arabic_numerals_in_english_text():
    # On one line: a reference is tied to its word (Appendix~\ref), while in
    # the bilingual edition's side-by-side columns an English line that ends
    # in "Appendix" may be followed, in pdftotext's order, by a Chinese line
    # that starts with 一.
    for e in ('en', 'bilingual'):
        text = '\n'.join(pages(e))
        m = re.search(r'(Chapter|Appendix)[ \t\u00a0]+[一二三四五六七八九十]', text)
        assert not m, 'book-%s.pdf: %r (a Chinese numeral in English text)' % (e, m.group())


def test_diagrams_typeset_once_speak_their_editions_language():
    """A diagram that cites no number is typeset once per edition
    (tools/tikzfig.py book) and included as a PDF: that PDF exists, is not
    older than the picture it was made from, and speaks the edition's
    language (Chinese in zh and bilingual, none in en, English words in en
    and bilingual)."""
    import subprocess
    once = []
    for tex in sorted(glob.glob(os.path.join(B, 'fig', '*-*.tex'))):
        m = re.match(r'(.*)-(zh|en|bilingual)\.tex$', tex)
        if not m or '\\includegraphics' not in open(tex, encoding='utf-8').read():
            continue
        once.append(tex)
        base, edition = tex[:-len('.tex')], m.group(2)
        pdf, pic = base + '.pdf', base + '-pic.tex'
        assert os.path.exists(pdf), '%s includes %s, which is missing' % (tex, pdf)
        assert os.path.getmtime(pdf) >= os.path.getmtime(pic) - 1, '%s is older than %s' % (pdf, pic)
        text = subprocess.run(['pdftotext', pdf, '-'], capture_output=True, text=True,
                              check=True).stdout
        assert bool(CJK.search(text)) == (edition != 'en'), '%s: Chinese %s' % (
            pdf, 'missing' if edition != 'en' else 'in the English edition')
        if edition != 'zh':
            assert re.search(r'[A-Za-z]{4}', text), '%s: no English word' % pdf
    assert len(once) >= 3, 'expected the diagrams without \\figref to be typeset once: %s' % once
