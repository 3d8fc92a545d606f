#!/usr/bin/python3
"""Chapter slides:  slides.py OUTDIR CHAPTER.nw ...

For every chapter with `% slide` marks, and each language, writes
OUTDIR/NN-topic-LANG.tex: a beamer deck made by pandoc (-t beamer) from the
marked equations (with the book's numbers), figures (the book's own
build/fig/NAME.tex, labelled in the deck's language through \\zhen), tables
and code chunks, in the order of the chapter.  A file is rewritten only when
it changes, so make typesets only the decks that did.  tools/html/slides.sh
then runs xelatex (ctex for Chinese) from build/, where fig/ is.

The marks (documentation lines of the .nw, comments to LaTeX):

    % slide                 the next equation, figure, table or code chunk
                            goes on a frame titled by the current section
    % slide: TITLE          ... on a frame with this title (\\zhen{..}{..} allowed)
    % slide+                ... on the same frame as the previous mark
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nwbook  # noqa: E402

MAX_CODE_LINES = 22

HEADER = {
    'zh': r"""\usepackage[fontset=none]{ctex}
\setCJKmainfont{Noto Serif CJK SC}
\setCJKsansfont{Noto Sans CJK SC}
\setCJKmonofont{Noto Sans Mono CJK SC}
\renewcommand{\CJKfamilydefault}{\CJKsfdefault}
\newcommand{\zhen}[2]{#1}
""",
    'en': r"""\newcommand{\zhen}[2]{#2}
""",
}
COMMON = r"""\usepackage{amsmath,amssymb,booktabs,array,graphicx,xcolor,adjustbox}
\setmonofont{DejaVu Sans Mono}[Scale=0.86]
\setbeamertemplate{navigation symbols}{}
\setbeamertemplate{footline}{\hfill\insertframenumber\hspace{1em}\vspace{0.5em}}
\setbeamerfont{caption}{size=\scriptsize}
\definecolor{attnblue}{RGB}{31,95,168}
\setbeamercolor{frametitle}{fg=attnblue}
\setbeamercolor{title}{fg=attnblue}
\newcommand{\zhword}[1]{#1}
\usepackage{fancyvrb}  % pandoc loads it only for decks with code; \fvset needs it always
\fvset{fontsize=\scriptsize}
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
    def __init__(self, book, chap):
        self.book = book
        self.chap = chap
        self.lang = book.lang
        self.warnings = []

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
            if tag:
                body = '\\begin{equation*}\n%s\n\\tag{%s}\n\\end{equation*}' % (math, tag)
            else:
                body = '\\[\n%s\n\\]' % math
            return raw(body)
        if kind == 'code':
            c = e[1]
            lines = []
            for line in c.lines:
                lines.append(''.join(p[1] if p[0] in ('text', 'ident') else
                                     '<<%s>>' % re.sub(r'\[\[(.*?)\]\]', r'\1', p[1])
                                     for p in line))
            if len(lines) > MAX_CODE_LINES:
                self.warnings.append('%s: chunk <<%s>> has %d lines: too long for a slide '
                                     '(at most %d)' % (self.chap.file, c.name, len(lines),
                                                       MAX_CODE_LINES))
            first = self.book.src.by_label.get(c.first, c)
            head = r'{\footnotesize $\langle$\emph{%s}$\rangle%s\equiv$}' % (
                chunk_name(c.name), '+' if first is not c else '')
            fence = '~' * max(4, max((len(m) for l in lines
                                      for m in re.findall(r'~+', l)), default=0) + 1)
            return raw(head) + '\n' + fence + ' {.c}\n' + '\n'.join(lines) + '\n' + fence + '\n'
        if kind in ('figure', 'table'):
            _, figs, body, caption, number = e
            parts = []
            if kind == 'figure':
                height = 0.68 / max(1, len(figs))
                for f in figs:
                    parts.append('\\begin{center}\\adjustbox{max width=\\textwidth,'
                                 'max totalheight=%.2f\\textheight}{\\footnotesize'
                                 '\\input{fig/%s.tex}}\\end{center}' % (height, f))
            else:
                parts.append('\\begin{center}\\adjustbox{max width=\\textwidth,'
                             'max totalheight=0.7\\textheight}{\\small %s}\\end{center}'
                             % self.latex(body).strip())
            if caption:
                parts.append('{\\usebeamerfont{caption}\\textbf{%s}\\quad %s\\par}' % (
                    number, self.latex(caption)))
            return raw('\n'.join(parts))
        raise ValueError(kind)

    def markdown(self):
        out = []
        for title, elements in self.chap.slides:
            out.append('## `%s`{=latex}\n' % self.latex(title).replace('`', "'").strip())
            for e in elements:
                out.append(self.element(e))
            out.append('')
        return '\n'.join(out)

    def title(self):
        w = self.book.w
        t = self.latex(self.chap.title)
        if self.chap.number:
            shown = getattr(self.chap, 'shown', self.chap.number)
            t = w['appendix' if self.chap.appendix else 'chapter'].format(shown) + \
                ('\\quad ' if self.lang == 'zh' else ':\\ ') + t
        return t


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
    sty = open(os.path.join(top, 'tex', 'attnbook.sty'), encoding='utf-8').read()
    m = re.search(r'pdftitle=\{(.*)\},\s*$', sty, re.M)
    return nwbook.resolve_language(m.group(1), lang) if m else ''


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    outdir, paths = argv[1], argv[2:]
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.makedirs(outdir, exist_ok=True)
    src = nwbook.Source(paths)
    warnings = []
    for lang in ('zh', 'en'):
        book = nwbook.Book(src, lang, figdir=None)
        warnings += [w for w in book.warnings if 'slide' in w]
        header = os.path.join(outdir, 'header-%s.tex' % lang)
        write_if_changed(header, HEADER[lang] + COMMON)
        for chap in book.chapters:
            if not chap.slides:
                continue
            deck = Deck(book, chap)
            md = deck.markdown()
            name = '%s-%s' % (os.path.splitext(os.path.basename(chap.file))[0], lang)
            p = subprocess.run(
                ['pandoc', '-f', 'markdown', '-t', 'beamer', '-s', '--slide-level=2',
                 '-V', 'aspectratio=169',
                 # a title with math cannot be the PDF's metadata title
                 '-V', 'classoption=usepdftitle=false',
                 '-V', 'title=' + deck.title(), '-V', 'subtitle=' + book_title(top, lang),
                 '-V', 'date=', '-H', header, '--highlight-style=tango'],
                input=md.encode('utf-8'), capture_output=True)
            if p.returncode != 0:
                sys.stderr.write(p.stderr.decode('utf-8', 'replace'))
                print('slides: pandoc failed on %s' % name, file=sys.stderr)
                return 1
            tex = p.stdout.decode('utf-8')
            write_if_changed(os.path.join(outdir, name + '.md'), md)
            write_if_changed(os.path.join(outdir, name + '.tex'), tex)
            warnings += deck.warnings
    for w in sorted(set(warnings)):
        print('slides: warning: ' + w, file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
