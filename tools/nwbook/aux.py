"""The numbers LaTeX gave the PDF: read from an edition's .aux file.

Nothing outside LaTeX numbers the book, and this is the one reader of what
it wrote.  The HTML edition and the slides walk the chapters in order and
take each heading's, figure's, table's, equation's and exercise's number
from what the PDF build of the same language wrote; the diagrams on the web
(tools/tikzfig.py) take the numbers they cite, and the instructor's guide
(tools/course.py) the numbers, pages and section titles it lists:

  \\@writefile{toc}{\\contentsline {section}{\\numberline {2.1}...}{PAGE}{ANCHOR}}
                        every \\chapter, \\section, \\subsection, in order
                        (no \\numberline: an unnumbered one; a chapter's
                        number is its anchor's, chapter.3 or appendix.B)
  \\@writefile{lof}{...}, \\@writefile{lot}{...}
                        every captioned figure and table
  \\attnnumber{equation}{7}, \\attnnumber{exercise}{2.3}
                        every numbered equation and exercise
                        (tex/attnbook.sty writes these)
  \\newlabel{LABEL}{{NUMBER}{PAGE}...}
                        every \\label, and the page it is on

and the bibliography's numbers from what biber wrote beside it (the .bbl):
its entries, listed in the order the bibliography prints them, are [1],
[2], ...
"""
import re

from .tex import arguments

KINDS = ('chapter', 'section', 'subsection', 'figure', 'table', 'equation', 'exercise')
START = re.compile(r'\\(newlabel|@writefile|attnnumber)(?![A-Za-z@])')


class AuxError(Exception):
    pass


def _plain(number):
    """A number as the text shows it: \\numberline's and ctex's wrapping gone."""
    number = re.sub(r'\\[A-Za-z@]+\s*', '', number)
    return re.sub(r'[{}\s]', '', number)


class Numbers:
    """The numbers of one edition, in the order LaTeX gave them."""

    def __init__(self, path):
        self.path = path
        try:
            text = open(path, encoding='utf-8', errors='replace').read()
        except OSError as e:
            raise AuxError('%s: %s (build the PDFs first: make pdf)' % (path, e)) from None
        self.labels = {}                    # label -> number ('' unnumbered)
        self.pages = {}                     # label -> its page, as printed
        self.sections = []                  # (number, title, page) of the numbered \\sections
        self.order = {k: [] for k in KINDS}  # kind -> numbers in order
        for m in START.finditer(text):
            what = m.group(1)
            args, _ = arguments(text, m.end(), 2, spaces=' ')
            if args is None:
                continue
            if what == 'newlabel':
                inner, k = arguments(args[1], 0, 1)
                page, _ = arguments(args[1], k, 1)
                self.labels[args[0]] = _plain(inner[0]) if inner else ''
                self.pages[args[0]] = page[0] if page else ''
            elif what == 'attnnumber':
                if args[0] in self.order:
                    self.order[args[0]].append(args[1])
            else:
                self._contentsline(args[0], args[1])
        self._next = {k: 0 for k in KINDS}
        self.citations = {}                 # key -> its number in the bibliography
        try:
            with open(path[:-len('.aux')] + '.bbl', encoding='utf-8', errors='replace') as f:
                for key in re.findall(r'^\s*\\entry\{([^}]*)\}', f.read(), re.M):
                    self.citations.setdefault(key, len(self.citations) + 1)
        except OSError:
            pass                            # no \cite, no .bbl: no bibliography

    def _contentsline(self, where, line):
        m = re.match(r'\s*\\contentsline\s*', line)
        if where not in ('toc', 'lof', 'lot') or not m:
            return
        args, _ = arguments(line, m.end(), 4, spaces=' ')
        if args is None or args[0] not in self.order:
            return
        number = ''
        if args[0] == 'chapter':        # ctex dresses it (第1章, Chapter 1): the anchor
            a = re.match(r'(?:chapter|appendix)\.(\w+)$', args[3])
            number = a.group(1) if a else ''
        else:
            n = re.search(r'\\numberline\s*', args[1])
            if n:
                num, end = arguments(args[1], n.end(), 1, spaces=' ')
                number = _plain(num[0]) if num else ''
                if args[0] == 'section' and number:
                    # the title as the .toc has it: \@writefile doubles the
                    # space after a control word, TeX reads it back as one
                    title = re.sub(r'(\\[A-Za-z@]+)  +', r'\1 ', args[1][end:])
                    self.sections.append((number, title, args[2]))
        self.order[args[0]].append(number)

    def take(self, kind):
        """The next number LaTeX gave a `kind` ('' for an unnumbered one)."""
        k = self._next[kind]
        if k >= len(self.order[kind]):
            raise AuxError('%s: the chapters have more %ss than the PDF numbered (%d): '
                           'is the PDF older than the chapters?' % (self.path, kind, k))
        self._next[kind] = k + 1
        return self.order[kind][k]
