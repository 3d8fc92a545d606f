"""The book in one language, for the HTML edition and the slides.

Nothing here reads the woven LaTeX.  tools/nwbook/ reads the chapters (noweb's
own front end, the one brace parser, the one language selection), and this
module walks them in order, turning them into:

  - one Chapter per \\chapter: its documentation text (LaTeX, one language,
    \\zhen resolved, comments gone) with a marker \\htmlchunk{N} where code
    chunk N stood and \\htmlq{N} where a [[quoted]] piece of code stood;
  - the code chunks, each with its name, label, continuations, uses and the
    identifiers it defines, and its lines as text and uses of other chunks;
  - the numbers of chapters, sections, equations, figures, tables and
    exercises and every \\label's: LaTeX's, taken in order from the .aux of
    the PDF in the same language (tools/nwbook/aux.py); nothing here counts.

Marks for the slides are comments in the documentation:

    % slide                   the next equation, figure, table or code chunk
    % slide: TITLE            ... on a frame titled TITLE (\\zhen allowed)
    % slide+                  ... added to the previous frame
    % slide*: TITLE           a frame of its lines only, here
    % zh: 一行                 after a mark: a short line of the frame, in Chinese
    % en: one line            ... and in English (one to three of each)

The text just before a mark is the frame's speaker notes.

They are collected as Chapter.slides, in order (see tools/html/slides.py).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import chunknames  # noqa: E402  (tools/chunknames.py)
from nwbook import aux, lang as nwlang, meta  # noqa: E402
from nwbook.noweb import Source, chapter_paths  # noqa: E402,F401
from nwbook.tex import read_group, skip_space, replace_macro, strip_comments  # noqa: E402,F401

CJK = re.compile(r'[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]')

# Words of the book's own machinery, per language: book.toml, the same words
# the PDFs print (tools/nwbook/meta.py).
try:
    WORDS = {lang: meta.words(lang) for lang in ('zh', 'en')}
except meta.MetaError as e:             # one line naming book.toml, no traceback
    print(e, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------------
# LaTeX text helpers


def select_language(text, lang):
    """Keep the lang blocks (without their \\begin/\\end lines), drop the other's."""
    return '\n'.join(nwlang.select_language(nwlang.strip_answerkeys(text).split('\n'), lang))


def resolve_language(text, lang):
    """\\zhen{中文}{English} and the like, for one edition; a chunk named in
    the prose in the Chinese edition by its Chinese name."""
    text = nwlang.resolve_language(text, lang)
    if lang == 'zh':
        text = re.sub(r'\\LA\{\}(.*?)\\RA\{\}',
                      lambda m: '\\LA{}%s\\RA{}' % display_name(m.group(1), lang), text,
                      flags=re.S)
    return text.replace('\\LA{}', '⟨').replace('\\RA{}', '⟩')


def display_name(name, lang):
    """A chunk's name as the edition shows it: in the Chinese edition its
    Chinese name (chapters/chunk-names.zh), else the English key."""
    if lang == 'zh':
        return chunknames.chinese(name) or name
    return name


def chapter_deps(path):
    """build/chapterdeps.tex (tools/forward_use.py --deps): label -> the
    LaTeX that \\chapterdeps{label} prints."""
    deps = {}
    try:
        with open(path, encoding='utf-8') as f:
            for line in f:
                m = re.match(r'\\attndeps\{([^{}]*)\}\{(.*)\}$', line.rstrip('\n'))
                if m:
                    deps[m.group(1)] = m.group(2)
    except OSError:
        pass                    # then every \chapterdeps is a warning
    return deps


# ---------------------------------------------------------------------------
# The book, walked in order; every number is LaTeX's (tools/nwbook/aux.py)


class Chapter:
    """One page of the HTML edition: a \\chapter and what follows it."""

    def __init__(self, slug, file):
        self.slug = slug            # file name without .html
        self.file = file            # the .nw it comes from
        self.number = ''            # '1', 'A', or '' (the preface)
        self.appendix = False
        self.title = ''             # LaTeX, one language
        self.short = ''             # the contents' title
        self.text = ''              # LaTeX with markers, for pandoc
        self.sections = []          # (level, number, id, title LaTeX)
        self.slides = []            # Slide, see slides.py
        self.chunks = []


# A slide mark (see the top of this file) and the lines that follow it.
SLIDE_MARK = re.compile(r'^[ \t]*%[ \t]*slide(\+|\*)?(:[^\n]*)?[ \t]*\n'
                        r'((?:[ \t]*%[ \t]*(?:zh|en):[^\n]*\n)*)', re.M)


class Slide:
    """One frame: a title (the takeaway), its short lines, the book's
    elements on it, and speaker notes (the text before the mark)."""

    def __init__(self, title, elements, points, notes):
        self.title = title
        self.elements = elements
        self.points = points
        self.notes = notes

    def __iter__(self):             # title, elements = slide
        return iter((self.title, self.elements))


def preceding_paragraph(text):
    """The last paragraph of prose in text (LaTeX), for speaker notes."""
    for para in reversed(re.split(r'\n[ \t]*\n', text)):
        p = para.strip()
        if not p or re.match(r'\\(begin|end|htmlchunk|htmlbegin|htmlend|htmlslide|label|'
                             r'\[|\]|section|subsection|chapter|gnuplotfig|tikzfig|programoutput|centering)', p):
            continue
        if len(re.sub(r'\\[A-Za-z]+|[{}$\s]', '', p)) < 20:
            continue
        return p
    return ''


class Book:
    """The book in one language: its Chapters, labels, boxes and chunks."""

    def __init__(self, source, lang, figdir=None, auxfile=None):
        """auxfile: the .aux of this language's PDF (build/book-LANG.aux)."""
        self.src = source
        self.lang = lang
        auxfile = auxfile or os.path.join(meta.TOP, 'build', 'book-%s.aux' % lang)
        self.nums = aux.Numbers(auxfile)
        self.deps = chapter_deps(os.path.join(os.path.dirname(auxfile), 'chapterdeps.tex'))
        self.w = WORDS[lang]
        self.figdir = figdir        # build/fig: numbers files \gnuplotfig'd outside figures
        self.chapters = []
        self.labels = {}            # label -> (number, Chapter slug, kind)
        self.boxes = []             # dicts: kind, id, number, ...
        self.warnings = []
        self._marks = []            # (mark, lines) of each \\htmlslide{N}
        self._number()

    def _deps(self, m):
        """\\chapterdeps{LABEL}, as tex/attnbook.sty expands it."""
        if m.group(1) not in self.deps:
            self.warnings.append('\\chapterdeps{%s}: no such chapter in chapterdeps.tex'
                                 % m.group(1))
            return '?'
        return self.deps[m.group(1)] or '---'

    # The walk over the whole book, in order.
    def _number(self):
        appendix = False
        chap = None
        for path, items in self.src.files:
            base = os.path.splitext(os.path.basename(path))[0]
            parts = []
            for kind, x in items:
                if kind == 'docs':
                    parts.append(x)
                else:
                    parts.append('\n\n\\htmlchunk{%d}\n\n' % x.index)
            text = ''.join(parts)
            text = select_language(text, self.lang)
            text = SLIDE_MARK.sub(self._mark, text)
            text = strip_comments(text)
            text = resolve_language(text, self.lang)
            text = re.sub(r'\\chapterdeps\{([^{}]*)\}', self._deps, text)
            # Split at \chapter; what comes before the first one (\appendix,
            # \mainmatter) only changes the state.
            pieces = re.split(r'(?=\\chapter(?![A-Za-z]))', text)
            state = {'n': 0}
            for piece in pieces:
                if not piece.startswith('\\chapter'):
                    if re.search(r'\\appendix\b', piece):
                        appendix = True
                    if chap is not None and piece.strip():
                        chap.text += self._walk(chap, piece)
                    continue
                slug = base if state['n'] == 0 else '%s-%d' % (base, state['n'])
                state['n'] += 1
                chap = Chapter(slug, path)
                chap.appendix = appendix
                self.chapters.append(chap)
                chap.number = self.nums.take('chapter')
                chap.text = self._walk(chap, piece)
        self._tag_chunks()
        # Every number the PDF gave must have been taken, in step: a number
        # left over means the walk missed a heading, display or caption.
        for kind, numbers in self.nums.order.items():
            left = numbers[self.nums._next[kind]:]
            if kind == 'chapter':       # the bibliography and the indexes
                left = [n for n in left if n]
            if left:
                self.warnings.append('%s: %d numbered %s(s) of the PDF not in the HTML '
                                     'edition, from %s' % (self.nums.path, len(left), kind, left[0]))

    def _tag_chunks(self):
        for chap in self.chapters:
            for n, c in enumerate(chap.chunks, 1):
                c.tag = '%s.%d' % (chap.number or 'P', n)

    def _label(self, chap, label, kind):
        """A \\label: its number is what LaTeX wrote for it."""
        if label in self.labels:
            self.warnings.append('label %s defined twice' % label)
        if label not in self.nums.labels:
            self.warnings.append('%s: \\label{%s} is not in %s' % (chap.file, label, self.nums.path))
        self.labels[label] = (self.nums.labels.get(label, '??'), chap.slug, kind)

    def _box(self, **kw):
        self.boxes.append(kw)
        return len(self.boxes) - 1

    def _walk(self, chap, text):
        """Number the piece of chapter text and rewrite it for pandoc."""
        out = []
        pending_slide = None
        i = 0
        pat = re.compile(
            r'\\(chapter|section|subsection|subsubsection|paragraph)(\*?)(?![A-Za-z])'
            r'|\\begin\{(equation|align|gather|multline|figure|table|exercise)(\*?)\}'
            r'|\\(?:begin|end)\{(?:bilingual|center|flushleft|flushright)\}'
            r'|\\label\{([^}]*)\}'
            r'|\\htmlchunk\{(\d+)\}'
            r'|\\htmlslide\{([^}]*)\}'
            r'|\\gnuplotfig\{([^}]*)\}'
            r'|\\programoutput\{([^}]*)\}\{[^{}]*\}\{[^{}]*\}'
            r'|\\(?:appendix|mainmatter|frontmatter|backmatter|centering)(?![A-Za-z])'
            r'|\\begin\{verbatim\}')
        while True:
            m = pat.search(text, i)
            if not m:
                out.append(text[i:])
                break
            out.append(text[i:m.start()])
            i = m.end()
            g = m.group(0)
            if m.group(1):                       # a heading
                level = m.group(1)
                star = m.group(2) == '*'
                j = skip_space(text, i)
                short = None
                if j < len(text) and text[j] == '[':
                    short, j = read_group(text, j, '[', ']')
                    j = skip_space(text, j)
                title, i = read_group(text, j)
                k = skip_space(text, i)
                lm = re.match(r'\\label\{([^}]*)\}', text[k:])
                label = None
                if lm:
                    label = lm.group(1)
                    i = k + lm.end()
                if level == 'chapter':
                    chap.title = title
                    chap.short = short or title
                    hid = label or 'top'
                    if label:
                        self._label(chap, label, 'chapter')
                    if chap.number:
                        word = self.w['appendix' if chap.appendix else 'chapter']
                        head = '\\htmlnum{%s}' % word.format(chap.number)
                    else:
                        head = ''
                    out.append('\\chapter{%s%s}\\label{%s}\n' % (head, title, hid))
                    chap.sections.append((0, chap.number, hid, title))
                    continue
                num = ''
                if level in ('section', 'subsection') and not star:
                    num = self.nums.take(level)
                hid = label or 'sec-%s-%d' % (level[:3], len(chap.sections))
                if label:
                    self._label(chap, label, level)
                depth = {'section': 1, 'subsection': 2}.get(level, 3)
                chap.sections.append((depth, num, hid, title))
                head = '\\htmlnum{%s}' % num if num else ''
                out.append('\\%s{%s%s}\\label{%s}\n' % (level, head, title, hid))
                continue
            if m.group(3):                       # an environment we number
                env, star = m.group(3), m.group(4)
                end = '\\end{%s%s}' % (env, star)
                k = text.find(end, i)
                if k < 0:
                    self.warnings.append('%s: \\begin{%s%s} without end' % (chap.file, env, star))
                    out.append(g)
                    continue
                body = text[i:k]
                i = k + len(end)
                if env == 'exercise':
                    # the body stays in the text; only the opening is replaced
                    i = m.end()
                    j = skip_space(text, i)
                    opt = None
                    if j < len(text) and text[j] == '[':
                        opt, i = read_group(text, j, '[', ']')
                    k2 = skip_space(text, i)
                    lm = re.match(r'\\label\{([^}]*)\}', text[k2:])
                    num = self.nums.take('exercise')
                    eid = 'exercise-%s' % num
                    if lm:
                        eid = lm.group(1)
                        self._label(chap, eid, 'exercise')
                        i = k2 + lm.end()
                    b = self._box(kind='exercise', id=eid, number=num)
                    head = '\\textbf{%s}' % self.w['exercise'].format(num)
                    if opt:
                        head += '（%s）' % opt if self.lang == 'zh' else ' (%s)' % opt
                    out.append('\n\n\\htmlbegin{%d}\n\n%s\n\n' % (b, head))
                    # \end{exercise} closes it
                    k3 = text.find('\\end{exercise}', i)
                    text = text[:k3] + '\n\n\\htmlend{%d}\n\n' % b + \
                        text[k3 + len('\\end{exercise}'):]
                    continue
                if env in ('figure', 'table'):
                    out.append(self._float(chap, env, body, pending_slide))
                    pending_slide = None
                    continue
                out.append(self._equation(chap, env, star, body, pending_slide))
                pending_slide = None
                continue
            if m.group(5) is not None:           # a stray label
                label = m.group(5)
                self._label(chap, label, 'label')
                out.append('\\htmlanchor{%s}' % label)
                continue
            if m.group(6) is not None:           # a code chunk
                ch = self.src.chunks[int(m.group(6))]
                chap.chunks.append(ch)
                if pending_slide is not None:
                    self._slide(chap, pending_slide, ('code', ch))
                    pending_slide = None
                out.append(g)
                continue
            if m.group(7) is not None:           # % slide mark
                mark, points = self._marks[int(m.group(7))]
                notes = preceding_paragraph(text[:m.start()])
                if mark.startswith('*'):         # a frame of its lines only
                    self._slide(chap, (mark, points, notes), None)
                else:
                    pending_slide = (mark, points, notes)
                continue
            if m.group(8) is not None:           # \gnuplotfig outside a figure
                out.append(self._numbers_file(m.group(8)))
                continue
            if m.group(9) is not None:           # program output set verbatim
                out.append(self._excerpt(m.group(9)))
                continue
            if g == '\\begin{verbatim}':
                k = text.find('\\end{verbatim}', i)
                out.append(text[m.start():k + len('\\end{verbatim}')])
                i = k + len('\\end{verbatim}')
                continue
            # dropped commands and wrappers
            continue
        if pending_slide is not None:
            self.warnings.append('%s: a %% slide mark with nothing after it' % chap.file)
        return ''.join(out)

    def _mark(self, m):
        """A slide mark and its lines in this edition's language, for later."""
        points = [p.strip() for lang, p in
                  re.findall(r'^[ \t]*%[ \t]*(zh|en):(.*)$', m.group(3) or '', re.M)
                  if lang == self.lang and p.strip()]
        self._marks.append(((m.group(1) or '') + (m.group(2) or ''),
                            [resolve_language(p, self.lang) for p in points]))
        return '\\htmlslide{%d}\n' % (len(self._marks) - 1)

    def _slide(self, chap, mark, element):
        mark, points, notes = mark
        if mark == '+' and chap.slides:
            chap.slides[-1].elements.append(element)
            chap.slides[-1].points += points
            return
        title = mark.split(':', 1)[1].strip() if ':' in mark else None
        if not title:
            heads = [s for s in chap.sections if s[0] > 0]
            title = heads[-1][3] if heads else chap.title
        chap.slides.append(Slide(resolve_language(title, self.lang),
                                 [element] if element else [], points, notes))

    def _numbers_file(self, name):
        """A \\gnuplotfig outside a figure: a script that prints LaTeX rather
        than draws (numbers the text quotes as \\gdef macros, or program
        output set verbatim).  Its output goes into the text as it is, the
        macros as \\newcommand, which pandoc expands."""
        if not self.figdir:
            return ''
        path = os.path.join(self.figdir, name + '.tex')
        try:
            tex = open(path, encoding='utf-8').read()
        except OSError:
            self.warnings.append('%s is missing' % path)
            return ''
        if 'GNUPLOT: LaTeX picture' in tex:
            self.warnings.append('\\gnuplotfig{%s} outside a figure environment' % name)
            return ''
        tex = re.sub(r'\\[gx]?def\\([A-Za-z]+)\{([^{}]*)\}%?',
                     r'\\newcommand{\\\1}{\2}', tex)
        return '\n' + tex + '\n'

    def _excerpt(self, name):
        """\\programoutput{NAME}{..}{..}: what the build put in excerpt/NAME.tex."""
        if not self.figdir:
            return ''
        path = os.path.join(os.path.dirname(self.figdir), 'excerpt', name + '.tex')
        if self.lang == 'zh' and os.path.exists(path[:-4] + '-zh.tex'):
            path = path[:-4] + '-zh.tex'       # a demo's Chinese run (tools/excerpt.py)
        try:
            return '\n' + open(path, encoding='utf-8').read() + '\n'
        except OSError:
            self.warnings.append('%s is missing' % path)
            return ''

    def _equation(self, chap, env, star, body, slide):
        """equation, align, gather, multline (starred or not): numbered rows."""
        if env in ('align', 'gather'):
            rows = re.split(r'\\\\(?:\[[^\]]*\])?', body)
        else:
            rows = [body]
        numbered = []
        for row in rows:
            tag = None
            tm = re.search(r'\\tag\*?\{([^}]*)\}', row)
            if tm:
                tag = tm.group(1)
            elif not star and not re.search(r'\\no(?:tag|number)\b', row):
                tag = self.nums.take('equation')
            labels = re.findall(r'\\label\{([^}]*)\}', row)
            numbered.append((tag, labels))
        clean = lambda s: re.sub(r'\\(?:label|tag\*?)\{[^}]*\}|\\no(?:tag|number)\b', '', s)
        pieces = []
        wrap = {'align': 'aligned', 'gather': 'gathered', 'multline': 'gathered'}.get(env)
        tags = [t for t, _ in numbered if t]
        if len(tags) <= 1:
            groups = [(body, tags[0] if tags else None,
                       [l for _, ls in numbered for l in ls])]
        else:           # several numbers: one display per row, each with its own
            groups = [(r, t, ls) for r, (t, ls) in zip(rows, numbered) if r.strip()]
        elements = []
        for rows_text, tag, labels in groups:
            math = clean(rows_text).strip()
            if wrap:
                math = '\\begin{%s}%s\\end{%s}' % (wrap, math, wrap)
            eid = labels[0] if labels else ('eq-%s' % tag if tag else None)
            for l in labels:
                self._label(chap, l, 'equation')
            b = self._box(kind='equation', id=eid, number=tag)
            pieces.append('\n\n\\htmlbegin{%d}\n\n\\[%s\\]\n\n\\htmlend{%d}\n\n' % (b, math, b))
            elements.append(('equation', math, tag))
        if slide is not None:
            for n, e in enumerate(elements):
                self._slide(chap, slide if n == 0 else ('+', [], ''), e)
        return ''.join(pieces)

    def _float(self, chap, env, body, slide):
        body = re.sub(r'^\s*\[[a-zA-Z!]*\]', '', body)     # [htbp]
        caps = []

        def caption(short, text):
            caps.append(text)
            return '\x01CAPTION%d\x01' % (len(caps) - 1)
        body = replace_macro(body, 'caption', 1, caption, optional=True)
        labels = re.findall(r'\\label\{([^}]*)\}', body)
        body = re.sub(r'\\label\{[^}]*\}', '', body)
        body = re.sub(r'\\centering\b|\\small\b|\\footnotesize\b', '', body)
        number = self.nums.take(env) if caps else None
        fid = labels[0] if labels else '%s-%s' % (env, number)
        for l in labels:
            self._label(chap, l, env)
        slide_body = re.sub(r'\x01CAPTION\d+\x01', '', body)
        # a plot (gnuplot) or a diagram (TikZ): each is an SVG of its name
        figs = re.findall(r'\\(?:gnuplot|tikz)fig\{([^}]*)\}', body)
        body = re.sub(r'\\(?:gnuplot|tikz)fig\{([^}]*)\}', r'\n\n\\htmlimg{\1}\n\n', body)
        body = re.sub(r'\\(?:begin|end)\{(?:bilingual|center)\}', '', body)
        cb = self._box(kind='caption', id=None,
                       number=self.w[env].format(number) if number else None)
        body = body.replace('\x01CAPTION0\x01', '\n\n\\htmlbegin{%d}\n\n%s\n\n\\htmlend{%d}\n\n'
                            % (cb, caps[0] if caps else '', cb))
        b = self._box(kind=env, id=fid, number=number, images=figs)
        if slide is not None:
            self._slide(chap, slide, (env, figs, slide_body, caps[0] if caps else '',
                                      self.w[env].format(number) if number else ''))
        return '\n\n\\htmlbegin{%d}\n\n%s\n\n\\htmlend{%d}\n\n' % (b, body, b)

