#!/usr/bin/python3
"""The HTML edition:  book2html.py OUTDIR FIGDIR SVGDIR CHAPTER.nw ...

Writes OUTDIR/zh/ and OUTDIR/en/: index.html (the contents), one page per
chapter (NN-topic.html, named after its .nw file), book.css and the figures
(fig/NAME.svg, copied from SVGDIR/LANG/).  Every page opens from the file
system: no server, no network, no script.

How: tools/html/htmlbook.py reads the chapters (tools/nwbook/) and takes
their numbers from the PDFs' .aux files; one pandoc run per language reads the prose
(LaTeX with markers where code chunks, figures, equations and exercises
stand) into pandoc's AST; this script builds the code chunks, figures,
equations, cross-references and navigation into that AST; a second pandoc
run writes HTML5 with MathML (--mathml) and highlights the C.  Warnings
(an unknown label, math pandoc could not convert, LaTeX it did not know)
are printed and make the exit status 1 with --strict.
"""
import concurrent.futures
import html
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htmlbook as nwbook  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PANDOC = 'pandoc'

# LaTeX that has no meaning on a web page (layout only): dropped silently.
HARMLESS = re.compile(r'^\\(centering|small|footnotesize|normalsize|raggedright|raggedleft'
                      r'|arraybackslash|noindent|medskip|bigskip|smallskip|newpage|clearpage'
                      r'|mainmatter|frontmatter|backmatter|appendix|par|relax|mbox\{\}'
                      r'|hfill|vfill|quad|qquad|endhead|endfirsthead|endfoot|endlastfoot'
                      r'|toprule|midrule|bottomrule|newcommand|gdef|def|protect|nobreak|needspace)\b')


PUNCT = ',.;:!?)]，。；：、）！？'
CJK_CHAR = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef\u2018-\u201d\u2014\u2026]')
CJK_PUNCT = re.compile(r'[\u3000-\u303f\uff00-\uffef\u2018-\u201d\u2014\u2026]')


def edge_char(x, last):
    """The first (or last) character an inline shows, '' if none."""
    t = x.get('t')
    if t == 'Str':
        s = x['c']
    elif t in ('Emph', 'Strong', 'Span', 'Quoted', 'Link', 'Underline', 'SmallCaps'):
        s = stringify(x)
    else:
        return ''
    s = s.strip()
    return (s[-1] if last else s[0]) if s else ''


def cjk_spacing(out):
    """A line break in the Chinese source is no space in the text (pandoc's
    east_asian_line_breaks, which its LaTeX reader lacks), nor is a space
    next to full-width punctuation; a no-break space next to Chinese (第~3~章)
    is a narrow one, as xeCJK sets it."""
    res = []
    for k, x in enumerate(out):
        t = x.get('t')
        if t in ('Space', 'SoftBreak') and res and k + 1 < len(out):
            a, b = edge_char(res[-1], True), edge_char(out[k + 1], False)
            if (CJK_CHAR.match(a or ' ') and CJK_CHAR.match(b or ' ')) or \
                    CJK_PUNCT.match(a or ' ') or CJK_PUNCT.match(b or ' '):
                continue
        if t == 'Str' and '\u00a0' in x['c']:
            x = Str(x['c'].replace('\u00a0', '\u202f'))
        res.append(x)
    return res


def glue_nbsp(out):
    """Chapter~1: a no-break space is an ordinary space in a no-wrap span (in
    the text fonts the no-break space is a wide gap)."""
    res, k = [], 0
    while k < len(out):
        x = out[k]
        if x.get('t') == 'Str' and '\u00a0' in x['c']:
            pieces = x['c'].split('\u00a0')
            inner = []
            for n, p in enumerate(pieces):
                if n:
                    inner.append(Space())
                if p:
                    inner.append(Str(p))
            if x['c'].endswith('\u00a0') and k + 1 < len(out):
                inner.append(out[k + 1])
                k += 1
            res.append(Span('', ['nowrap'], inner))
        else:
            res.append(x)
        k += 1
    return res


def mathml_for_chromium(h):
    """texmath writes \\mathrm{Attn} as <mstyle mathvariant="normal"> around
    one <mi> per letter; MathML Core (Chromium) ignores mathvariant there.
    One <mi> with the whole word is upright, as MathML Core wants it."""
    def word(m):
        letters = ''.join(re.findall(r'<mi>([^<]*)</mi>', m.group(1)))
        if len(letters) == 1:
            return '<mi mathvariant="normal">%s</mi>' % letters
        return '<mi>%s</mi>' % letters
    return re.sub(r'<mstyle mathvariant="normal">((?:<mi>[^<]*</mi>)+)</mstyle>', word, h)


# ---------------------------------------------------------------------------
# Small constructors for pandoc's AST (pandoc-types 1.22)

def Str(s):
    return {'t': 'Str', 'c': s}


def Space():
    return {'t': 'Space'}


def RawB(s):
    return {'t': 'RawBlock', 'c': ['html', s]}


def RawI(s):
    return {'t': 'RawInline', 'c': ['html', s]}


def Span(ident, classes, inlines):
    return {'t': 'Span', 'c': [[ident, classes, []], inlines]}


def Link(inlines, url, classes=()):
    return {'t': 'Link', 'c': [['', list(classes), []], inlines, [url, '']]}


def Code(s):
    return {'t': 'Code', 'c': [['', [], []], s]}


def text_inlines(s):
    out = []
    for n, word in enumerate(s.split(' ')):
        if n:
            out.append(Space())
        if word:
            out.append(Str(word))
    return out


def stringify(x):
    """Plain text of inlines or blocks (for <title> and alt text)."""
    if isinstance(x, list):
        return ''.join(stringify(e) for e in x)
    if not isinstance(x, dict):
        return ''
    t, c = x.get('t'), x.get('c')
    if t == 'Str':
        return c
    if t in ('Space', 'SoftBreak', 'LineBreak'):
        return ' '
    if t == 'Code':
        return c[1]
    if t == 'Math':
        s = c[1]
        s = re.sub(r'\\sqrt\{([^}]*)\}', r'√\1', s)
        s = re.sub(r'\\(mathrm|text|mathit)\{([^}]*)\}', r'\2', s)
        return re.sub(r'[{}$\\]', '', s)
    if t in ('RawInline', 'RawBlock'):
        return ''
    if t in ('Emph', 'Strong', 'SmallCaps', 'Strikeout', 'Plain', 'Para', 'Underline'):
        return stringify(c)
    if t in ('Span', 'Quoted'):
        return stringify(c[1])
    if t in ('Link', 'Image'):
        return stringify(c[1])
    if t == 'Header':
        return stringify(c[2])
    return ''


def set_alt(x, alt):
    if isinstance(x, list):
        for e in x:
            set_alt(e, alt)
    elif isinstance(x, dict):
        if x.get('t') in ('RawBlock', 'RawInline'):
            x['c'][1] = x['c'][1].replace('alt="ZZALTZZ"', 'alt="%s"' % alt)
        else:
            set_alt(x.get('c'), alt)


def raw_latex(x, block):
    t = 'RawBlock' if block else 'RawInline'
    if isinstance(x, dict) and x.get('t') == t and x['c'][0] == 'latex':
        return x['c'][1]
    return None


def marker(block, name):
    """The argument of \\NAME{arg} if block is that marker (alone), else None."""
    s = raw_latex(block, True)
    if s is None and isinstance(block, dict) and block.get('t') in ('Para', 'Plain'):
        inl = [i for i in block['c'] if i.get('t') not in ('Space', 'SoftBreak')]
        if len(inl) == 1:
            s = raw_latex(inl[0], False)
    if s is None:
        return None
    m = re.match(r'^\\%s\{([^}]*)\}\s*$' % name, s)
    return m.group(1) if m else None


# ---------------------------------------------------------------------------

class Edition:
    """One language of the HTML edition."""

    def __init__(self, book, svgdir):
        self.book = book
        self.lang = book.lang
        self.w = book.w
        self.svgdir = svgdir
        self.warnings = list(book.warnings)
        self.tokens = {}            # ZZnw..ZZ -> HTML, filled while building chunks
        self.chunk_page = {}        # chunk label -> page slug
        for ch in book.chapters:
            for c in ch.chunks:
                self.chunk_page[c.label] = ch.slug
        self.page = None            # the Chapter being built
        self.unknown_latex = set()

    def warn(self, msg):
        self.warnings.append('%s: %s' % (self.lang, msg))

    def href(self, slug, ident):
        if self.page is not None and slug == self.page.slug:
            return '#' + ident
        return '%s.html#%s' % (slug, ident)

    def chunk_href(self, label):
        slug = self.chunk_page.get(label)
        if slug is None:
            self.warn('chunk %s is not in any page' % label)
            return '#'
        return self.href(slug, label)

    def chunk_link_html(self, label):
        c = self.book.src.by_label.get(label)
        tag = c.tag if c else '?'
        return '<a class="chunkref" href="%s">%s</a>' % (html.escape(self.chunk_href(label)), tag)

    # -- inlines ------------------------------------------------------------
    def inlines(self, xs):
        out = []
        for x in xs:
            out.extend(self.inline(x))
        if self.lang == 'zh':
            out = cjk_spacing(out)
        else:
            out = glue_nbsp(out)
        # no line break between inline math and the punctuation after it
        k = 0
        while k + 1 < len(out):
            a, b = out[k], out[k + 1]
            if a.get('t') == 'Math' and b.get('t') == 'Str' and b['c'][:1] in PUNCT:
                m = re.match(r'^[%s]+' % re.escape(PUNCT), b['c'])
                glued = Span('', ['nowrap'], [a, Str(m.group(0))])
                rest = b['c'][m.end():]
                out[k:k + 2] = [glued] + ([Str(rest)] if rest else [])
            k += 1
        return out

    def inline(self, x):
        t = x.get('t')
        if t == 'RawInline' and x['c'][0] == 'latex':
            return self.raw_inline(x['c'][1])
        if t == 'Str' and 'ZZtok' in x['c']:
            out = []
            for k, piece in enumerate(re.split(r'ZZtok(\d+)ZZ', x['c'])):
                if k % 2:
                    out.extend(self.raw_inline(self.book.raw_tokens[int(piece)]))
                elif piece:
                    out.append(Str(piece))
            return out
        c = x.get('c')
        if t in ('Emph', 'Strong', 'SmallCaps', 'Strikeout', 'Superscript', 'Subscript',
                 'Underline'):
            x['c'] = self.inlines(c)
        elif t in ('Span', 'Link'):
            c[1] = self.inlines(c[1])
        elif t == 'Quoted':
            c[1] = self.inlines(c[1])
        elif t == 'Cite':
            c[1] = self.inlines(c[1])
        elif t == 'Note':
            x['c'] = self.blocks(c)
        return [x]

    def raw_inline(self, s):
        m = re.match(r'^\\(ref|eqref|autoref|pageref)\{([^}]*)\}$', s)
        if m:
            kind, label = m.groups()
            if label not in self.book.labels:
                self.warn('%s: \\%s{%s}: no such label' % (self.page.slug, kind, label))
                return [Str('??')]
            number, slug, _ = self.book.labels[label]
            text = '(%s)' % number if kind == 'eqref' else number
            return [Link([Str(text)], self.href(slug, label), ['ref'])]
        m = re.match(r'^\\cite\{([^}]*)\}$', s)
        if m:
            return self.citation([k.strip() for k in m.group(1).split(',')])
        m = re.match(r'^\\htmlq\{(\d+)\}$', s)
        if m:
            code, ref, ident = self.book.src.quotes[int(m.group(1))]
            # a link only when the quote is the identifier itself (or its
            # call, f()): not attention.h, build/bin/ch02-attention, x.attention
            if ref and ref in self.chunk_page and \
                    re.sub(r'\(.*\)$', '', code.strip()) == ident:
                return [Link([Code(code)], self.chunk_href(ref), ['ident'])]
            return [Code(code)]
        m = re.match(r'^\\htmlnum\{([^}]*)\}$', s)
        if m:
            return [Span('', ['secnum'], [Str(m.group(1))]), Space()]
        m = re.match(r'^\\(?:htmlanchor|label)\{([^}]*)\}$', s)
        if m:
            return [Span(m.group(1), ['anchor'], [])]
        m = re.match(r'^\\htmlimg\{([^}]*)\}$', s)
        if m:
            return [RawI(self.img_html(m.group(1)))]
        if not HARMLESS.match(s):
            self.unknown_latex.add(s[:60])
        return []

    def citation(self, keys):
        """[3, 7]: numbers in order of first citation in the book, each a
        link to its entry in the references on the contents page."""
        out = [Str('[')]
        for n, key in enumerate(keys):
            if key not in self.book.citations:
                self.warn('\\cite{%s}: no such entry in tex/book.bib' % key)
                out.append(Str('?'))
            else:
                num = self.book.citations[key]
                out.append(Link([Str(str(num))], 'index.html#ref-' + key, ['cite']))
            if n + 1 < len(keys):
                out.append(Str(', '))
        out.append(Str(']'))
        return out

    # -- blocks -------------------------------------------------------------
    def blocks(self, bs):
        """Transform a list of blocks; htmlbegin/htmlend markers group them."""
        out = []
        stack = []                  # (box number, the out list to return to)
        for b in bs:
            n = marker(b, 'htmlbegin')
            if n is not None:
                stack.append((int(n), out))
                out = []
                continue
            n = marker(b, 'htmlend')
            if n is not None:
                num, parent = stack.pop()
                assert num == int(n), 'markers out of order: %s %s' % (num, n)
                # a caption directly inside a figure is its <figcaption>
                self._in_figure = bool(stack) and \
                    self.book.boxes[stack[-1][0]]['kind'] == 'figure'
                parent.extend(self.box(self.book.boxes[num], out))
                out = parent
                continue
            n = marker(b, 'htmlchunk')
            if n is not None:
                out.extend(self.chunk(self.book.src.chunks[int(n)]))
                continue
            n = marker(b, 'htmlimg')
            if n is not None:
                out.append(RawB(self.img_html(n)))
                continue
            s = raw_latex(b, True)
            if s is not None:
                if not HARMLESS.match(s.strip()):
                    self.unknown_latex.add(s.strip()[:60])
                continue
            out.extend(self.block(b))
        if stack:
            self.warn('%s: unclosed box' % self.page.slug)
        return out

    def block(self, b):
        t, c = b.get('t'), b.get('c')
        if t in ('Para', 'Plain'):
            b['c'] = self.inlines(c)
            if not b['c']:
                return []
        elif t == 'Header':
            c[2] = self.inlines(c[2])
        elif t in ('BlockQuote',):
            b['c'] = self.blocks(c)
        elif t == 'Div':
            c[1] = self.blocks(c[1])
        elif t in ('BulletList',):
            b['c'] = [self.blocks(item) for item in c]
        elif t == 'OrderedList':
            c[1] = [self.blocks(item) for item in c[1]]
        elif t == 'DefinitionList':
            b['c'] = [[self.inlines(term), [self.blocks(d) for d in defs]] for term, defs in c]
        elif t == 'Table':
            self.table(b)
        return [b]

    def table(self, b):
        attr, caption, specs, head, bodies, foot = b['c']
        caption[1] = self.blocks(caption[1])

        def rows(rs):
            for row in rs:
                for cell in row[1]:
                    cell[4] = self.blocks(cell[4])
        rows(head[1])
        for body in bodies:
            rows(body[2])
            rows(body[3])
        rows(foot[1])

    def box(self, box, inner):
        kind = box['kind']
        ident = box.get('id')
        idattr = ' id="%s"' % html.escape(ident) if ident else ''
        if kind == 'equation':
            num = box.get('number')
            tail = '<span class="eqno">(%s)</span>' % html.escape(num) if num else ''
            return [RawB('<div class="equation"%s><div class="eqbody">' % idattr)] + inner + \
                   [RawB('</div>%s</div>' % tail)]
        if kind == 'caption':
            if box.get('number') and inner and inner[0].get('t') in ('Para', 'Plain'):
                inner[0]['c'] = [Span('', ['capnum'], [Str(box['number'] + self.w['colon'])])] \
                    + inner[0]['c']
            tagname = 'figcaption' if self._in_figure else 'div'
            return [RawB('<%s class="caption">' % tagname)] + inner + [RawB('</%s>' % tagname)]
        if kind == 'figure':
            # the figure's alt text is its caption
            cap, inside = [], False
            for b in inner:
                if b.get('t') == 'RawBlock' and '<figcaption' in b['c'][1]:
                    inside = True
                elif b.get('t') == 'RawBlock' and '</figcaption' in b['c'][1]:
                    inside = False
                elif inside:
                    cap.append(b)
            alt = html.escape(re.sub(r'\s+', ' ', stringify(cap)).strip(), quote=True)
            set_alt(inner, alt or ident or 'figure')
            return [RawB('<figure class="figure"%s>' % idattr)] + inner + [RawB('</figure>')]
        if kind == 'table':
            return [RawB('<div class="table"%s>' % idattr)] + inner + [RawB('</div>')]
        if kind == 'exercise':
            # "Exercise 1.1 (easy)" runs into the first paragraph, as in print
            if len(inner) >= 2 and inner[0].get('t') == 'Para' and inner[1].get('t') == 'Para':
                inner = [{'t': 'Para', 'c': inner[0]['c'] + [Space()] + inner[1]['c']}] + inner[2:]
            return [RawB('<div class="exercise"%s>' % idattr)] + inner + [RawB('</div>')]
        return inner

    _in_figure = False

    def img_html(self, name):
        src = os.path.join(self.svgdir, self.lang, name + '.svg')
        if not os.path.exists(src):
            self.warn('figure %s has no SVG (%s)' % (name, src))
        self.figures.add(name)
        return '<img class="plot" src="fig/%s.svg" alt="ZZALTZZ">' % name

    # -- code chunks --------------------------------------------------------
    def token(self, kind, html_text):
        t = 'ZZnw%s%dZZ' % (kind, len(self.tokens))
        self.tokens[t] = html_text
        return t

    def name_html(self, name):
        name = nwbook.display_name(name, self.lang)
        parts = re.split(r'\[\[(.*?)\]\]', name)
        return ''.join(html.escape(p) if i % 2 == 0 else '<code>%s</code>' % html.escape(p)
                       for i, p in enumerate(parts))

    def chunk(self, c):
        src = self.book.src
        first = src.by_label.get(c.first, c)
        cont = c.label != c.first
        head = ('<div class="chunk" id="%s"><p class="chunk-head">'
                '<a class="chunk-tag" href="#%s">%s</a> '
                '<span class="chunk-name">⟨%s <a class="chunkref" href="%s">%s</a>⟩</span>'
                '<span class="chunk-def">%s≡</span>'
                '<button type="button" class="copy" data-chunk="%s" title="%s" hidden>%s'
                '</button></p>') % (
                    c.label, c.label, c.tag, self.name_html(c.name),
                    html.escape(self.chunk_href(c.first)), first.tag, '+' if cont else '',
                    c.label, UI[self.lang]['copytitle'], UI[self.lang]['copy'])
        lines = []
        for line in c.lines:
            s = []
            for k, part in enumerate(line):
                if part[0] == 'text':
                    s.append(part[1])
                elif part[0] == 'use':
                    target = part[2]
                    u = src.by_label.get(target)
                    h = '<a class="chunkuse" href="%s">⟨%s <span class="tag">%s</span>⟩</a>' % (
                        html.escape(self.chunk_href(target)) if u else '#',
                        self.name_html(part[1]), u.tag if u else '?')
                    if not u:
                        self.warn('chunk <<%s>> is used but never defined' % part[1])
                    s.append(self.token('U', h))
                else:
                    _, ident, deflabel = part
                    before = ''.join(p[1] for p in line[:k] if p[0] != 'use')[-1:]
                    after = ''.join(p[1] for p in line[k + 1:] if p[0] != 'use')[:2]
                    # a whole identifier only: not attention in attention.h,
                    # ch02-attention or self-attention (strings and comments)
                    whole = not re.match(r'[-./A-Za-z0-9_]', before) and \
                        not re.match(r'[A-Za-z0-9_]|[-.][A-Za-z0-9_]', after)
                    if whole and deflabel and deflabel != c.label and deflabel in self.chunk_page:
                        s.append(self.token('I', '<a class="ident" href="%s">%s</a>' % (
                            html.escape(self.chunk_href(deflabel)), html.escape(ident))))
                    else:
                        s.append(ident)
            lines.append(''.join(s))
        code = {'t': 'CodeBlock', 'c': [['', ['c'], []], '\n'.join(lines)]}
        notes = []
        if not cont and c.next:
            rest = [l for l in (first.alldefs or [c.next])]
            notes.append(self.w['continued'].format(
                nwbook.join_list([self.chunk_link_html(l) for l in rest], self.lang)))
        if c.uses:
            seen = []
            for u in c.uses:
                if u not in seen:
                    seen.append(u)
            notes.append(self.w['used'].format(
                nwbook.join_list([self.chunk_link_html(l) for l in seen], self.lang)))
        if c.root:
            if c.root.startswith('code/'):
                notes.append(self.w['file'].format('<a class="file" href="../%s"><code>%s</code></a>'
                                                   % (html.escape(c.root), html.escape(c.root))))
            else:
                notes.append(self.w['file'].format('<code>%s</code>' % html.escape(c.root)))
        defs = []
        for ident in c.defines:
            uses = [u for u in src.ident_uses.get(ident, []) if u != c.label]
            if not uses:
                continue
            defs.append(self.w['identused'].format('<code>%s</code>' % html.escape(ident),
                nwbook.join_list([self.chunk_link_html(u) for u in uses], self.lang)))
        if defs:        # as the PDF words it (book.toml's [noweb] table)
            notes.append('%s %s' % (self.w['defines'], ' '.join(defs)))
        tail = ''.join('<p>%s</p>' % n for n in notes)
        return [RawB(head), code, RawB('<div class="chunk-xref">%s</div></div>' % tail)]

    # -- pages --------------------------------------------------------------
    def build(self, pages_ast):
        """pages_ast: list of block lists, one per chapter (pandoc's reading)."""
        self.figures = set()
        out = []
        for chap, blocks in zip(self.book.chapters, pages_ast):
            self.page = chap
            out.append(self.blocks(blocks))
        self.page = None
        return out


def pandoc(args, data):
    p = subprocess.run([PANDOC] + args, input=data, capture_output=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode('utf-8', 'replace'))
        raise SystemExit('pandoc %s failed' % ' '.join(args))
    return p.stdout.decode('utf-8'), p.stderr.decode('utf-8', 'replace')


def texmath_compatible(tex):
    """pandoc's math converter (texmath 0.12) knows \\bigl but not \\Bigl:
    the bigger delimiters grow with their contents instead."""
    # a column's >{\raggedright\arraybackslash} is layout, and pandoc 2.17
    # loses the argument of a \ref in such a column's cells
    tex = re.sub(r'>\{(?:\\[A-Za-z]+\s*)*\}', '', tex)
    # pandoc makes -- an en dash even in \texttt, where LaTeX keeps two hyphens
    tex = re.sub(r'\\texttt\{[^{}]*\}', lambda m: m.group(0).replace('--', '-{}-'), tex)
    # \mbox{..} only keeps a word from breaking in print
    tex = re.sub(r'\\mbox\{([^{}]*)\}', r'\1', tex)
    tex = re.sub(r'\\(?:Big|bigg|Bigg)l(?![A-Za-z])', r'\\left', tex)
    tex = re.sub(r'\\(?:Big|bigg|Bigg)r(?![A-Za-z])', r'\\right', tex)
    return re.sub(r'\\(?:Big|bigg|Bigg)m?(?![A-Za-z])', r'\\big', tex)


def read_pages(book):
    """One pandoc run: every chapter's LaTeX to pandoc's AST, split per page."""
    parts = []
    book.raw_tokens = []

    def token(m):
        # pandoc 2.17 drops the argument of a raw \ref in a table cell: the
        # commands that carry an argument travel as plain-text tokens instead
        book.raw_tokens.append(m.group(0))
        return 'ZZtok%dZZ' % (len(book.raw_tokens) - 1)
    for n, chap in enumerate(book.chapters):
        parts.append('\n\n\\htmlpage{%d}\n\n' % n)
        parts.append(re.sub(r'\\(?:ref|eqref|autoref|pageref|htmlq|htmlanchor|cite)\{[^{}]*\}',
                            token, texmath_compatible(chap.text)))
    out, err = pandoc(['-f', 'latex+raw_tex', '-t', 'json'], ''.join(parts).encode('utf-8'))
    doc = json.loads(out)
    pages, cur = [], None
    for b in doc['blocks']:
        if marker(b, 'htmlpage') is not None:
            cur = []
            pages.append(cur)
            continue
        if cur is None:
            continue
        cur.append(b)
    return doc, pages, err


def plain_title(chap, lang):
    w = nwbook.WORDS[lang]
    t = nwbook.resolve_language(chap.short or chap.title, lang)
    t = re.sub(r'\$([^$]*)\$', lambda m: stringify({'t': 'Math', 'c': [None, m.group(1)]}), t)
    t = re.sub(r'\\[A-Za-z]+\{([^}]*)\}', r'\1', t)
    t = re.sub(r'[{}\\]', '', t)
    if chap.number:
        shown = getattr(chap, 'shown', chap.number)
        t = w['appendix' if chap.appendix else 'chapter'].format(shown) + ' ' + t
    return t


def book_title(top, lang):
    return nwbook.meta.title(lang)


def sub_title(top, lang):
    return nwbook.meta.title(lang, 'tagline')


# The pages' own words (book.toml's [html] table and the rest).
UI = nwbook.WORDS


def page_html(lang, title, body, nav, booktitle, aside=''):
    ui = UI[lang]
    search = ('<form class="search" role="search" hidden>'
              '<input type="search" id="search-q" placeholder="%s" aria-label="%s" '
              'autocomplete="off"><ol id="search-results" aria-live="polite" '
              'data-none="%s"></ol></form>') % (ui['search'], ui['searchlabel'], ui['nores'])
    top = nav.replace('<a class="lang"', search + '<a class="lang"')
    bottom = nav.replace('class="nav top"', 'class="nav bottom"')
    return ('<!DOCTYPE html>\n<html lang="%s">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="color-scheme" content="light dark">\n'
            '<title>%s</title>\n<link rel="stylesheet" href="book.css">\n</head>\n'
            '<body>\n<header>%s</header>\n<div class="page%s">\n%s<main id="main">\n%s\n'
            '</main>\n</div>\n<footer>%s</footer>\n'
            '<script src="book.js"></script>\n</body>\n</html>\n') % (
                'zh-Hans' if lang == 'zh' else 'en', html.escape(title + ' · ' + booktitle),
                top, ' with-toc' if aside else '', aside, body, bottom)


def nav_html(ed, i, chapters, glossary_slug):
    w = ed.w
    items = ['<a class="home" href="index.html">%s</a>' % w['contents']]
    if i is not None and i > 0:
        p = chapters[i - 1]
        items.append('<a rel="prev" href="%s.html">← %s</a>' % (
            p.slug, html.escape(plain_title(p, ed.lang))))
    if i is not None and i + 1 < len(chapters):
        n = chapters[i + 1]
        items.append('<a rel="next" href="%s.html">%s →</a>' % (
            n.slug, html.escape(plain_title(n, ed.lang))))
    elif i is None and chapters:
        items.append('<a rel="next" href="%s.html">%s →</a>' % (
            chapters[0].slug, html.escape(plain_title(chapters[0], ed.lang))))
    if glossary_slug:
        items.append('<a class="glossary" href="%s.html">%s</a>' % (glossary_slug, w['glossary']))
    here = 'index' if i is None else chapters[i].slug
    items.append('<a class="lang" hreflang="%s" lang="%s" href="../%s/%s.html">%s</a>' % (
        w['otherlang'], 'zh-Hans' if w['otherlang'] == 'zh' else 'en',
        w['otherlang'], here, w['other']))
    return '<nav class="nav top">%s</nav>' % ' '.join(items)


def resources_html(ed, chap):
    """Links from a page to the PDFs, the chapter's slides and its code files."""
    ui = UI[ed.lang]
    items = ['<a href="../../book-%s.pdf">%s</a>' % (ed.lang, ui['pdf']),
             '<a href="../../book-bilingual.pdf">%s</a>' % ui['pdfbi']]
    if chap is not None and chap.slides:
        deck = '%s-%s.pdf' % (os.path.splitext(os.path.basename(chap.file))[0], ed.lang)
        items.append('<a href="../../slides/%s">%s</a>' % (deck, ui['slides']))
    elif chap is None:              # the contents page: every chapter's slides
        decks = []
        for c in ed.book.chapters:
            if c.slides and c.number:
                deck = '%s-%s.pdf' % (os.path.splitext(os.path.basename(c.file))[0], ed.lang)
                decks.append('<a href="../../slides/%s">%s</a>' % (deck, html.escape(
                    ed.w['chapter'].format(getattr(c, 'shown', c.number)))))
        if decks:
            items.append('%s %s' % (ui['alldecks'], ' '.join(decks)))
    roots = [] if chap is None else sorted({c.root for c in chap.chunks if c.root})
    if roots:
        items.append('%s %s' % (ui['code'], ' '.join(
            '<a href="../%s"><code>%s</code></a>' % (html.escape(r), html.escape(r[5:] if
                                                    r.startswith('code/') else r))
            for r in roots)))
    items.append('<a href="../code/">%s</a>' % ui['allcode'])
    return '<ul class="resources">%s</ul>' % ''.join('<li>%s</li>' % x for x in items)


def toc_blocks(chap, blocks):
    """The chapter's sections (levels 2 and 3) as a nested list of links."""
    tree = []
    for b in blocks:
        if b.get('t') != 'Header' or b['c'][0] not in (2, 3) or not b['c'][1][0]:
            continue
        link = {'t': 'Plain', 'c': [Link(strip_anchors(json.loads(json.dumps(b['c'][2]))),
                                         '#' + b['c'][1][0])]}
        if b['c'][0] == 2 or not tree:
            tree.append([link])
        else:
            last = tree[-1]
            if len(last) == 1:
                last.append({'t': 'BulletList', 'c': []})
            last[1]['c'].append([link])
    return [{'t': 'BulletList', 'c': tree}] if tree else []


def strip_anchors(inlines):
    """Inlines for a link text: no nested links, no ids (they are the heading's)."""
    out = []
    for x in inlines:
        t = x.get('t')
        if t == 'Link':
            out.extend(strip_anchors(x['c'][1]))
        elif t == 'Span':
            x['c'][0][0] = ''
            x['c'][1] = strip_anchors(x['c'][1])
            if 'anchor' in x['c'][0][1]:
                continue
            out.append(x)
        elif t == 'Note':
            continue
        else:
            out.append(x)
    return out


def alltext(x, out):
    """Every word the reader sees in blocks or inlines (for the search index)."""
    if isinstance(x, list):
        for e in x:
            alltext(e, out)
        return
    if not isinstance(x, dict):
        return
    t, c = x.get('t'), x.get('c')
    if t == 'Str':
        out.append(c)
    elif t in ('Space', 'SoftBreak', 'LineBreak'):
        out.append(' ')
    elif t in ('Code', 'CodeBlock'):
        out.append(' %s ' % c[1])
    elif t == 'Math':
        out.append(' %s ' % stringify(x))
    elif t in ('RawInline', 'RawBlock'):
        if c[0] == 'html':
            out.append(' %s ' % html.unescape(re.sub(r'<[^>]*>', ' ', c[1])))
    elif t in ('Para', 'Plain', 'Emph', 'Strong', 'BlockQuote', 'BulletList', 'Underline',
               'SmallCaps', 'Strikeout', 'Superscript', 'Subscript'):
        alltext(c, out)
        out.append(' ')
    elif t in ('Span', 'Div', 'Link', 'Quoted', 'Image'):
        alltext(c[1], out)
    elif t == 'OrderedList':
        alltext(c[1], out)
    elif t == 'Header':
        alltext(c[2], out)
    elif t == 'Table':
        alltext(c[1:], out)
    elif isinstance(c, list):
        alltext(c, out)


WORD = re.compile(r'[a-z0-9_]+|[\u3400-\u4dbf\u4e00-\u9fff]+')


def terms(text):
    """Search terms: English words (lower case, a plural's s gone) and, for
    Chinese, every pair of adjacent characters (and single characters)."""
    out = []
    for m in WORD.finditer(text.lower()):
        w = m.group(0)
        if w[0] < '\u3400':
            if len(w) > 3 and w.endswith('s') and not w.endswith('ss'):
                w = w[:-1]
            if len(w) >= 2:
                out.append(w)
        else:
            out.extend(w)
            out.extend(w[k:k + 2] for k in range(len(w) - 1))
    return out


def search_index(ed, pages):
    """The index for offline search: every section of every page, and for
    each term the sections that hold it with a count."""
    docs, postings = [], {}
    for chap, blocks in pages:
        ptitle = plain_title(chap, ed.lang)
        cur = None
        for b in blocks:
            if b.get('t') == 'Header':
                hid = b['c'][1][0]
                title = re.sub(r'\s+', ' ', stringify(b['c'][2])).strip()
                cur = {'href': '%s.html#%s' % (chap.slug, hid), 'title': title,
                       'page': ptitle, 'text': [title] * 3}
                docs.append(cur)
            if cur is None:
                continue
            alltext(b, cur['text'])
    out_docs = []
    for n, d in enumerate(docs):
        counts = {}
        for t in terms(' '.join(d['text'])):
            counts[t] = counts.get(t, 0) + 1
        for t, k in counts.items():
            postings.setdefault(t, []).extend((n, k))
        out_docs.append([d['href'], d['title'], d['page']])
    return {'docs': out_docs, 'terms': postings}


def chunk_data(src):
    """Every chunk's lines, uses marked, and every name's definitions in
    order: enough for book.js to expand a chunk as notangle does."""
    defs, names = {}, {}
    for c in src.chunks:
        lines = []
        for line in c.lines:
            parts = []
            for part in line:
                if part[0] == 'use':
                    parts.append([part[1]])
                elif parts and isinstance(parts[-1], str):
                    parts[-1] += part[1]
                else:
                    parts.append(part[1])
            lines.append(parts)
        defs[c.label] = lines
        names.setdefault(c.name, []).append(c.label)
    return {'defs': defs, 'names': names}


def fix_math(h):
    """texmath 0.12 makes every ( ) [ ] a stretchy fence in its own <mrow>:
    Chromium then spaces them as "O ( n )".  Only \\left and \\right stretch."""
    def one(m):
        s = m.group(0)
        ann = re.search(r'<annotation encoding="application/x-tex">(.*?)</annotation>', s, re.S)
        if ann and re.search(r'\\(left|right)\b', ann.group(1)):
            return s
        return re.sub(r'<mo stretchy="true" form="(?:prefix|postfix)">([()\[\]])</mo>',
                      r'<mo stretchy="false">\1</mo>', s)
    return re.sub(r'<math\b.*?</math>', one, h, flags=re.S)


def add_permalinks(body, lang):
    label = UI[lang]['permalink']

    def one(m):
        return '%s%s<a class="permalink" href="#%s" aria-label="%s">#</a>%s' % (
            m.group(1), m.group(4), m.group(3), label, m.group(5))
    return re.sub(r'(<h([1-4]) id="([^"]+)"[^>]*>)(.*?)(</h\2>)', one, body, flags=re.S)


def contents_blocks(ed, pages):
    """The index page: every chapter and its sections, linked."""
    items = []
    for chap, blocks in zip(ed.book.chapters, pages):
        heads = [b for b in blocks if b.get('t') == 'Header' and b['c'][0] <= 2]
        if not heads:
            continue
        top = heads[0]
        sub = []
        for h in heads[1:]:
            sub.append([{'t': 'Plain', 'c': [Link(json.loads(json.dumps(h['c'][2])),
                                                   '%s.html#%s' % (chap.slug, h['c'][1][0]))]}])
        entry = [{'t': 'Plain', 'c': [Link(json.loads(json.dumps(top['c'][2])),
                                           '%s.html' % chap.slug)]}]
        if sub:
            entry.append({'t': 'BulletList', 'c': sub})
        items.append(entry)
    return [{'t': 'BulletList', 'c': items}]


def read_bib(path):
    """The entries of tex/book.bib as {key: {field: text}} (the book's .bib is
    plain: one field a line, values in braces)."""
    entries = {}
    if not os.path.exists(path):
        return entries
    text = open(path, encoding='utf-8').read()
    for m in re.finditer(r'^@(\w+)\{([^,\s]+),(.*?)^\}', text, re.M | re.S):
        fields = {'type': m.group(1).lower()}
        for f in re.finditer(r'^\s*(\w+)\s*=\s*\{(.*)\},?\s*$', m.group(3), re.M):
            fields[f.group(1).lower()] = f.group(2)
        entries[m.group(2)] = fields
    return entries


TEX_ACCENTS = {'"': '\u0308', "'": '\u0301', '`': '\u0300', '^': '\u0302', '~': '\u0303'}


def bib_text(s):
    """A .bib value as plain text: accents composed, braces dropped."""
    import unicodedata
    s = s.replace('{\\L}', 'Ł').replace('\\L{}', 'Ł').replace('--', '–')
    s = re.sub(r'\{?\\(["\'`^~])\{?([A-Za-z])\}?\}?',
               lambda m: unicodedata.normalize('NFC', m.group(2) + TEX_ACCENTS[m.group(1)]), s)
    return s.replace('{', '').replace('}', '').replace('\\', '')


def bib_authors(s):
    names = []
    for a in bib_text(s).split(' and '):
        last, _, first = a.partition(', ')
        names.append((first + ' ' + last).strip() if a.strip() != 'others' else None)
    shown = [n for n in names if n][:3]
    more = len([n for n in names if n]) > 3 or None in names
    return ', '.join(shown) + (' et al.' if more else '')


def bibliography_html(ed, entries):
    items = []
    for key, num in sorted(ed.book.citations.items(), key=lambda kv: kv[1]):
        e = entries.get(key, {})
        venue = e.get('booktitle') or e.get('journal') or e.get('publisher') or \
            e.get('institution') or e.get('organization') or ''
        if e.get('eprint'):
            venue = 'arXiv:' + e['eprint']
        parts = [bib_authors(e.get('author', '')), '<cite>%s</cite>' % html.escape(
            bib_text(e.get('title', key))), html.escape(bib_text(venue)), e.get('year', '')]
        items.append('<li id="ref-%s" value="%d">%s.</li>' % (
            html.escape(key), num, '. '.join(p for p in parts if p)))
    return '<ol class="references">%s</ol>' % ''.join(items)


def build_edition(top, outdir, figdir, svgdir, src, lang):
    book = nwbook.Book(src, lang, figdir)
    # citations numbered in order of their first use, as the printed
    # GB/T 7714 list does
    book.citations = {}
    for chap in book.chapters:
        for group in re.findall(r'\\cite\{([^}]*)\}', chap.text):
            for key in group.split(','):
                book.citations.setdefault(key.strip(), len(book.citations) + 1)
    entries = read_bib(os.path.join(top, 'tex', 'book.bib'))
    ed = Edition(book, svgdir)
    doc, pages, err = read_pages(book)
    for line in err.splitlines():
        if line.strip():
            ed.warn('pandoc (LaTeX reader): ' + line.strip())
    built = ed.build(pages)
    glossary = book.labels.get('app:glossary', (None, None))[1]
    btitle = book_title(top, lang)
    chapters = book.chapters
    index = search_index(ed, list(zip(chapters, built)))
    # One pandoc run writes every page and every page's contents: the
    # pieces are separated by comments.
    blocks = []
    index_blocks = [{'t': 'Header', 'c': [1, ['top', [], []], text_inlines(btitle)]}]
    st = sub_title(top, lang)
    if st:
        index_blocks.append({'t': 'Para', 'c': [Span('', ['subtitle'], text_inlines(st))]})
    index_blocks.append({'t': 'Header', 'c': [2, ['contents', [], []],
                                               text_inlines(ed.w['contents'])]})
    index_blocks += contents_blocks(ed, built)
    if book.citations:
        index_blocks.append({'t': 'Header', 'c': [2, ['references', [], []],
                                                   text_inlines(ed.w['references'])]})
        index_blocks.append(RawB(bibliography_html(ed, entries)))
    # The copyright page of the PDFs (book.toml), at the foot of the contents.
    m = nwbook.meta.load()['book']
    index_blocks.append(RawB('<footer class="colophon"><p>© %s %s</p><p>%s</p><p>%s</p></footer>' % (
        html.escape(m['year']), html.escape(m['authors'][lang]),
        html.escape(m['licence'][lang]), html.escape(m['colophon'][lang]))))
    tocs = [toc_blocks(ch, bl) for ch, bl in zip(chapters, built)]
    allpages = [index_blocks] + built + tocs
    for n, bl in enumerate(allpages):
        blocks.append(RawB('<!--PAGE %d-->' % n))
        blocks.extend(bl)
    doc['blocks'] = blocks
    out, err = pandoc(['-f', 'json', '-t', 'html5', '--mathml', '--wrap=none'],
                      json.dumps(doc).encode('utf-8'))
    for line in err.splitlines():
        if line.strip():
            ed.warn('pandoc (HTML writer): ' + line.strip())
    out = fix_math(mathml_for_chromium(out))
    parts = re.split(r'<!--PAGE (\d+)-->\n?', out)
    bodies = {int(parts[k]): parts[k + 1] for k in range(1, len(parts), 2)}
    tokpat = re.compile(r'ZZnw[UI]\d+ZZ')
    dest = os.path.join(outdir, lang)
    os.makedirs(os.path.join(dest, 'fig'), exist_ok=True)
    ui = UI[lang]
    for n in range(1 + len(chapters)):
        body = tokpat.sub(lambda m: ed.tokens[m.group(0)], bodies.get(n, ''))
        body = add_permalinks(body, lang)
        if n == 0:
            name, title, nav = 'index', btitle, nav_html(ed, None, chapters, glossary)
            aside = ('<aside class="toc" aria-label="%s"><details id="toc">'
                     '<summary>%s</summary>%s</details></aside>\n') % (
                         ui['resources'], ui['resources'], resources_html(ed, None))
        else:
            chap = chapters[n - 1]
            name, title = chap.slug, plain_title(chap, lang)
            nav = nav_html(ed, n - 1, chapters, glossary)
            toc = bodies.get(1 + len(chapters) + n - 1, '')
            aside = ('<aside class="toc" aria-label="%s"><details id="toc">'
                     '<summary>%s</summary>\n<nav class="toc-list">%s</nav>\n'
                     '<h2 class="resources-head">%s</h2>%s</details></aside>\n') % (
                         ui['toc'], ui['toc'], toc, ui['resources'], resources_html(ed, chap))
        with open(os.path.join(dest, name + '.html'), 'w', encoding='utf-8') as f:
            f.write(page_html(lang, title, body, nav, btitle, aside))
    with open(os.path.join(dest, 'book.css'), 'w', encoding='utf-8') as f:
        f.write(nwbook.meta.css() + open(os.path.join(HERE, 'book.css'), encoding='utf-8').read())
    js = open(os.path.join(HERE, 'book.js'), encoding='utf-8').read()
    with open(os.path.join(dest, 'book.js'), 'w', encoding='utf-8') as f:
        f.write('var ATTN_UI = %s;\n' % json.dumps(ui, ensure_ascii=False) + js)
    with open(os.path.join(dest, 'search-index.js'), 'w', encoding='utf-8') as f:
        f.write('var ATTN_SEARCH = %s;\n' % json.dumps(index, ensure_ascii=False,
                                                       separators=(',', ':')))
    with open(os.path.join(dest, 'chunks.js'), 'w', encoding='utf-8') as f:
        f.write('var ATTN_CHUNKS = %s;\n' % json.dumps(chunk_data(src), ensure_ascii=False,
                                                       separators=(',', ':')))
    for name in sorted(ed.figures):
        s = os.path.join(svgdir, lang, name + '.svg')
        if os.path.exists(s):
            shutil.copyfile(s, os.path.join(dest, 'fig', name + '.svg'))
    for s in sorted(ed.unknown_latex):
        ed.warn('LaTeX with no meaning in HTML, dropped: %s' % s)
    return ed.warnings


def copy_code(top, outdir, src):
    """The tangled files (code/) next to the editions, with a listing page."""
    dest = os.path.join(outdir, 'code')
    os.makedirs(dest, exist_ok=True)
    roots = sorted({c.root for c in src.chunks if c.root and c.root.startswith('code/')})
    items = []
    for r in roots:
        s = os.path.join(top, r)
        if os.path.exists(s):
            shutil.copyfile(s, os.path.join(dest, r[5:]))
            items.append('<li><a href="%s"><code>%s</code></a></li>' % (
                html.escape(r[5:]), html.escape(r)))
    with open(os.path.join(dest, 'index.html'), 'w', encoding='utf-8') as f:
        f.write('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                '<title>code/</title>\n<link rel="stylesheet" href="../en/book.css">\n'
                '</head>\n<body>\n<main id="main">\n<h1><code>code/</code></h1>\n'
                '<p>中文版：<a href="../zh/index.html">目录</a> · English: '
                '<a href="../en/index.html">Contents</a></p>\n<ul>%s</ul>\n</main>\n'
                '</body>\n</html>\n' % ''.join(items))


def main(argv):
    strict = '--strict' in argv
    argv = [a for a in argv if a != '--strict']
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    outdir, figdir, svgdir, paths = argv[1], argv[2], argv[3], argv[4:]
    top = os.path.dirname(os.path.dirname(HERE))
    src = nwbook.Source(paths)
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda l: build_edition(top, outdir, figdir, svgdir, src, l),
                              ('zh', 'en')))
    copy_code(top, outdir, src)
    warnings = [w for r in results for w in r]
    for w in warnings:
        print('book2html: warning: ' + w, file=sys.stderr)
    return 1 if (warnings and strict) else 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv))
    except (nwbook.aux.AuxError, nwbook.meta.MetaError) as e:   # one line, no traceback
        print('%s: %s' % (os.path.basename(sys.argv[0]), e), file=sys.stderr)
        sys.exit(2)
