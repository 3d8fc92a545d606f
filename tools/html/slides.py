#!/usr/bin/python3
"""Chapter slides:  slides.py OUTDIR CHAPTER.nw ...

For every chapter with `% slide` marks, and each language, writes
OUTDIR/NN-topic-LANG.tex: a beamer deck made by pandoc (-t beamer) from the
marked equations (with the book's numbers), figures (the book's own
build/fig/NAME.tex, labelled in the deck's language through \\zhen; a TikZ
diagram, figures/NAME.tikz, as slides/fig/NAME-LANG.tex), tables and code
chunks, in the order of the chapter.  A file is rewritten only when
it changes, so make typesets only the decks that did.  tools/html/slides.sh
then runs xelatex (ctex for Chinese) from build/, where fig/ is.

The marks (documentation lines of the .nw, comments to LaTeX):

    % slide                 the next equation, figure, table or code chunk
                            goes on a frame titled by the current section
    % slide: TITLE          ... on a frame with this title (\\zhen{..}{..} allowed)
    % slide+                ... on the same frame as the previous mark
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htmlbook as nwbook  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tikzfig  # noqa: E402  (tools/tikzfig.py)

MAX_CODE_LINES = 14      # readable when projected: about 12 lines a frame, 14 at most
MAX_CODE_COLUMNS = 82    # wider lines run off a 16:9 frame at \small

HEADER = {
    'zh': r"""\usepackage[fontset=none]{ctex}
\setCJKmainfont{@cjkmain@}
\setCJKsansfont{@cjksans@}
\setCJKmonofont{@cjkmono@}
\renewcommand{\CJKfamilydefault}{\CJKsfdefault}
\newcommand{\zhen}[2]{#1}
""",
    'en': r"""\newcommand{\zhen}[2]{#2}
""",
}
COMMON = r"""\usepackage{amsmath,amssymb,booktabs,array,graphicx,xcolor,adjustbox}
\setmonofont{@mono@}[Scale=@monoscale@]
\setbeamertemplate{navigation symbols}{}
\setbeamertemplate{footline}{\hfill\insertframenumber\hspace{1em}\vspace{0.5em}}
\setbeamerfont{caption}{size=\footnotesize}
\setbeamerfont{itemize/enumerate body}{size=\normalsize}
\definecolor{attnblue}{RGB}{31,95,168}
\setbeamercolor{frametitle}{fg=attnblue}
\setbeamercolor{title}{fg=attnblue}
\newcommand{\zhword}[1]{#1}
\usepackage{fancyvrb}  % pandoc loads it only for decks with code; \fvset needs it always
\fvset{fontsize=\small}
\newcommand{\nwuse}[1]{{\normalfont\itshape$\langle$\hbox{}#1\hbox{}$\rangle$}}
\newcommand{\slidepoints}[1]{\vspace{-0.3ex}{\usebeamercolor[fg]{frametitle}\small #1\par}\vspace{0.6ex}}
\makeatletter\def\tablehead{\@ifnextchar[{\attn@th}{\attn@th[2.3cm]}}
\def\attn@th[#1]#2{\parbox[b]{#1}{\centering #2}}\makeatother
"""


def tt(s):
    """Text for \\texttt, LaTeX's specials escaped."""
    rep = {'\\': r'\textbackslash{}', '{': r'\{', '}': r'\}', '_': r'\_', '&': r'\&',
           '%': r'\%', '#': r'\#', '$': r'\$', '^': r'\^{}', '~': r'\~{}'}
    return ''.join(rep.get(ch, ch) for ch in s)


def chunk_name(name):
    parts = re.split(r'\[\[(.*?)\]\]', name)
    return ''.join(tt(p) if k % 2 == 0 else r'\texttt{%s}' % tt(p)
                   for k, p in enumerate(parts))


class Deck:
    def __init__(self, book, chap, figdir=None):
        self.book = book
        self.chap = chap
        self.lang = book.lang
        self.figdir = figdir
        self.warnings = []
        self.uses = []
        self.points = []
        self.diagrams = False       # a TikZ diagram: the deck loads tikz

    def latex(self, s):
        """The chapter's LaTeX (as nwbook left it) for a slide: markers out."""
        src = self.book.src

        def quote(m):
            return r'\texttt{%s}' % tt(src.quotes[int(m.group(1))][0])

        def ref(m):
            kind, label = m.groups()
            if label not in self.book.labels:
                self.warnings.append('\\%s{%s}: no such label' % (kind, label))
                return '??'
            n = self.book.labels[label][0]
            return '(%s)' % n if kind == 'eqref' else n
        s = re.sub(r'\\htmlq\{(\d+)\}', quote, s)
        s = re.sub(r'\\(ref|eqref)\{([^}]*)\}', ref, s)
        s = re.sub(r'\\(?:htmlanchor|label)\{[^}]*\}', '', s)
        s = re.sub(r'\\htmlnum\{[^}]*\}', '', s)
        return s

    def element(self, e):
        kind = e[0]
        if kind == 'equation':
            _, math, tag = e
            math = self.latex(math)
            # shrunk to the frame's width if it is wider (never enlarged)
            math = '\\adjustbox{max width=%s\\linewidth}{$\\displaystyle %s$}' % (
                '0.86' if tag else '1', math)
            if tag:
                body = '\\begin{equation*}\n%s\n\\tag{%s}\n\\end{equation*}' % (math, tag)
            else:
                body = '\\[\n%s\n\\]' % math
            return raw(body)
        if kind == 'code':
            c = e[1]
            lines = []
            for line in c.lines:
                out = []
                for p in line:
                    if p[0] in ('text', 'ident'):
                        out.append(p[1])
                    else:           # a use: ⟨name⟩ in italics, not coloured <<...>>
                        self.uses.append(p[1])
                        out.append('ZZnwuse%dZZ' % (len(self.uses) - 1))
                lines.append(''.join(out))
            # the width on the frame: a use shows as <name>
            def width(line):        # a Chinese character takes two columns
                t = re.sub(r'ZZnwuse(\d+)ZZ', lambda m: '<%s>' % nwbook.display_name(
                    self.uses[int(m.group(1))], self.lang), line).expandtabs()
                return len(t) + len(re.findall(r'[\u3000-\u9fff\uff00-\uffef]', t))
            wide = max((width(l) for l in lines), default=0)
            if wide > MAX_CODE_COLUMNS:
                self.warnings.append('%s: chunk <<%s>> has a line of %d columns: too wide for a '
                                     'slide (at most %d)' % (self.chap.file, c.name, wide,
                                                            MAX_CODE_COLUMNS))
            if len(lines) > MAX_CODE_LINES:
                self.warnings.append('%s: chunk <<%s>> has %d lines: too long for a slide '
                                     '(at most %d)' % (self.chap.file, c.name, len(lines),
                                                       MAX_CODE_LINES))
            first = self.book.src.by_label.get(c.first, c)
            head = r'{\footnotesize $\langle$\hbox{}\emph{%s}\hbox{}$\rangle%s\equiv$}' % (
                chunk_name(nwbook.display_name(c.name, self.lang)), '+' if first is not c else '')
            fence = '~' * max(4, max((len(m) for l in lines
                                      for m in re.findall(r'~+', l)), default=0) + 1)
            return raw(head) + '\n' + fence + ' {.c}\n' + '\n'.join(lines) + '\n' + fence + '\n'
        if kind in ('figure', 'table'):
            _, figs, body, caption, number = e
            parts = []
            if kind == 'figure':
                for f in figs:
                    parts.append(self.figure(f, len(figs)))
            else:
                parts.append('\\begin{center}\\adjustbox{max width=\\textwidth,'
                             'max totalheight=0.6\\textheight}{\\small %s}\\end{center}'
                             % self.latex(body).strip())
            caption = slide_caption(caption, self.lang)
            if caption or number:
                parts.append('{\\usebeamerfont{caption}\\textbf{%s}\\quad %s\\par}' % (
                    number, self.latex(caption)))
            return raw('\n'.join(parts))
        raise ValueError(kind)

    def figure(self, name, count):
        '''A book figure with labels of at least 9 pt on the frame.  A figure
        that fits is the book's own build/fig/NAME.tex; a larger one is drawn
        again by gnuplot, from the same script and data, at the size of the
        frame (slide_figure), so that it is not scaled and its labels keep
        their size.'''
        avail_h = (FRAME_HEIGHT - 14 * max(len(self.points), 1)) / count
        if os.path.exists(os.path.join(TOP, 'figures', name + '.tikz')):
            return self.diagram(name, TEXT_WIDTH, avail_h)
        tex = slide_figure(self.figdir, name, TEXT_WIDTH, avail_h)
        return ('\\begin{center}{\\fontsize{9.5}{11}\\selectfont'
                '\\input{%s}}\\end{center}' % tex)

    def diagram(self, name, width, height):
        '''A TikZ diagram (figures/NAME.tikz): the picture with its labels
        in the deck's language and \\figref's numbers the book's, written by
        tools/tikzfig.py as slides/fig/NAME-LANG.tex, and shrunk (never
        enlarged) to the room on the frame.  Its labels are \\small or
        \\footnotesize of the deck (10 and 9 pt), times that scale; a
        diagram whose labels would fall below 7 pt has no slide mark
        (tests/test_slides.py measures them).'''
        def ref(label):
            if label not in self.book.labels:
                self.warnings.append('%s: \\figref{%s}: no such label' % (name, label))
                return '??'
            return self.book.labels[label][0]
        build = os.path.dirname(self.figdir)
        tex = slide_diagram(build, name, self.lang, ref)
        self.diagrams = True
        return ('\\begin{center}\\adjustbox{max width=%.0fpt,max totalheight=%.0fpt}'
                '{\\input{%s}}\\end{center}' % (width, height, tex))

    def markdown(self):
        out = []
        for slide in self.chap.slides:
            self.points = slide.points
            out.append('## `%s`{=latex}\n' % self.latex(slide.title).replace('`', "'").strip())
            if slide.points and not slide.elements:     # a frame of its lines only
                out.append(raw('\\begin{itemize}\n%s\n\\end{itemize}' % '\n'.join(
                    '\\item ' + self.latex(p) for p in slide.points)))
            elif slide.points:
                out.append(raw('\\slidepoints{%s}' % '\\\\\n'.join(
                    '\\textbullet\\ ' + self.latex(p) for p in slide.points)))
            for e in slide.elements:
                out.append(self.element(e))
            notes = speaker_notes(self.latex(slide.notes))
            if notes:
                out.append('::: notes\n' + raw(notes) + ':::\n')
            out.append('')
        return '\n'.join(out)

    def finish(self, tex):
        '''pandoc's LaTeX: the uses of other chunks become \\nwuse{name}.'''
        def use(m):
            name = nwbook.display_name(self.uses[int(m.group(1))], self.lang)
            name = re.sub(r'\[\[(.*?)\]\]', r'\1', name)
            return '\\nwuse{%s}' % tt(name)
        tex = re.sub(r'ZZnwuse(\d+)ZZ', use, tex)
        if self.diagrams:       # only these decks pay for loading TikZ
            tex = tex.replace('\\begin{document}', tikz_preamble() + '\\begin{document}', 1)
        # The decks' math is LaTeX's own (amsmath, amssymb): unicode-math and
        # its OpenType math font cost a quarter of each deck's xelatex time
        # and change nothing on the frames; fontspec is what the rest needs.
        return tex.replace('\\usepackage{unicode-math}', '\\usepackage{fontspec}')

    def title(self):
        w = self.book.w
        t = self.latex(self.chap.title)
        if self.chap.number:
            shown = getattr(self.chap, 'shown', self.chap.number)
            t = w['appendix' if self.chap.appendix else 'chapter'].format(shown) + \
                ('\\quad ' if self.lang == 'zh' else ':\\ ') + t
        return t


# The room on a 16:9 frame (pt): the text's width, and the height left for a
# figure below the title and above a one-line caption.
TEXT_WIDTH = 390.0
FRAME_HEIGHT = 165.0


PT_PER_CM = 72.27 / 2.54
TERMINAL = re.compile(r'(set terminal cairolatex[^\n]*?size )([0-9.]+)cm,([0-9.]+)cm')


def slide_figure(figdir, name, width, height):
    '''fig/NAME.tex if the figure fits width x height (pt); otherwise
    slides/fig/NAME-WxH.tex, drawn by gnuplot at a size that fits, the
    script's terminal size (or common.gp's) replaced.'''
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    gp = os.path.join(top, 'figures', name + '.gp')
    common = os.path.join(top, 'figures', 'common.gp')
    try:
        script = open(gp, encoding='utf-8').read()
        common_text = open(common, encoding='utf-8').read()
    except OSError:
        return 'fig/%s.tex' % name
    if 'common.gp' in script and not TERMINAL.search(script):
        script = re.sub(r"^\s*load\s+'common.gp'\s*$", lambda m: common_text, script,
                        flags=re.M)
    m = TERMINAL.search(script) or TERMINAL.search(common_text)
    if not m:
        return 'fig/%s.tex' % name
    w, h = float(m.group(2)) * PT_PER_CM, float(m.group(3)) * PT_PER_CM
    scale = min(1.0, width / w, height / h)
    if scale > 0.97:
        return 'fig/%s.tex' % name
    nw, nh = w * scale / PT_PER_CM, h * scale / PT_PER_CM
    base = '%s-%.1fx%.1f' % (name, nw, nh)
    build = os.path.dirname(figdir)
    out = os.path.join(build, 'slides', 'fig', base + '.tex')
    with _FIG_LOCKS_LOCK:               # the zh and en decks may want the same one
        lock = _FIG_LOCKS.setdefault(out, threading.Lock())
    with lock:
        return _draw_slide_figure(build, top, gp, common, script, name, base, out, nw, nh)


_FIG_LOCKS = {}
_FIG_LOCKS_LOCK = threading.Lock()


def _draw_slide_figure(build, top, gp, common, script, name, base, out, nw, nh):
    '''slide_figure's drawing, once per output file at a time.'''
    data = os.path.join(build, 'data', name + '.dat')
    if os.path.exists(out) and os.path.getmtime(out) >= max(
            os.path.getmtime(gp), os.path.getmtime(common), os.path.getmtime(data)):
        return 'slides/fig/%s.tex' % base
    os.makedirs(os.path.dirname(out), exist_ok=True)
    script = TERMINAL.sub(lambda t: '%s%.2fcm,%.2fcm' % (t.group(1), nw, nh), script)
    tmp = os.path.join(build, 'slides', 'fig', base + '.gp')
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(script)
    subprocess.run(['gnuplot', '-e', "datafile='data/%s.dat'; outfile='slides/fig/%s.tex'"
                    % (name, base), 'slides/fig/%s.gp' % base], cwd=build, check=True,
                   env=dict(os.environ, GNUPLOT_LIB=os.path.join(top, 'figures'),
                            LC_ALL='C.UTF-8'))   # as mk/figures.mk: no iconv warning
    return 'slides/fig/%s.tex' % base


TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tikz_preamble():
    '''TikZ and the libraries the book's diagrams use: tex/attnbook.sty's
    own \\usetikzlibrary line, so that the decks cannot drift from the book.'''
    sty = open(os.path.join(TOP, 'tex', 'attnbook.sty'), encoding='utf-8').read()
    libs = re.findall(r'^\\usetikzlibrary\{([^}]*)\}', sty, re.M)
    return '\\usepackage{tikz}\n' + ''.join('\\usetikzlibrary{%s}\n' % l for l in libs)


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


def slide_caption(caption, lang):
    '''A caption on a slide: its first sentence, what the figure shows,
    without how the build made it (which program printed the data; the book
    says that).'''
    c = re.sub(r'\s+', ' ', caption).strip()
    if lang == 'zh':
        c = re.sub(r'，?由\s*\\texttt\{[^{}]*\}\s*在构建本书时测得', '', c)
        sentences = re.findall(r'[^。]+。?', c)
    else:
        c = re.sub(r',? measured by \\texttt\{[^{}]*\}( while the book was built)?', '', c)
        sentences = re.split(r'(?<=[.;])\s+(?=[A-Z$])', c)
    keep = [x for x in sentences if '\\texttt' not in x and 'the build' not in x
            and '构建' not in x]
    # the first sentence: the frame's title already says the point
    return keep[0].strip() if keep else ''


def speaker_notes(tex):
    '''The paragraph before a mark, as the frame's notes: one paragraph, no
    footnotes or index entries.'''
    tex = nwbook.replace_macro(tex, 'footnote', 1, lambda a: '')
    tex = nwbook.replace_macro(tex, 'index', 1, lambda a: '')
    return re.sub(r'\n\s*\n', '\n', tex).strip()


def raw(latex):
    fence = '```'
    while fence in latex:
        fence += '`'
    return '%s{=latex}\n%s\n%s\n' % (fence, latex, fence)


def write_if_changed(path, text):
    try:
        if open(path, encoding='utf-8').read() == text:
            return False
    except OSError:
        pass
    with open(path + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(path + '.tmp', path)
    return True


def book_title(top, lang):
    return nwbook.meta.title(lang)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    outdir, paths = argv[1], argv[2:]
    figdir = os.path.join(os.path.dirname(os.path.abspath(outdir)), 'fig')
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.makedirs(outdir, exist_ok=True)
    src = nwbook.Source(paths)
    warnings = []
    jobs = []
    for lang in ('zh', 'en'):
        book = nwbook.Book(src, lang, figdir=None)
        warnings += [w for w in book.warnings if 'slide' in w]
        header = os.path.join(outdir, 'header-%s.tex' % lang)
        text = HEADER[lang] + COMMON        # the fonts: book.toml's, as the book's
        for key, value in nwbook.meta.load()['fonts'].items():
            text = text.replace('@%s@' % key, value)
        write_if_changed(header, text)
        jobs += [(book, chap, header) for chap in book.chapters if chap.slides]

    def one(job):
        """One deck: its markdown (figures redrawn at the frame's size as
        needed), then pandoc.  Returns (name, warnings, error)."""
        book, chap, header = job
        deck = Deck(book, chap, figdir)
        md = deck.markdown()
        name = '%s-%s' % (os.path.splitext(os.path.basename(chap.file))[0], book.lang)
        p = subprocess.run(
            ['pandoc', '-f', 'markdown', '-t', 'beamer', '-s', '--slide-level=2',
             '-V', 'aspectratio=169',
             # a title with math cannot be the PDF's metadata title
             '-V', 'classoption=usepdftitle=false',
             '-V', 'title=' + deck.title(), '-V', 'subtitle=' + book_title(top, book.lang),
             '-V', 'date=', '-H', header, '--highlight-style=tango'],
            input=md.encode('utf-8'), capture_output=True)
        if p.returncode != 0:
            return name, [], p.stderr.decode('utf-8', 'replace')
        tex = deck.finish(p.stdout.decode('utf-8'))
        write_if_changed(os.path.join(outdir, name + '.md'), md)
        write_if_changed(os.path.join(outdir, name + '.tex'), tex)
        return name, deck.warnings, None

    # The decks are independent: pandoc and gnuplot run side by side (about
    # 40 processes, which one after the other took most of this step's time).
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        for name, deck_warnings, error in ex.map(one, jobs):
            if error is not None:
                sys.stderr.write(error)
                print('slides: pandoc failed on %s' % name, file=sys.stderr)
                return 1
            warnings += deck_warnings
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
