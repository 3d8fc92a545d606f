"""The page as a reader sees it: no body page left mostly empty (other than a
chapter's last), and no line running into the margin, in all three editions."""
import os
import re
import shutil
import sys

from helpers import TOP, Skip

B = os.path.join(TOP, 'build')
EDITIONS = ('zh', 'en', 'bilingual')
sys.path.insert(0, os.path.join(TOP, 'tools'))
import pagefill  # noqa: E402


def measured(pdf):
    """pagefill's measure of PDF, kept in build/test-cache/ beside a key of
    the PDF's size and time (reading three editions' words costs ~13 CPU-s),
    so a make test on an unchanged book reads nothing."""
    import json
    st = os.stat(pdf)
    cache = os.path.join(B, 'test-cache')
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, '%s.%d.%d.pagefill.json'
                        % (os.path.basename(pdf), st.st_size, st.st_mtime_ns))
    try:
        with open(path) as f:
            return [tuple(p) for p in json.load(f)]
    except (OSError, ValueError):
        pass
    pages = pagefill.measure(pdf)
    tmp = '%s.%d.tmp' % (path, os.getpid())
    with open(tmp, 'w') as f:
        json.dump(pages, f)
    os.replace(tmp, path)
    return pages


def edition_pdfs():
    """(edition, build/book-EDITION.pdf) for each edition, which must exist;
    a skip if pdftotext, which reads them, is missing."""
    if not shutil.which('pdftotext'):
        raise Skip('pdftotext is not installed (Debian package poppler-utils)')
    for e in EDITIONS:
        pdf = os.path.join(B, 'book-%s.pdf' % e)
        assert os.path.exists(pdf), '%s is missing: run make' % pdf
        yield e, pdf


def test_no_body_page_is_40_percent_empty():
    problems = []
    for e, pdf in edition_pdfs():
        pages = measured(pdf)
        empty = ['%d (%.0f%%)' % (n, 100 * left) for n, kind, left in pages
                 if kind == 'body' and left >= 0.4]
        if empty:
            problems.append('book-%s.pdf: pages 40%% or more empty at the bottom: %s'
                            % (e, ', '.join(empty)))
    assert not problems, '\n'.join(problems) + '\n(tools/pagefill.py --list PDF shows them)'


def test_the_measure_sees_an_empty_page():
    """pagefill finds the one empty page of a small book built here with
    XeLaTeX: a chapter whose first page holds three lines, then full pages;
    the last page of each chapter may be short."""
    if not shutil.which('xelatex') or not shutil.which('pdftotext'):
        raise Skip('xelatex or pdftotext missing')
    import subprocess
    import tempfile
    filler = '\n\n'.join([' '.join(['word'] * 14)] * 150)
    tex = (r'\documentclass[oneside]{book}\usepackage{fancyhdr}\pagestyle{fancy}'
           r'\fancyhf{}\fancyhead[L]{\leftmark}\fancyhead[R]{\thepage}'
           r'\begin{document}\chapter{One}line one\par line two\par line three\newpage '
           + filler + r'\chapter{Two}' + filler + r'\end{document}')
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, 't.tex'), 'w').write(tex)
        subprocess.run(['xelatex', '-interaction=batchmode', 't.tex'], cwd=d,
                       capture_output=True, timeout=120)
        pages = pagefill.measure(os.path.join(d, 't.pdf'))
    empty = [n for n, kind, left in pages if kind == 'body' and left >= 0.4]
    assert len(empty) == 1, 'expected exactly the short page, got %s of %s' % (empty, pages)


def overfull(log):
    text = open(log, encoding='utf-8', errors='replace').read()
    return re.findall(r'^Overfull \\[hv]box \(([\d.]+)pt too (?:wide|high)\) (.*)$', text, re.M)


def test_no_overfull_box_in_any_edition():
    """No line runs into the margin in any edition.  The bilingual edition's
    side-by-side columns (paracol) still overfill a page's box by a few
    points while balancing them ('while \\output is active'): those are
    not lines in the margin, and are left out here (known, issue 13)."""
    problems = []
    for e in EDITIONS:
        log = os.path.join(B, 'book-%s.log' % e)
        assert os.path.exists(log), '%s is missing: run make' % log
        for size, where in overfull(log):
            if e == 'bilingual' and 'while \\output is active' in where:
                continue
            problems.append('book-%s: %spt %s' % (e, size, where))
    assert not problems, 'overfull boxes (build/book-*.log):\n' + '\n'.join(problems[:20])


WIDOW = re.compile(r'^\s*(\}\s*[;,]?|#\s*endif\b.*)\s*$')


def test_no_page_starts_with_a_widow_of_code():
    """No page's first line (after the running head) is a lone closing brace
    or #endif cut off from its chunk: tools/nwbook/lang.py marks where a page
    must not break, tex/attnbook.sty keeps it."""
    import subprocess
    problems = []
    for e, pdf in edition_pdfs():
        text = subprocess.run(['pdftotext', '-layout', pdf, '-'], capture_output=True,
                              text=True, check=True).stdout
        for n, page in enumerate(text.split('\f'), 1):
            lines = [l for l in page.split('\n') if l.strip()]
            if len(lines) > 1 and WIDOW.match(lines[1]):
                problems.append('book-%s.pdf page %d starts with %r' % (e, n, lines[1].strip()))
    assert not problems, '\n'.join(problems)


def test_the_weave_marks_where_a_chunk_must_not_break():
    """After the last two lines that are not blank, before a lone } or
    #endif, and after the last line (before 'This code is used in')."""
    from nwbook import lang
    code = ['int f(void)', '{', '    if (x) {', '        y();', '    }', '    return 0;',
            '}', '', '#endif']
    woven = '\\nwbegincode{1}\\moddef{f}\\endmoddef\n' + '\n'.join(code) + \
        '\n\\nwused{x}\\nwendcode{}'
    woven = woven.replace('{\n', '\\{\n').replace('}\n', '\\}\n')
    out = lang.mark_code_breaks(woven)
    assert out.startswith('\\nwbegincode{1}\\attncodelines{10}'), out
    kept = [l for l in out.split('\n')[1:-1] if l.endswith('\\attnkeep')]
    # after '        y();' (a lone brace next), after '    return 0;' (a lone
    # brace next), and the last three: '\\}' (then two lines, one of them
    # blank), '' and '#endif'
    assert kept == ['        y();\\attnkeep', '    return 0;\\attnkeep', '\\}\\attnkeep',
                    '\\attnkeep', '#endif\\attnkeep'], kept
