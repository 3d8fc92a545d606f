#!/usr/bin/env python3
"""How full each page of a PDF is, measured from where its text stands.

    tools/pagefill.py [--empty 0.4] [--list] PDF...

pdftotext -bbox (poppler-utils) gives every word's box on its page.  The
running head (a thin row of words near the top that begins or ends with the
page's number) and, on a page without one, the folio (the page's number
alone on the last row) are set aside; from the highest word left to the
lowest is the page's body.  Text is enough: every
figure and table of the book has a caption, a figure's below it, and its
labels are text too, so a page's lowest word is where its content ends.
The body's usable height is taken from the pages themselves: from the
highest body top to the lowest body bottom that at least a tenth of the
pages reach.  A page is EMPTY (>= --empty of that height left blank at the
bottom) unless it is the last page of a chapter (the page before one that
opens a chapter, an appendix, the references or an index: a page with no
running head), a page of the front matter (before Chapter 1 opens: title,
contents, preface), or a page with no text at all (a blank left page before
a chapter that opens on the right).

Prints one line per PDF:  PDF  pages  empty  blank  (and with --list, the
empty pages with how much of each is blank); exits 1 if any page is empty,
2 if a PDF is missing.  Python standard library and poppler-utils only.
"""
import argparse
import html
import os
import re
import subprocess
import sys

PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                  r'([^<]*)</word>')
CHAPTER_ONE = re.compile(r'^(第\s*1\s*章|Chapter\s+1)\b')
NUMBER = re.compile(r'^(\d+|[ivxlc]+)$')


def rows(words):
    """The words (y0, y1, x0, text), sorted, grouped into rows: a word joins
    the row above it when their heights overlap by a third of the smaller
    (a radical sign's box rises above its line's; two lines never overlap
    that much)."""
    out = []
    for w in sorted(words):
        if out:
            y0, y1 = out[-1][0][0], max(v[1] for v in out[-1])
            if min(w[1], y1) - w[0] >= min(w[1] - w[0], y1 - y0) / 3:
                out[-1].append(w)
                continue
        out.append([w])
    return out


def pages(pdf):
    """[(height, [row of words])] of each page of PDF."""
    out = subprocess.run(['pdftotext', '-enc', 'UTF-8', '-bbox', pdf, '-'],
                         capture_output=True, text=True, check=True).stdout
    result = []
    for _, h, body in PAGE.findall(out):
        words = [(float(y0), float(y1), float(x0), html.unescape(t))
                 for x0, y0, x1, y1, t in WORD.findall(body)]
        result.append((float(h), rows(words)))
    return result


def has_head(rs, h):
    """A running head: a thin first row near the top whose first or last
    word is the page's number (an opening page has none)."""
    if not rs:
        return False
    top = rs[0]
    thin = top[0][0] < 0.12 * h and max(w[1] for w in top) - top[0][0] <= 0.03 * h
    ends = sorted(top, key=lambda w: w[2])
    return thin and bool(NUMBER.match(ends[0][3]) or NUMBER.match(ends[-1][3]))


def measure(pdf):
    """[(page number, kind, fraction of the body height left blank)], kind
    'body', 'end' (may be short) or 'blank'."""
    ps = pages(pdf)
    body, opens, texts = [], [], []
    for h, rs in ps:
        head = has_head(rs, h)
        b = rs[1:] if head else rs
        # the folio of a page without a running head: its number alone on
        # the last row, in the lower quarter
        if not head and b and len(b[-1]) == 1 and NUMBER.match(b[-1][0][3]) \
                and b[-1][0][0] > 0.75 * h:
            b = b[:-1]
        body.append((min(w[0] for w in b[0]), max(w[1] for w in b[-1])) if b else None)
        opens.append(bool(rs) and not head)
        # the first row: an opening page's number and name ("Chapter 1")
        texts.append(' '.join(w[3] for w in sorted(rs[0], key=lambda w: w[2])) if rs else '')
    tops = sorted(t for t, _ in filter(None, body))
    bottoms = sorted((bt for _, bt in filter(None, body)), reverse=True)
    top = tops[0]
    bottom = bottoms[max(0, len(bottoms) // 10 - 1)]
    first_chapter = next((i for i, t in enumerate(texts) if opens[i] and CHAPTER_ONE.search(t)), 0)
    result = []
    for i, span in enumerate(body):
        if span is None:
            kind = 'blank'
        elif i < first_chapter or i + 1 >= len(body) or opens[i + 1]:
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
