#!/usr/bin/env python3
"""How full each page of a PDF is, measured on the rendered page.

    tools/pagefill.py [--empty 0.4] [--list] PDF...

Each page is rendered in grey at a low resolution (pdftoppm); a row of pixels
with ink on it is content.  The running head (the first band of ink near the
top) and the folio (the last band near the bottom) are set aside; what is
left is the page's body.  The body's usable height is taken from the pages
themselves: from the highest body top to the lowest body bottom that at least
a tenth of the pages reach.  A page is EMPTY (>= --empty of that height left
blank at the bottom) unless it is the last page of a chapter (the page before
one that opens a chapter, an appendix, the references or an index), a page of the front matter
(before Chapter 1 opens: title, contents, preface), or a page with no body at all (a blank left page
before a chapter that opens on the right).

Prints one line per PDF:  PDF  pages  empty  blank  (and with --list, the
empty pages with how much of each is blank); exits 1 if any page is empty,
2 if a PDF is missing.  Pictures count as ink, so a
figure fills its page as text does.  Python standard library and
poppler-utils only.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

DPI = 20
INK = 160           # a grey value below this is ink


def read_pgm(path):
    with open(path, 'rb') as f:
        data = f.read()
    # P5 <w> <h> <max>\n<bytes>, with comments allowed after any field
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b'#':
            i = data.index(b'\n', i) + 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    assert fields[0] == b'P5', path
    w, h = int(fields[1]), int(fields[2])
    pix = data[i + 1:]
    return w, h, pix


def ink_bands(path):
    """[(first row, last row)] of the runs of rows with ink, and the height."""
    w, h, pix = read_pgm(path)
    rows = [min(pix[r * w:(r + 1) * w]) < INK for r in range(h)]
    bands, start = [], None
    for r, ink in enumerate(rows + [False]):
        if ink and start is None:
            start = r
        elif not ink and start is not None:
            bands.append((start, r - 1))
            start = None
    return bands, h


def page_texts(pdf):
    out = subprocess.run(['pdftotext', '-enc', 'UTF-8', '-layout', pdf, '-'],
                         capture_output=True, text=True, check=True).stdout
    return out.split('\f')


CHAPTER_ONE = re.compile(r'^\s*(第\s*1\s*章|Chapter\s+1)\b', re.M)
FOLIO = re.compile(r'\s{2,}(\d+|[ivxlc]+)\s*$')


def starts_chapter(text):
    """The opening page of a chapter, an appendix, the references or an
    index: every other page's first line is a running head, which ends with
    the page's number; an opening page has no running head."""
    lines = [l for l in text.splitlines() if len(l.strip()) > 2]   # not a lone radical sign
    return bool(lines) and not FOLIO.search(lines[0])


def measure(pdf):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(['pdftoppm', '-gray', '-r', str(DPI), pdf, os.path.join(tmp, 'p')],
                       check=True)
        files = sorted(os.listdir(tmp), key=lambda f: int(re.findall(r'\d+', f)[-1]))
        pages = [ink_bands(os.path.join(tmp, f)) for f in files]
    texts = page_texts(pdf)
    body = []
    for bands, h in pages:
        b = list(bands)
        # the running head and the folio: a thin band near the top or bottom
        if b and b[0][0] < 0.12 * h and b[0][1] - b[0][0] <= 0.03 * h:
            b = b[1:]
        if b and b[-1][0] > 0.88 * h and b[-1][1] - b[-1][0] <= 0.03 * h:
            b = b[:-1]
        body.append((b[0][0], b[-1][1]) if b else None)
    tops = sorted(t for t, _ in filter(None, body))
    bottoms = sorted((bt for _, bt in filter(None, body)), reverse=True)
    top = tops[0]
    bottom = bottoms[max(0, len(bottoms) // 10 - 1)]
    first_chapter = next((i for i, t in enumerate(texts)
                          if starts_chapter(t) and CHAPTER_ONE.search(t)), 0)
    result = []
    for i, span in enumerate(body):
        nxt = texts[i + 1] if i + 1 < len(texts) else ''
        if span is None:
            kind = 'blank'
        elif i < first_chapter or i + 1 >= len(body) or starts_chapter(nxt):
            kind = 'end'
        else:
            kind = 'body'
        left = 1.0 if span is None else max(0.0, (bottom - span[1]) / float(bottom - top))
        result.append((i + 1, kind, left))
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('pdf', nargs='+')
    ap.add_argument('--empty', type=float, default=0.4,
                    help='a page is empty with this fraction of its body height blank (0.4)')
    ap.add_argument('--list', action='store_true', help='list the empty pages')
    args = ap.parse_args(argv)
    status = 0
    for pdf in args.pdf:
        if not os.path.exists(pdf):
            print('pagefill: %s: no such file' % pdf, file=sys.stderr)
            return 2
        pages = measure(pdf)
        empty = [(n, left) for n, kind, left in pages if kind == 'body' and left >= args.empty]
        blank = sum(1 for _, kind, _ in pages if kind == 'blank')
        print('%s  pages %d  empty %d  blank %d' % (pdf, len(pages), len(empty), blank))
        if empty:
            status = 1
        if args.list:
            for n, left in empty:
                print('  page %d: %.0f%% blank' % (n, 100 * left))
    return status


if __name__ == '__main__':
    sys.exit(main())
