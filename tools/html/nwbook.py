"""The book's sources as noweb sees them, for the HTML edition and the slides.

Nothing here reads the woven LaTeX.  The chapters go through noweb's own
front end (markup | autodefs.c | finduses | noidx, the stages `noweave -n
-index -autodefs c` runs before its LaTeX back end), and this module turns
that representation into:

  - one Chapter per \\chapter: its documentation text (LaTeX, one language,
    \\zhen resolved, comments gone) with a marker \\htmlchunk{N} where code
    chunk N stood and \\htmlq{N} where a [[quoted]] piece of code stood;
  - the code chunks, each with its name, label, continuations, uses and the
    identifiers it defines, and its lines as text and uses of other chunks;
  - the numbers LaTeX gives chapters, sections, equations, figures, tables
    and exercises, computed here with LaTeX's rules (tests/test_html.py
    checks them against the .aux files of the PDFs), and every \\label's
    number and page.

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
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import chunknames  # noqa: E402  (tools/chunknames.py)
import nwlang  # noqa: E402  (tools/nwlang.py: strip_answerkeys)

NOWEB_LIB = '/usr/lib/noweb'
CJK = re.compile(r'[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]')

# Words of the book's own machinery, per language.
WORDS = {
    'zh': {
        'chapter': '第 {} 章', 'appendix': '附录 {}', 'figure': '图 {}',
        'table': '表 {}', 'exercise': '练习 {}', 'contents': '目录', 'references': '参考文献',
        'continued': '本定义续写于{}。', 'used': '本段代码用于{}。',
        'file': '本段代码写入文件 {}。', 'defines': '定义：', 'usedin': '用于 {}',
        'and': ' 和 ', 'comma': '、', 'colon': '：', 'notused': '从未使用',
        'prev': '上一章', 'next': '下一章', 'glossary': '术语表',
        'other': 'English', 'otherlang': 'en', 'index': '目录',
        'continues': '接续 {}',
    },
    'en': {
        'chapter': 'Chapter {}', 'appendix': 'Appendix {}', 'figure': 'Figure {}',
        'table': 'Table {}', 'exercise': 'Exercise {}', 'contents': 'Contents',
        'references': 'References',
        'continued': 'This definition is continued in {}.',
        'used': 'This code is used in {}.',
        'file': 'This code is written to file {}.', 'defines': 'Defines:',
        'usedin': 'used in {}', 'and': ' and ', 'comma': ', ', 'colon': ': ',
        'notused': 'never used',
        'prev': 'Previous', 'next': 'Next', 'glossary': 'Glossary',
        'other': '中文', 'otherlang': 'zh', 'index': 'Contents',
        'continues': 'continues {}',
    },
}


def join_list(items, lang):
    """'a', 'a and b', 'a, b and c' (English) or 'a、b 和 c' (Chinese)."""
    w = WORDS[lang]
    if len(items) <= 1:
        return ''.join(items)
    return w['comma'].join(items[:-1]) + w['and'] + items[-1]


# ---------------------------------------------------------------------------
# noweb's representation


class Chunk:
    """One code chunk (one definition, noweb's @begin code ... @end code)."""

    def __init__(self, index):
        self.index = index          # 0, 1, 2 ... over the whole book
        self.label = None           # noweb's label, e.g. NW3Y5whp-4CI70t-1
        self.first = None           # label of the name's first definition
        self.name = ''
        self.prev = None            # previous definition of the same name
        self.next = None
        self.alldefs = []           # (on the first one) every continuation
        self.uses = []              # labels of the chunks that use it
        self.root = None            # file name, for a chunk used nowhere
        self.lines = [[]]           # each line: list of ('text', s) | ('use', name, label)
                                    #            | ('ident', name, deflabel)
        self.defines = []           # identifiers defined here
        self.file = None            # the .nw file
        self.page = None            # Chapter it is shown in
        self.tag = ''               # its number in the HTML edition, e.g. 2.14


class Source:
    """The whole book as noweb's front end and noidx see it."""

    def __init__(self, paths):
        cmd = ' | '.join([
            '%s/markup %s' % (NOWEB_LIB, ' '.join("'%s'" % p for p in paths)),
            '%s/autodefs.c' % NOWEB_LIB, '%s/finduses' % NOWEB_LIB,
            '%s/noidx' % NOWEB_LIB])
        out = subprocess.run(['sh', '-c', 'set -e; ' + cmd], check=True,
                             capture_output=True).stdout.decode('utf-8')
        self.files = []             # (path, [('docs', text) | ('code', Chunk)])
        self.chunks = []
        self.quotes = []            # (code text, label of its definition or None,
                                    #  the identifier that label defines)
        self.ident_uses = {}        # identifier -> labels of the chunks using it
        self.ident_defs = {}        # identifier -> label of its first definition
        self.by_label = {}
        self._parse(out.split('\n'))

    def _parse(self, lines):
        items = None
        cur = None                  # the Chunk being read, or None in docs
        docs = []
        quote = None                # list of text pieces inside [[...]]
        quote_ref = None
        pending_ref = None          # @xref ref that precedes @index use/@use
        pending_ident = None
        in_defs = in_index = False
        index_entry = None
        for line in lines:
            if not line.startswith('@'):
                continue
            kw, _, arg = line[1:].partition(' ')
            if kw == 'file':
                items = []
                self.files.append((arg, items))
            elif kw == 'begin':
                what = arg.split()[0]
                if what == 'code':
                    cur = Chunk(len(self.chunks))
                    cur.file = self.files[-1][0]
                    self.chunks.append(cur)
                    items.append(('code', cur))
                else:
                    docs = []
            elif kw == 'end':
                if arg.split()[0] == 'code':
                    cur.lines = cur.lines or [[]]
                    while len(cur.lines) > 1 and not cur.lines[-1]:
                        cur.lines.pop()
                    cur = None
                else:
                    # Answer keys are for the instructor's guide only.
                    items.append(('docs', nwlang.strip_answerkeys(''.join(docs))))
            elif kw == 'text':
                if cur is not None:
                    if pending_ident is not None and arg == pending_ident[0]:
                        cur.lines[-1].append(('ident',) + pending_ident)
                    else:
                        cur.lines[-1].append(('text', arg))
                    pending_ident = None
                elif quote is not None:
                    quote.append(arg)
                else:
                    docs.append(arg)
            elif kw == 'nl':
                if cur is not None:
                    if cur.lines is None:       # the end of the @defn line
                        cur.lines = [[]]
                    else:
                        cur.lines.append([])
                elif quote is not None:
                    quote.append(' ')
                else:
                    docs.append('\n')
            elif kw == 'defn':
                cur.name = arg
                cur.lines = None
            elif kw == 'use':
                if cur is not None:
                    cur.lines[-1].append(('use', arg, pending_ref))
                elif quote is not None:
                    quote.append('<<%s>>' % arg)
                pending_ref = None
            elif kw == 'quote':
                quote, quote_ref, quote_ident = [], None, None
            elif kw == 'endquote':
                self.quotes.append((''.join(quote), quote_ref, quote_ident))
                docs.append('\\htmlq{%d}' % (len(self.quotes) - 1))
                quote = None
            elif kw == 'xref':
                sub, _, rest = arg.partition(' ')
                if cur is not None and cur.label is None and sub == 'label':
                    cur.label = rest
                    self.by_label[rest] = cur
                elif cur is not None and cur.first is None and sub == 'ref':
                    cur.first = rest
                elif sub == 'ref':
                    pending_ref = rest
                elif cur is not None and sub == 'prevdef':
                    cur.prev = rest
                elif cur is not None and sub == 'nextdef':
                    cur.next = rest
                elif cur is not None and sub == 'begindefs':
                    in_defs = True
                elif cur is not None and sub == 'enddefs':
                    in_defs = False
                elif cur is not None and sub == 'defitem' and in_defs:
                    cur.alldefs.append(rest)
                elif cur is not None and sub == 'useitem':
                    cur.uses.append(rest)
                elif cur is not None and sub == 'notused':
                    cur.root = rest
            elif kw == 'index':
                sub, _, rest = arg.partition(' ')
                if sub == 'use':
                    if cur is not None:
                        pending_ident = (rest, pending_ref)
                    elif quote is not None and quote_ref is None:
                        quote_ref, quote_ident = pending_ref, rest
                    pending_ref = None
                elif sub in ('defn', 'localdefn'):
                    pending_ref = None
                elif sub == 'defitem' and cur is not None:
                    cur.defines.append(rest)
                elif sub == 'beginindex':
                    in_index = True
                elif sub == 'entrybegin' and in_index:
                    label, _, ident = rest.partition(' ')
                    index_entry = ident
                    self.ident_defs[ident] = label
                    self.ident_uses[ident] = []
                elif sub == 'entryuse' and index_entry:
                    if rest not in self.ident_uses[index_entry]:
                        self.ident_uses[index_entry].append(rest)
                elif sub == 'entryend':
                    index_entry = None
        for c in self.chunks:
            if c.first is None:
                c.first = c.label


# ---------------------------------------------------------------------------
# LaTeX text helpers


def read_group(text, i, open_='{', close='}'):
    """text[i] is open_: return (content, index after the closing brace)."""
    assert text[i] == open_, 'expected %r at %r' % (open_, text[i:i + 30])
    depth, j = 0, i
    while j < len(text):
        ch = text[j]
        if ch == '\\':
            j += 2
            continue
        if ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return text[i + 1:j], j + 1
        j += 1
    raise ValueError('unbalanced %s in %r' % (open_, text[i:i + 60]))


def skip_space(text, i):
    while i < len(text) and text[i] in ' \t\n':
        i += 1
    return i


def replace_macro(text, name, nargs, fn, optional=False):
    """Replace \\name[opt]{a}{b}... (balanced) by fn(args) everywhere."""
    pat = re.compile(r'\\%s(?![A-Za-z@])' % re.escape(name))
    out, i = [], 0
    while True:
        m = pat.search(text, i)
        if not m:
            out.append(text[i:])
            return ''.join(out)
        out.append(text[i:m.start()])
        j = m.end()
        args = []
        if optional:
            k = skip_space(text, j)
            if k < len(text) and text[k] == '[':
                opt, j = read_group(text, k, '[', ']')
                args.append(opt)
            else:
                args.append(None)
        ok = True
        for n in range(nargs):
            k = skip_space(text, j)
            if k >= len(text) or text[k] != '{':
                ok = False
                break
            a, j = read_group(text, k)
            args.append(a)
        if not ok:
            out.append(m.group(0))
            i = m.end()
            continue
        rep = fn(*args)
        # \raggedleft\zhen{..}{..} must not become \raggedleftclosed
        if rep[:1].isalpha() and re.search(r'\\[A-Za-z]+\Z', ''.join(out[-1:])):
            rep = '{}' + rep
        out.append(rep)
        i = j


def strip_comments(text):
    """TeX comments go, with the end of line and the next line's indent,
    as TeX reads them.  Verbatim environments are kept as they are."""
    out, verbatim = [], False
    lines = text.split('\n')
    for n, line in enumerate(lines):
        if verbatim:
            out.append(line + '\n')
            if re.match(r'\s*\\end\{verbatim\}', line):
                verbatim = False
            continue
        if re.search(r'\\begin\{verbatim\}', line):
            verbatim = True
            out.append(line + '\n')
            continue
        m = re.search(r'(?<!\\)%', line)
        if m:
            kept = line[:m.start()]
            if kept.strip() == '':
                continue            # a whole-line comment leaves nothing
            out.append(kept)        # and swallows the line end
            out.append('\x00')      # marker: skip the next line's indent
        else:
            out.append(line + '\n')
    s = ''.join(out)
    return re.sub(r'\x00[ \t]*', '', s)


def select_language(text, lang):
    """Keep the lang blocks (without their \\begin/\\end lines), drop the other's."""
    drop = 'en' if lang == 'zh' else 'zh'
    out, skipping = [], False
    for line in text.split('\n'):
        m = re.match(r'^\s*\\(begin|end)\{(zh|en)\}\s*$', line)
        if m:
            if m.group(2) == drop:
                skipping = m.group(1) == 'begin'
            continue
        if not skipping:
            out.append(line)
    return '\n'.join(out)


def resolve_language(text, lang):
    """\\zhen{中文}{English} and the like, for one edition."""
    pick = 0 if lang == 'zh' else 1
    text = replace_macro(text, 'zhen', 2, lambda a, b: (a, b)[pick])
    text = replace_macro(text, 'zhenpar', 2, lambda a, b: (a, b)[pick] + '\n\n')
    text = replace_macro(text, 'zhword', 1, lambda a: a)
    text = replace_macro(text, 'texorpdfstring', 2, lambda a, b: a)
    text = replace_macro(text, 'tablehead', 1, lambda o, a: a, optional=True)
    if lang == 'zh':        # a chunk named in the prose: its Chinese name
        text = re.sub(r'\\LA\{\}(.*?)\\RA\{\}',
                      lambda m: '\\LA{}%s\\RA{}' % display_name(m.group(1), lang), text,
                      flags=re.S)
    text = text.replace('\\LA{}', '⟨').replace('\\RA{}', '⟩')
    return text


def display_name(name, lang):
    """A chunk's name as the edition shows it: in the Chinese edition its
    Chinese name (chapters/chunk-names.zh), else the English key."""
    if lang == 'zh':
        return chunknames.chinese(name) or name
    return name


# ---------------------------------------------------------------------------
# Numbering, as LaTeX (ctexbook + attnbook.sty) numbers things


def alph(n):
    return chr(ord('A') + n - 1)


def chinese_numeral(n):
    """ctex's \\chinese: 1 一, 10 十, 12 十二, 20 二十, 21 二十一."""
    d = '零一二三四五六七八九'
    if n < 10:
        return d[n]
    tens, ones = divmod(n, 10)
    return (d[tens] if tens > 1 else '') + '十' + (d[ones] if ones else '')


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
                             r'\[|\]|section|subsection|chapter|gnuplotfig|programoutput|centering)', p):
            continue
        if len(re.sub(r'\\[A-Za-z]+|[{}$\s]', '', p)) < 20:
            continue
        return p
    return ''


class Book:
    """The book in one language: its Chapters, labels, boxes and chunks."""

    def __init__(self, source, lang, figdir=None):
        self.src = source
        self.lang = lang
        sty = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))), 'tex', 'attnbook.sty')
        try:
            self.arabic_chapters = 'chapter/number = \\arabic' in open(sty, encoding='utf-8').read()
        except OSError:
            self.arabic_chapters = True
        self.w = WORDS[lang]
        self.figdir = figdir        # build/fig: numbers files \gnuplotfig'd outside figures
        self.chapters = []
        self.labels = {}            # label -> (number, Chapter slug, kind)
        self.boxes = []             # dicts: kind, id, number, ...
        self.warnings = []
        self._marks = []            # (mark, lines) of each \\htmlslide{N}
        self._number()

    # The walk over the whole book, in order.
    def _number(self):
        ch_n = app_n = 0
        numbered = True             # \mainmatter vs \frontmatter
        appendix = False
        eq = 0
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
            # Split at \chapter; what comes before the first one (\appendix,
            # \mainmatter) only changes the state.
            pieces = re.split(r'(?=\\chapter(?![A-Za-z]))', text)
            state = {'n': 0}
            for piece in pieces:
                if not piece.startswith('\\chapter'):
                    if re.search(r'\\appendix\b', piece):
                        appendix = True
                    if re.search(r'\\mainmatter\b', piece):
                        numbered = True
                    if re.search(r'\\frontmatter\b', piece):
                        numbered = False
                    if chap is not None and piece.strip():
                        chap.text += self._walk(chap, piece)
                    continue
                slug = base if state['n'] == 0 else '%s-%d' % (base, state['n'])
                state['n'] += 1
                chap = Chapter(slug, path)
                chap.appendix = appendix
                self.chapters.append(chap)
                if base.startswith('00') or not numbered:
                    numbered_here = False
                else:
                    numbered_here = True
                if numbered_here:
                    if appendix:
                        app_n += 1
                        chap.number = alph(app_n)
                    else:
                        ch_n += 1
                        chap.number = str(ch_n)
                self._c = {'section': 0, 'subsection': 0, 'figure': 0, 'table': 0,
                           'exercise': 0, 'eq': eq, 'numbered': numbered_here}
                chap.text = self._walk(chap, piece)
                eq = self._c['eq']
                # \mainmatter at the end of the preface numbers what follows
                if re.search(r'\\mainmatter\b', piece):
                    numbered = True
        self._tag_chunks()

    def _tag_chunks(self):
        for chap in self.chapters:
            for n, c in enumerate(chap.chunks, 1):
                c.tag = '%s.%d' % (chap.number or 'P', n)

    def _label(self, chap, label, number, kind):
        if label in self.labels:
            self.warnings.append('label %s defined twice' % label)
        self.labels[label] = (number, chap.slug, kind)

    def _box(self, **kw):
        self.boxes.append(kw)
        return len(self.boxes) - 1

    def _fignum(self, chap, counter):
        self._c[counter] += 1
        n = self._c[counter]
        return '%s.%d' % (chap.number, n) if chap.number else str(n)

    def _walk(self, chap, text):
        """Number the piece of chapter text and rewrite it for pandoc."""
        c = self._c
        out = []
        current = chap.number       # LaTeX's \@currentlabel
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
                    # attnbook.sty sets ctex's chapter numbers in Arabic (第3章);
                    # without that, ctexbook would number them 一, 二 ...
                    shown = chap.number
                    if self.lang == 'zh' and chap.number and not chap.appendix \
                            and not self.arabic_chapters:
                        shown = chinese_numeral(int(chap.number))
                    chap.shown = shown
                    if label:
                        self._label(chap, label, shown, 'chapter')
                    current = shown
                    if chap.number:
                        word = self.w['appendix' if chap.appendix else 'chapter']
                        head = '\\htmlnum{%s}' % word.format(shown)
                    else:
                        head = ''
                    out.append('\\chapter{%s%s}\\label{%s}\n' % (head, title, hid))
                    chap.sections.append((0, chap.number, hid, title))
                    continue
                num = ''
                if level in ('section', 'subsection') and not star and c['numbered']:
                    if level == 'section':
                        c['section'] += 1
                        c['subsection'] = 0
                        num = '%s.%d' % (chap.number, c['section'])
                    else:
                        c['subsection'] += 1
                        num = '%s.%d.%d' % (chap.number, c['section'], c['subsection'])
                    current = num
                elif level in ('section', 'subsection') and not star:
                    current = ''             # unnumbered: \ref gives nothing
                hid = label or 'sec-%s-%d' % (level[:3], len(chap.sections))
                if label:
                    self._label(chap, label, current, level)
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
                    c['exercise'] += 1
                    num = '%s.%d' % (chap.number, c['exercise']) if chap.number \
                        else str(c['exercise'])
                    current = num
                    eid = 'exercise-%s' % num
                    if lm:
                        eid = lm.group(1)
                        self._label(chap, eid, num, 'exercise')
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
                self._label(chap, label, current, 'label')
                out.append('\\htmlanchor{%s}' % label)
                continue
            if m.group(6) is not None:           # a code chunk
                ch = self.src.chunks[int(m.group(6))]
                ch.page = chap
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

    _marks = None

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
        c = self._c
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
                c['eq'] += 1
                tag = str(c['eq'])
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
            if wrap and len(groups) == 1:
                math = '\\begin{%s}%s\\end{%s}' % (wrap, math, wrap)
            elif wrap:
                math = '\\begin{%s}%s\\end{%s}' % (wrap, math, wrap)
            eid = labels[0] if labels else ('eq-%s' % tag if tag else None)
            for l in labels:
                self._label(chap, l, tag or '', 'equation')
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
        number = self._fignum(chap, env) if caps else None
        fid = labels[0] if labels else '%s-%s' % (env, number)
        for l in labels:
            self._label(chap, l, number or '', env)
        slide_body = re.sub(r'\x01CAPTION\d+\x01', '', body)
        figs = re.findall(r'\\gnuplotfig\{([^}]*)\}', body)
        body = re.sub(r'\\gnuplotfig\{([^}]*)\}', r'\n\n\\htmlimg{\1}\n\n', body)
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


def chapter_paths(top):
    d = os.path.join(top, 'chapters')
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.nw'))
