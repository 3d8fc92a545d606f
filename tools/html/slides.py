#!/usr/bin/python3
"""Chapter slides:  slides.py OUTDIR CHAPTER.nw ...

For every chapter with `% slide` marks, and each language, writes
OUTDIR/NN-topic-LANG.tex: a beamer deck of the marked equations (with the
book's numbers), figures (the book's own plots drawn again by their
scripts to fit the frame; a TikZ diagram, figures/NAME.tikz, as
slides/fig/NAME-LANG.tex), tables and code chunks, in the order of the
chapter; and each language's decks as one document, OUTDIR/decks-LANG.tex.
A file is rewritten only when it changes, so make typesets only the
languages whose decks did.  tools/html/slides.sh then runs xelatex (ctex
for Chinese) on that document from build/, where fig/ is, and cuts its
pages into the decks' PDFs.

How: tools/html/htmlbook.py reads the chapters (tools/nwbook/); this script
draws the figures a frame needs and writes, per language, a Lua table of
every deck's frames (OUTDIR/slides-LANG.lua: the marks' LaTeX, the chunks'
lines, the figures' files, the book's labels, words and fonts).  One pandoc
run per deck: its Lua filter tools/html/slides.lua builds the frames, and the
template tools/html/slides.latex holds the preamble.

The marks (documentation lines of the .nw, comments to LaTeX):

    % slide                 the next equation, figure, table or code chunk
                            goes on a frame titled by the current section
    % slide: TITLE          ... on a frame with this title (\\zhen{..}{..} allowed)
    % slide+                ... on the same frame as the previous mark
"""
import concurrent.futures
import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import htmlbook as nwbook  # noqa: E402
from book2html import lua  # noqa: E402
sys.path.insert(0, os.path.dirname(HERE))
import tikzfig  # noqa: E402  (tools/tikzfig.py)

TOP = os.path.dirname(os.path.dirname(HERE))

# The room on a 16:9 frame (pt): the text's width, and the height left for a
# figure below the title and above a one-line caption.
TEXT_WIDTH = 390.0
FRAME_HEIGHT = 165.0


PT_PER_CM = 72.27 / 2.54


def slide_figure(figdir, name, width, height):
    '''slides/fig/NAME-WxH.tex: the plot drawn again by its script,
    figures/NAME.gp, with the room on the frame (width x height pt) as
    room_w and room_h: figures/common.gp's terminal() shrinks the plot to
    fit, its labels at their size.  fig/NAME.tex for a figure without a
    script.'''
    gp = os.path.join(TOP, 'figures', name + '.gp')
    if not os.path.exists(gp):
        return 'fig/%s.tex' % name
    room = (width / PT_PER_CM, height / PT_PER_CM)
    base = '%s-%.1fx%.1f' % ((name,) + room)
    build = os.path.dirname(figdir)
    out = os.path.join(build, 'slides', 'fig', base + '.tex')
    inputs = (gp, os.path.join(TOP, 'figures', 'common.gp'),
              os.path.join(build, 'data', name + '.dat'))
    with _FIG_LOCKS_LOCK:               # the zh and en decks may want the same one
        lock = _FIG_LOCKS.setdefault(out, threading.Lock())
    with lock:
        if not os.path.exists(out) or os.path.getmtime(out) < max(map(os.path.getmtime, inputs)):
            os.makedirs(os.path.dirname(out), exist_ok=True)
            subprocess.run(['gnuplot', '-e', "room_w=%.2f; room_h=%.2f; datafile='data/%s.dat'; "
                            "outfile='slides/fig/%s.tex'" % (room + (name, base)), gp],
                           cwd=build, check=True,
                           env=dict(os.environ, GNUPLOT_LIB=os.path.join(TOP, 'figures'),
                                    LC_ALL='C.UTF-8'))   # as mk/figures.mk: no iconv warning
    return 'slides/fig/%s.tex' % base


_FIG_LOCKS = {}
_FIG_LOCKS_LOCK = threading.Lock()


def deck_data(book, chap, figdir, warnings):
    """slides.lua's data for one deck: its frames, the figures on them drawn
    for the frame (slide_figure, slide_diagram)."""
    lang, src = book.lang, book.src
    build = os.path.dirname(figdir)

    def ref(name):
        def number(label):
            if label not in book.labels:
                warnings.append('%s: \\figref{%s}: no such label' % (name, label))
                return '??'
            return book.labels[label][0]
        return number

    def element(e, points):
        if e[0] == 'equation':
            return {'kind': 'equation', 'math': e[1], 'tag': e[2] or None}
        if e[0] == 'code':
            c = e[1]
            return {'kind': 'code', 'name': nwbook.display_name(c.name, lang), 'chunk': c.name,
                    'cont': src.by_label.get(c.first, c) is not c,
                    'lines': [[p[1] if p[0] in ('text', 'ident') else
                               [nwbook.display_name(p[1], lang)] for p in line]
                              for line in c.lines]}
        kind, figs, body, caption, number = e
        out = {'kind': kind, 'body': body, 'caption': caption, 'number': number, 'figs': []}
        # the room for each figure: below the title and the takeaway lines
        height = (FRAME_HEIGHT - 14 * max(len(points), 1)) / max(len(figs), 1)
        for name in figs if kind == 'figure' else ():
            if os.path.exists(os.path.join(TOP, 'figures', name + '.tikz')):
                out['figs'].append({'diagram': True, 'width': TEXT_WIDTH, 'height': height,
                                    'tex': slide_diagram(build, name, lang, ref(name))})
            else:
                out['figs'].append({'tex': slide_figure(figdir, name, TEXT_WIDTH, height)})
        return out
    return {'file': chap.file, 'title': chap.title,
            'number': chap.number or None,
            'appendix': chap.appendix,
            'slides': [{'title': s.title, 'points': s.points, 'notes': s.notes,
                        'elements': [element(e, s.points) for e in s.elements]}
                       for s in chap.slides]}


def slide_diagram(build, name, lang, ref):
    '''slides/fig/NAME-LANG.tex (relative to build/): figures/NAME.tikz
    for a deck in LANG, as tools/tikzfig.py writes it for the book, but with
    \\figref's number itself (a deck has no .aux of the book), and the
    numbers of build/data/NAME.dat when the diagram's first line is
    `% data: ...`.  Rewritten only when it changes.'''
    src = os.path.join(TOP, 'figures', name + '.tikz')
    with open(src, encoding='utf-8') as f:
        first = f.readline()
    data = os.path.join(build, 'data', name + '.dat') if first.startswith('% data:') else None
    rel = 'slides/fig/%s-%s.tex' % (name, lang)
    os.makedirs(os.path.join(build, 'slides', 'fig'), exist_ok=True)
    write_if_changed(os.path.join(build, rel), tikzfig.picture(src, lang, ref, data))
    return rel


def one_document(names, decks):
    """One language's decks as one document, decks-LANG.tex, for one xelatex
    run (tools/html/slides.sh cuts it into the decks): most of a deck's run
    is its preamble, the same for every deck of a language.  Each deck's
    title, its frame numbers from 1, and the PDF's catalog and information
    as the deck's own run sets them, at its first page; the log marks where
    a deck starts (ATTN-DECK NAME PAGE)."""
    parts = []
    for name, tex in zip(names, decks):
        head, body = tex.split('\\begin{document}\n', 1)
        lines = head.split('\n')
        title = [l for l in lines if l.startswith(('\\title{', '\\subtitle{'))]
        parts.append((name, [l for l in lines if l not in title], title,
                      body[:body.rindex('\\end{document}')]))
    # the template's preamble, with what a deck adds (a TikZ diagram's
    # libraries): the longest has every other's lines
    preamble = max((p[1] for p in parts), key=len, default=[])
    for name, lines, _, _ in parts:
        extra = set(lines) - set(preamble)
        if extra:
            raise SystemExit('slides: %s: a preamble line no other deck has: %s'
                             % (name, sorted(extra)[0]))
    out = ['\n'.join(preamble), '\\begin{document}\n']
    for name, _, title, body in parts:
        # (ignorenonframetext: outside a frame, only \mode<all> is read;
        # what hyperref and pgf put on a document's first page, again on
        # the deck's first, each in its own words)
        out.append('\\mode<all>{\\typeout{ATTN-DECK %s \\the\\value{page}}%%\n%s\n'
                   '\\setcounter{framenumber}{0}%%\n'
                   '\\AddToHookNext{shipout/background}{\\put(0,0){%%\n'
                   '  \\special{pdf:docinfo<</Creator(\\csname @pdfcreator\\endcsname)>>}%%\n'
                   '  \\special{pdf:docview<</OpenAction[@thispage\\csname @pdfstartview\\endcsname]'
                   '/PageMode/\\csname @pdfpagemode\\endcsname>>}}}%%\n'
                   '  \\global\\csname pgf@sys@pdf@extgs@createdfalse\\endcsname\n'
                   '  \\global\\csname pgf@sys@pdf@colorspaces@createdfalse\\endcsname\n'
                   '  \\global\\csname pgf@sys@pdf@patterns@createdfalse\\endcsname}\n'
                   % (name, '\n'.join(title)))
        out.append(body)
    out.append('\\mode<all>{\\typeout{ATTN-DECK END \\the\\value{page}}}\n\\end{document}\n')
    return ''.join(out)


def write_if_changed(path, text):
    try:
        if open(path, encoding='utf-8').read() == text:
            return
    except OSError:
        pass
    with open(path + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    outdir, paths = argv[1], argv[2:]
    figdir = os.path.join(os.path.dirname(os.path.abspath(outdir)), 'fig')
    os.makedirs(outdir, exist_ok=True)
    src = nwbook.Source(paths)
    warnings = []
    jobs = []
    for lang in ('zh', 'en'):
        book = nwbook.Book(src, lang, figdir=None)
        warnings += [w for w in book.warnings if 'slide' in w]
        chapters = [c for c in book.chapters if c.slides]
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
            decks = list(ex.map(lambda c: deck_data(book, c, figdir, warnings), chapters))
        data = os.path.join(outdir, 'slides-%s.lua' % lang)
        write_if_changed(data, 'return %s\n' % lua({
            'lang': lang, 'words': book.w, 'subtitle': nwbook.meta.title(lang),
            'labels': {k: v[0] for k, v in book.labels.items()},
            'quotes': [q[0] for q in src.quotes],
            'decks': {c.slug: d for c, d in zip(chapters, decks)}}))
        jobs += [(lang, c.slug, data) for c in chapters]

    def one(job):
        """One deck: pandoc, the filter and the template.  Returns (name,
        warnings, its LaTeX), or (name, None, pandoc's error)."""
        lang, slug, data = job
        name = '%s-%s' % (slug, lang)
        p = subprocess.run(
            ['pandoc', '-f', 'markdown', '-t', 'beamer', '-s', '--slide-level=2',
             '--highlight-style=tango', '--template', os.path.join(HERE, 'slides.latex'),
             '--lua-filter', os.path.join(HERE, 'slides.lua'),
             '-M', 'slidesdata=' + data, '-M', 'deck=' + slug],
            stdin=subprocess.DEVNULL, capture_output=True)
        err = p.stderr.decode('utf-8', 'replace')
        if p.returncode != 0:
            return name, None, err
        tex = p.stdout.decode('utf-8')
        write_if_changed(os.path.join(outdir, name + '.tex'), tex)
        return name, [l[len('slides.lua: '):] for l in err.splitlines()
                      if l.startswith('slides.lua: ')], tex

    # The decks are independent: their pandoc runs side by side.
    decks = {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        for name, deck_warnings, tex in ex.map(one, jobs):
            if deck_warnings is None:
                sys.stderr.write(tex)
                print('slides: pandoc failed on %s' % name, file=sys.stderr)
                return 1
            warnings += deck_warnings
            decks[name] = tex
    for lang in ('zh', 'en'):
        names = sorted(n for n in decks if n.endswith('-' + lang))
        write_if_changed(os.path.join(outdir, 'decks-%s.tex' % lang),
                         one_document(names, [decks[n] for n in names]))
    warnings = sorted(set(warnings))
    for w in warnings:
        print('slides: warning: ' + w, file=sys.stderr)
    write_if_changed(os.path.join(outdir, 'warnings.txt'), ''.join(w + '\n' for w in warnings))
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv))
    except (nwbook.aux.AuxError, nwbook.meta.MetaError) as e:   # one line, no traceback
        print('%s: %s' % (os.path.basename(sys.argv[0]), e), file=sys.stderr)
        sys.exit(2)
