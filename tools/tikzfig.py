#!/usr/bin/python3
"""A TikZ diagram of the book (figures/NAME.tikz) for each output:

    tikzfig.py tex EDITION figures/NAME.tikz BUILD/fig/NAME-EDITION.tex [NAME.dat]
        the PDF editions (EDITION zh, en or bilingual): the tikzpicture with
        the labels in that edition's language; \\tikzfig{NAME} reads it.
        A diagram that cites no number (no \\figref) is typeset once
        instead of on every pass: the picture goes to NAME-EDITION-pic.tex,
        and NAME-EDITION.tex includes NAME-EDITION.pdf;
    tikzfig.py book EDITION BUILD/fig/NAME-EDITION.tex ...
        those PDFs: the pictures of one edition as the pages of one XeLaTeX
        document set as the book is (figdoc below: the book's class,
        tex/attnclass.tex, and fonts), each page cut to its picture, each
        cut out by xdvipdfmx;
    tikzfig.py svgs LANG BOOK-LANG.aux OUTDIR FIGURE...
        the HTML edition (LANG zh or en): every figure of the book in one
        language, as the pages of one such document, typeset by XeLaTeX and
        kept as OUTDIR/figures.pdf, then converted page by page by
        pdftocairo (poppler-utils) to OUTDIR/NAME.svg.  A FIGURE is a diagram,
        figures/NAME.tikz[=NAME.dat], or a plot as gnuplot's cairolatex
        terminal drew it for the PDF editions, BUILD/fig/NAME.tex, whose
        \\zhen labels are set in LANG: the SVG is the book's own figure,
        its math set by LaTeX.  Most of a run is loading the fonts, so the
        HTML edition's figures cost two runs.

NAME.dat, when given, holds the numbers a diagram shows, as its program
printed them: a diagram whose first line is `% data: PROGRAM ARGS`, like a
gnuplot script's `# data:` line, gets build/data/NAME.dat from that program
(mk/figures.mk), so that no number in it is typed by hand.

A gnuplot figure leaves its labels to LaTeX through the cairolatex terminal;
a diagram is plain TikZ, and these macros are its only words in two
languages and its only numbers:

    \\figbox{中文}{English}    a step's label; stacked in the bilingual edition
    \\figtext{中文}{English}   a label; `中文 / English` in the bilingual edition
    \\figchunk{English name}   a code chunk's name as the edition shows it:
                              chapters/chunk-names.zh in Chinese, the English
                              key under it in the bilingual edition
    \\figref{label}            \\ref{label}; in the SVG the number itself, read
                              from the .aux of the PDF in the same language
    \\figdata{name}            the number(s) on the line `name ...` of NAME.dat,
                              as the program formatted them; several are
                              joined by `, ` (a vector: write `$(\\figdata{q})$`)
"""
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)
sys.path.insert(0, os.path.join(TOP, 'tools'))
import chunknames  # noqa: E402
from nwbook import aux  # noqa: E402
from nwbook.tex import replace_macro  # noqa: E402

NARGS = {'figbox': 2, 'figtext': 2, 'figchunk': 1, 'figref': 1, 'figdata': 1}


def chunk(name, edition):
    """A chunk's name as noweb's \\LA...\\RA shows it, in the edition's
    language; \\hbox{} keeps xeCJK's glue away from the brackets, as
    tools/nwbook/lang.py does in the Chinese edition's weave."""
    en = ' '.join(name.split())
    if edition == 'en':
        return r'$\langle$%s$\rangle$' % en
    zh = chunknames.chinese(en)
    if zh is None:
        raise SystemExit('tikzfig.py: <<%s>> has no Chinese name in chapters/chunk-names.zh' % en)
    if edition == 'zh':
        return r'$\langle$\hbox{}%s\hbox{}$\rangle$' % zh
    return r'$\langle$\hbox{}%s\hbox{}$\rangle$\\{\color{entext}(%s)}' % (zh, en)


def expand(text, edition, ref, data=None):
    """text with the figure's macros replaced for one edition (their
    arguments first, so that one may hold another); data maps \\figdata's
    names to their numbers."""
    def bilingual(name, zh, en):
        if edition != 'bilingual':
            return zh if edition == 'zh' else en
        if name == 'figbox':
            return r'%s\\{\color{entext}%s}' % (zh, en)
        return r'%s\ /\ {\color{entext}%s}' % (zh, en)

    def number(key):
        if data is None:
            raise SystemExit('tikzfig.py: \\figdata{%s} but no data file' % key)
        if key not in data:
            raise SystemExit('tikzfig.py: the data file has no line %r' % key)
        return data[key]

    def one(name):
        def fn(*args):
            args = [expand(a, edition, ref, data) for a in args]
            if name in ('figbox', 'figtext'):
                return bilingual(name, *args)
            if name == 'figdata':
                return number(args[0])
            return chunk(args[0], edition) if name == 'figchunk' else ref(args[0])
        return fn

    def bad(name):
        def on_bad(pos):
            raise SystemExit('tikzfig.py: \\%s needs %d arguments' % (name, NARGS[name]))
        return on_bad

    for name in NARGS:
        text = replace_macro(text, name, NARGS[name], one(name), on_bad=bad(name))
    return text


def read_data(path):
    """NAME.dat as {name: its numbers joined by ', '}: one name a line,
    then its numbers; `#` starts a comment line."""
    data = {}
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            fields = line.split()
            if not fields or fields[0].startswith('#'):
                continue
            if len(fields) < 2 or fields[0] in data:
                raise SystemExit('tikzfig.py: %s:%d: expected a new name and its numbers'
                                 % (path, n))
            data[fields[0]] = ', '.join(fields[1:])
    return data


def picture(src, edition, ref, datafile=None):
    with open(src, encoding='utf-8') as f:
        text = f.read()
    body = '\n'.join(l for l in text.split('\n') if not l.startswith('%'))
    data = read_data(datafile) if datafile else None
    return '%% Generated by tools/tikzfig.py from %s: edit that, not this.\n%s' % (
        os.path.relpath(src, TOP), expand(body, edition, ref, data).lstrip('\n'))


def book_tex(edition, src, out, dat=None):
    """BUILD/fig/NAME-EDITION.tex: the picture, or, when it cites nothing,
    an \\includegraphics of the PDF that book() makes of it."""
    cited = []

    def ref(label):
        cited.append(label)
        return r'\ref{%s}' % label
    pic = picture(src, edition, ref, dat)
    if cited:
        write(out, pic)
        return
    base = out[:-len('.tex')]
    write(base + '-pic.tex', pic)
    write(out, '%% Generated by tools/tikzfig.py from %s (typeset by tikzfig.py book).\n'
          '\\includegraphics[trim=%s %s %s %s]{fig/%s.pdf}\n'
          % ((os.path.relpath(src, TOP),) + (MARGIN,) * 4 + (os.path.basename(base),)))


# The document in which the book's figures are typeset on their own: the
# book's class for the edition (tex/attnclass.tex), fonts, colours, TikZ and
# \gnuplotfig, so that a figure is set as the book sets it; a page a figure,
# cut to it with a margin of MARGIN, so that a stroke at the edge of its
# bounding box (which TikZ reckons without half the line's width) is not cut
# off (the book trims the margin away again).  \zhen for a plot's labels.
MARGIN = '2pt'
FIGDOC = r'''\def\bookedition{%(edition)s}
\input{attnclass.tex}
\usepackage{amsmath,amssymb,bm,graphicx,xcolor,xecjkfast}
\input{bookmeta.tex}
\input{attnfonts.tex}
\input{attnshared.tex}
\newcommand{\zhen}[2]{#%(zhen)d}
\newdimen\attnmargin \attnmargin=%(margin)s
\newcommand{\attnpicture}[1]{\setbox0\hbox{#1\unskip}%%
  \pdfpagewidth=\dimexpr\wd0+2\attnmargin\relax
  \pdfpageheight=\dimexpr\ht0+\dp0+2\attnmargin\relax
  \shipout\hbox{\kern\dimexpr\attnmargin-1in\relax
    \vbox{\kern\dimexpr\attnmargin-1in\relax\box0}}}
\begin{document}
%(pages)s
\end{document}
'''


def figdoc(edition, pages):
    """FIGDOC with one \\attnpicture a page (TeX that sets one figure)."""
    return FIGDOC % {'edition': edition, 'zhen': 2 if edition == 'en' else 1, 'margin': MARGIN,
                     'pages': '\n'.join(r'\attnpicture{%s}' % p for p in pages)}


def book(edition, texs):
    """The PDFs that the NAME-EDITION.tex among texs include: their
    pictures set as the book sets them (its class, fonts, colours and
    TikZ), one page each, in one XeLaTeX run; a PDF is rewritten only when
    it changes (else only its time is)."""
    pics = []
    for tex in texs:
        with open(tex, encoding='utf-8') as f:
            if '\\includegraphics' in f.read():
                pics.append(tex[:-len('.tex')])
    if not pics:
        return
    builddir = os.path.dirname(os.path.dirname(os.path.abspath(pics[0])))
    doc = figdoc(edition, [r'\input{fig/%s-pic.tex}' % os.path.basename(p) for p in pics])
    with tempfile.TemporaryDirectory() as tmp:
        xelatex(doc, tmp, builddir, ['-no-pdf'], ', '.join(pics))
        for k, p in enumerate(pics, 1):
            subprocess.run(['xdvipdfmx', '-q', '-s', str(k), '-o', 'fig.pdf', 'fig.xdv'],
                           cwd=tmp, check=True)
            with open(os.path.join(tmp, 'fig.pdf'), 'rb') as f:
                data = f.read()
            try:
                with open(p + '.pdf', 'rb') as f:
                    same = f.read() == data
            except OSError:
                same = False
            if same:            # kept, but as new as the picture it was made from
                os.utime(p + '.pdf')
            else:
                write(p + '.pdf', data)


def xelatex(doc, tmp, builddir, options, what):
    """Typeset doc as tmp/fig.tex, with the build directory's and tex/'s
    files at hand; on an error, its lines and exit."""
    with open(os.path.join(tmp, 'fig.tex'), 'w', encoding='utf-8') as f:
        f.write(doc)
    env = dict(os.environ, TEXINPUTS='.:%s:%s:' % (builddir, os.path.join(TOP, 'tex')))
    r = subprocess.run(['xelatex', '-interaction=nonstopmode', '-halt-on-error'] + options +
                       ['fig.tex'], cwd=tmp, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if r.returncode != 0:
        log = r.stdout.decode('utf-8', 'replace')
        sys.stderr.write(''.join(l + '\n' for l in log.split('\n') if l.startswith('!')
                                 or l.startswith('l.')))
        raise SystemExit('tikzfig.py: xelatex failed on %s' % what)


def write(path, data):
    mode = 'b' if isinstance(data, bytes) else ''
    tmp = path + '.tmp'
    with open(tmp, 'w' + mode) as f:
        f.write(data)
    os.replace(tmp, path)


def aux_ref(path):
    """\\ref from the book's .aux (tools/nwbook/aux.py): a label's number as
    LaTeX printed it."""
    labels = aux.Numbers(path).labels

    def ref(label):
        if label not in labels:
            raise SystemExit('tikzfig.py: %s has no label %s' % (path, label))
        return labels[label]
    return ref


def svgs(lang, auxfile, outdir, figs):
    """figs: (figures/NAME.tikz or BUILD/fig/NAME.tex, NAME.dat or None);
    one XeLaTeX run, each figure set as the book sets it (figdoc)."""
    builddir = os.path.dirname(os.path.abspath(auxfile))
    ref = aux_ref(auxfile)
    with tempfile.TemporaryDirectory() as tmp:
        pages = []
        for k, (src, dat) in enumerate(figs):
            if src.endswith('.tex'):        # a plot, drawn for the PDFs
                pages.append(r'\gnuplotfig{%s}' % os.path.splitext(os.path.basename(src))[0])
            else:                           # a diagram, in the page's language
                write(os.path.join(tmp, 'pic%d.tex' % k), picture(src, lang, ref, dat))
                pages.append(r'\input{pic%d.tex}' % k)
        xelatex(figdoc(lang, pages), tmp, builddir, [],
                '%s (%s)' % (', '.join(src for src, _ in figs), lang))
        os.makedirs(outdir, exist_ok=True)
        for k, (src, _) in enumerate(figs, 1):
            subprocess.run(['pdftocairo', '-svg', '-f', str(k), '-l', str(k), 'fig.pdf',
                            'fig.svg'], cwd=tmp, check=True)
            with open(os.path.join(tmp, 'fig.svg'), 'rb') as f:
                data = f.read()
            # a heat map is a bitmap of one pixel per cell: keep the cells sharp
            data = data.replace(b'<image ', b'<image style="image-rendering:pixelated" ')
            # coordinates to 0.01 pt (pdftocairo writes six places): a quarter smaller
            data = re.sub(rb'(\.\d\d)\d+', rb'\1', data)
            name = os.path.splitext(os.path.basename(src))[0]
            write(os.path.join(outdir, name + '.svg'), data)
        with open(os.path.join(tmp, 'fig.pdf'), 'rb') as f:
            write(os.path.join(outdir, 'figures.pdf'), f.read())


def main(argv):
    if len(argv) in (5, 6) and argv[1] == 'tex' and argv[2] in ('zh', 'en', 'bilingual'):
        book_tex(argv[2], argv[3], argv[4], *argv[5:])
    elif len(argv) >= 4 and argv[1] == 'book' and argv[2] in ('zh', 'en', 'bilingual'):
        book(argv[2], argv[3:])
    elif len(argv) >= 6 and argv[1] == 'svgs' and argv[2] in ('zh', 'en'):
        figs = [(src, dat or None) for src, _, dat in (a.partition('=') for a in argv[5:])]
        svgs(argv[2], argv[3], argv[4], figs)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
