#!/usr/bin/python3
"""The HTML edition:  book2html.py OUTDIR FIGDIR SVGDIR CHAPTER.nw ...

Writes OUTDIR/zh/ and OUTDIR/en/: index.html (the contents), one page per
chapter (NN-topic.html, named after its .nw file), book.css and the figures
(fig/NAME.svg, copied from SVGDIR/LANG/).  Every page opens from the file
system: no server, no network, no script.

How: tools/html/htmlbook.py reads the chapters (tools/nwbook/) and takes
their numbers from the PDFs' .aux files; this script writes, per language,
the prose as LaTeX with markers where code chunks, figures, equations and
exercises stand, and a Lua table of what the markers stand for (numbers,
labels, chunks, citations, the pages' words).  One pandoc run per language
reads the LaTeX; its Lua filter tools/html/book.lua builds the chunks,
figures, equations and cross-references into the AST and writes every page
(HTML5 with MathML, the C highlighted) through the template
tools/html/page.html5, which holds the navigation.  Warnings (an unknown
label, math pandoc could not convert, LaTeX it did not know) are printed and
make the exit status 1 with --strict.
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


def lua(x):
    """x (None, bool, int, float, str, list, tuple, dict) as a Lua expression; None
    is false, so that a list keeps its length."""
    if x is None or x is False:
        return 'false'
    if x is True:
        return 'true'
    if isinstance(x, (int, float)):
        return repr(x)
    if isinstance(x, str):
        return '"%s"' % re.sub(r'[\\"\x00-\x1f]', lambda m: '\\%03d' % ord(m.group(0)), x)
    if isinstance(x, dict):
        return '{%s}' % ','.join('[%s]=%s' % (lua(k), lua(v)) for k, v in x.items())
    return '{%s}' % ','.join(lua(v) for v in x)


def math_text(s):
    """Inline math as plain text (a page's title), as book.lua's math_text."""
    s = re.sub(r'\\sqrt\{([^}]*)\}', r'√\1', s)
    s = re.sub(r'\\(mathrm|text|mathit)\{([^}]*)\}', r'\2', s)
    return re.sub(r'[{}$\\]', '', s)


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


def pandoc_input(book):
    """Every chapter's LaTeX, each page opened by \\htmlpage{N}."""
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
    return ''.join(parts)


def plain_title(chap, lang):
    w = nwbook.WORDS[lang]
    t = nwbook.resolve_language(chap.short or chap.title, lang)
    t = re.sub(r'\$([^$]*)\$', lambda m: math_text(m.group(1)), t)
    t = re.sub(r'\\[A-Za-z]+\{([^}]*)\}', r'\1', t)
    t = re.sub(r'[{}\\]', '', t)
    if chap.number:
        t = w['appendix' if chap.appendix else 'chapter'].format(chap.number) + ' ' + t
    return t


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


def bibliography_html(book, entries):
    items = []
    for key, num in sorted(book.citations.items(), key=lambda kv: kv[1]):
        e = entries.get(key, {})
        venue = e.get('booktitle') or e.get('journal') or e.get('publisher') or \
            e.get('institution') or e.get('organization') or ''
        if e.get('eprint'):
            venue = 'arXiv:' + e['eprint']
        parts = [bib_authors(e.get('author', '')), '<cite>%s</cite>' % html.escape(
            bib_text(e.get('title', key))), html.escape(bib_text(venue)), e.get('year', '')]
        items.append('<li id="ref-%s" value="%d">%s.</li>' % (
            html.escape(key), num, '. '.join(p.rstrip('.') for p in parts if p)))
    return '<ol class="references">%s</ol>' % ''.join(items)


def chunk_table(book, c):
    """What book.lua needs to build chunk c: its lines, names as the edition
    shows them, and the chunks it names."""
    src, lang = book.src, book.lang
    first = src.by_label.get(c.first, c)
    lines = [[('use', nwbook.display_name(part[1], lang), part[2], part[1])
              if part[0] == 'use' else part for part in line] for line in c.lines]
    uses = list(dict.fromkeys(c.uses))
    defs = []
    for ident in c.defines:
        used = [u for u in src.ident_uses.get(ident, []) if u != c.label]
        if used:
            defs.append((ident, used))
    return {'label': c.label, 'tag': getattr(c, 'tag', '?'), 'first': c.first,
            'firsttag': getattr(first, 'tag', '?'),
            'name': nwbook.display_name(c.name, lang), 'lines': lines,
            'continued': (first.alldefs or [c.next]) if c.label == c.first and c.next else None,
            'uses': uses or None, 'root': c.root, 'defs': defs or None}


def svg_sizes(svgdir):
    """{figure: [width, height]} in CSS pixels, from each SVG's own size in
    points (pdftocairo writes width="W pt"): the page reserves a figure's
    place before it loads, so nothing below it moves, nor a link's target."""
    sizes = {}
    for f in sorted(os.listdir(svgdir)) if os.path.isdir(svgdir) else ():
        if f.endswith('.svg'):
            with open(os.path.join(svgdir, f), encoding='utf-8') as fh:
                m = re.search(r'<svg[^>]* width="([\d.]+)pt" height="([\d.]+)pt"', fh.read(1000))
            if m:
                sizes[f[:-4]] = [round(float(m.group(1)) * 4 / 3), round(float(m.group(2)) * 4 / 3)]
    return sizes


def edition_data(top, dest, book, svgdir):
    """book.lua's data: everything the markers in the LaTeX stand for."""
    lang, src = book.lang, book.src
    # the numbers of the PDF's bibliography in the same language (biber's)
    book.citations = book.nums.citations
    entries = read_bib(os.path.join(top, 'tex', 'book.bib'))
    m = nwbook.meta.load()['book']
    chapters = []
    for chap in book.chapters:
        deck = None
        if chap.slides:
            deck = '%s-%s.pdf' % (os.path.splitext(os.path.basename(chap.file))[0], lang)
        roots = sorted({c.root for c in chap.chunks if c.root})
        chapters.append({'slug': chap.slug, 'title': plain_title(chap, lang), 'deck': deck,
                         'number': chap.number,
                         'roots': [{'path': r, 'name': r[5:] if r.startswith('code/') else r}
                                   for r in roots] or None})
    return {
        'lang': lang, 'dest': dest, 'template': os.path.join(HERE, 'page.html5'),
        'ui': nwbook.WORDS[lang], 'title': nwbook.meta.title(lang),
        'subtitle': nwbook.meta.title(lang, 'tagline'),
        'colophon': {'year': m['year'], 'authors': m['authors'][lang],
                     'licence': m['licence'][lang], 'text': m['colophon'][lang]},
        'references': bibliography_html(book, entries) if book.citations else None,
        'glossary': book.labels.get('app:glossary', (None, None))[1],
        'chapters': chapters,
        'figsizes': svg_sizes(os.path.join(svgdir, lang)),
        'labels': {k: v[:2] for k, v in book.labels.items()},
        'citations': book.citations,
        'raw_tokens': book.raw_tokens,
        'quotes': src.quotes,
        'boxes': [{'kind': b['kind'], 'id': b.get('id'), 'number': b.get('number')}
                  for b in book.boxes],
        'chunks': [chunk_table(book, c) for c in src.chunks],
        'chunk_page': {c.label: ch.slug for ch in book.chapters for c in ch.chunks},
        'chunk_tag': {c.label: c.tag for c in src.chunks if hasattr(c, 'tag')},
    }


def build_edition(top, outdir, figdir, svgdir, src, lang):
    book = nwbook.Book(src, lang, figdir)
    warnings = list(book.warnings)
    dest = os.path.join(outdir, lang)
    os.makedirs(os.path.join(dest, 'fig'), exist_ok=True)
    tex = pandoc_input(book)
    data = os.path.join(outdir, 'book-%s.lua' % lang)
    with open(data, 'w', encoding='utf-8') as f:
        f.write('return %s\n' % lua(edition_data(top, dest, book, svgdir)))
    p = subprocess.run([PANDOC, '-f', 'latex+raw_tex', '-t', 'html5', '-o', os.devnull,
                        '--lua-filter', os.path.join(HERE, 'book.lua'), '-M', 'bookdata=' + data],
                       input=tex.encode('utf-8'), capture_output=True)
    err = p.stderr.decode('utf-8', 'replace')
    if p.returncode != 0:
        sys.stderr.write(err)
        raise SystemExit('pandoc (book.lua, %s) failed' % lang)
    os.remove(data)
    for line in err.splitlines():
        if line.startswith('book.lua: '):
            warnings.append(line[len('book.lua: '):])
        elif line.strip():
            warnings.append('%s: pandoc: %s' % (lang, line.strip()))
    ui = nwbook.WORDS[lang]
    with open(os.path.join(dest, 'book.css'), 'w', encoding='utf-8') as f:
        f.write(nwbook.meta.css() + open(os.path.join(HERE, 'book.css'), encoding='utf-8').read())
    js = open(os.path.join(HERE, 'book.js'), encoding='utf-8').read()
    with open(os.path.join(dest, 'book.js'), 'w', encoding='utf-8') as f:
        f.write('var ATTN_UI = %s;\n' % json.dumps(ui, ensure_ascii=False) + js)
    with open(os.path.join(dest, 'chunks.js'), 'w', encoding='utf-8') as f:
        f.write('var ATTN_CHUNKS = %s;\n' % json.dumps(chunk_data(src), ensure_ascii=False,
                                                       separators=(',', ':')))
    figures = sorted({n for b in book.boxes for n in b.get('images') or ()})
    for name in figures:
        s = os.path.join(svgdir, lang, name + '.svg')
        if os.path.exists(s):
            shutil.copyfile(s, os.path.join(dest, 'fig', name + '.svg'))
        else:
            warnings.append('%s: figure %s has no SVG (%s)' % (lang, name, s))
    return warnings


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
