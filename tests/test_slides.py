"""The chapter slides (make slides): one beamer deck per chapter with
`% slide` marks and per language, made from those marks.  (The time the HTML
edition and the slides take to build is `make bench-html`, not a test.)"""
import glob
import os
import re
import shutil
import subprocess
import sys

from helpers import TOP, Skip

B = os.path.join(TOP, 'build')
sys.path.insert(0, os.path.join(TOP, 'tools', 'html'))
CJK = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff]')
MARK = re.compile(r'^[ \t]*%[ \t]*slide(\+|:.*)?[ \t]*$', re.M)


def marked_chapters():
    out = []
    for path in sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw'))):
        n = len(MARK.findall(open(path, encoding='utf-8').read()))
        if n:
            out.append((path, n))
    return out


def pdftext(pdf):
    if not shutil.which('pdftotext'):
        raise Skip('pdftotext is not installed (Debian package poppler-utils)')
    assert os.path.exists(pdf), '%s is missing: run make slides' % pdf
    return subprocess.run(['pdftotext', '-enc', 'UTF-8', pdf, '-'], capture_output=True,
                          text=True, check=True).stdout.split('\f')


def test_every_marked_chapter_has_a_deck_per_language():
    chapters = marked_chapters()
    assert len(chapters) >= 3, 'expected slide marks in chapters 1, 2 and 7'
    for path, marks in chapters:
        base = os.path.splitext(os.path.basename(path))[0]
        plus = len(re.findall(r'^[ \t]*%[ \t]*slide\+', open(path, encoding='utf-8').read(),
                              re.M))
        for lang in ('zh', 'en'):
            pages = [p for p in pdftext(os.path.join(B, 'slides', '%s-%s.pdf' % (base, lang)))
                     if p.strip()]
            # a title frame and one frame per mark that starts a frame
            assert len(pages) == 1 + marks - plus, '%s-%s: %d frames for %d marks (%d +)' % (
                base, lang, len(pages), marks, plus)
            text = '\n'.join(pages)
            if lang == 'en':
                m = CJK.search(text)
                assert not m, '%s-en.pdf has Chinese: %r' % (base, text[m.start() - 30:m.end() + 30])
            else:
                assert len(CJK.findall(text)) > 20, '%s-zh.pdf is not in Chinese' % base


def test_marks_take_the_books_numbers_and_figures():
    import nwbook
    src = nwbook.Source(nwbook.chapter_paths(TOP))
    book = nwbook.Book(src, 'en')
    bad = [w for w in book.warnings if 'slide' in w]
    assert not bad, '\n'.join(bad)
    ch2 = next(c for c in book.chapters if c.slug == '02-attention')
    tex = open(os.path.join(B, 'slides', '02-attention-en.tex'), encoding='utf-8').read()
    # equation (1) of the book is (1) on the slide, and figures are the book's files
    eqs = [e for _, els in ch2.slides for e in els if e[0] == 'equation']
    assert eqs and all(('\\tag{%s}' % e[2]) in tex for e in eqs if e[2])
    figs = [f for _, els in ch2.slides for e in els if e[0] == 'figure' for f in e[1]]
    assert figs and all('\\input{fig/%s.tex}' % f in tex for f in figs)
    text = '\n'.join(pdftext(os.path.join(B, 'slides', '02-attention-en.pdf')))
    assert 'Figure 2.2' in text, 'the heatmap slide should say Figure 2.2 as the book does'
