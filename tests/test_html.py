"""The HTML edition (make html): its figures, and every page of
both languages opened in headless Chromium (Debian's chromium, driven over
the DevTools protocol by tools/html/browser.py)."""
import glob
import os
import re
import sys
import time
import urllib.parse

from helpers import TOP, Skip, pdf_text

B = os.path.join(TOP, 'build')
HTML = os.path.join(B, 'html')
sys.path.insert(0, os.path.join(TOP, 'tools', 'html'))
CJK = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff]')


def built():
    stamp = os.path.join(HTML, '.stamp')
    assert os.path.exists(stamp), '%s is missing: run make html' % stamp


def test_built_without_warnings():
    built()
    text = open(os.path.join(HTML, 'warnings.txt'), encoding='utf-8').read().strip()
    assert not text, 'make html printed warnings (build/html/warnings.txt):\n' + text[:3000]


def test_every_chapter_has_a_page_and_the_contents_link_them():
    built()
    chapters = sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw')))
    for lang in ('zh', 'en'):
        index = open(os.path.join(HTML, lang, 'index.html'), encoding='utf-8').read()
        for ch in chapters:
            name = os.path.splitext(os.path.basename(ch))[0] + '.html'
            assert os.path.exists(os.path.join(HTML, lang, name)), '%s/%s is missing' % (
                lang, name)
            assert 'href="%s"' % name in index, '%s/index.html does not link %s' % (lang, name)


def test_figures_are_svg_in_the_editions_language():
    """Every figure on the pages is an SVG of the book's own figure, cut from
    build/html-svg/LANG/figures.pdf (one page a figure, its labels in LANG,
    set by XeLaTeX), so the words are read from that PDF's text."""
    built()
    import subprocess
    for lang in ('zh', 'en'):
        svgs = glob.glob(os.path.join(HTML, lang, 'fig', '*.svg'))
        assert svgs, 'no figures in build/html/%s/fig/' % lang
        for s in svgs:
            svg = open(s, encoding='utf-8').read()
            assert svg.count('<path') > 10, '%s: nothing drawn' % s
            assert svg.count('<image ') == svg.count('image-rendering:pixelated'), \
                '%s: a heat map whose cells the browser would blur' % s
        pdf = os.path.join(B, 'html-svg', lang, 'figures.pdf')
        pages = subprocess.run(['pdftotext', '-enc', 'UTF-8', pdf, '-'], check=True,
                               capture_output=True, text=True).stdout.split('\f')[:-1]
        assert len(pages) >= len(svgs), '%s has %d pages for %d figures' % (
            pdf, len(pages), len(svgs))
        has_cjk = 0
        for k, text in enumerate(pages, 1):
            # (the mask diagram's corner reads i\j)
            assert '$' not in text and not re.search(r'\\[A-Za-z]{2}', text), \
                '%s, page %d: TeX left in a label: %r' % (pdf, k, text[:200])
            if lang == 'en':    # Chapter 9's maps label tokens with Chinese numerals
                labels = re.sub('[零一二三四五六七八九十百千万]', '', text)
                assert not CJK.search(labels), '%s, page %d: Chinese in an English figure' % (
                    pdf, k)
            has_cjk += bool(CJK.search(text))
        if lang == 'zh':
            assert has_cjk >= len(pages) // 2, 'the Chinese figures are not labelled in Chinese'


def test_references_have_the_pdfs_numbers():
    """The contents page lists the references with the numbers of the PDF in
    the same language: the entry numbered N on the page and the one printed
    as [N] in the PDF's bibliography have the same title, and no entry is
    missing.  (The numbers are biber's, not the HTML build's.)"""
    built()
    import unicodedata              # NFKC: the PDF's ligatures (ﬀ) as letters
    squash = lambda s: re.sub(r'[\W_]+', '', unicodedata.normalize('NFKC', s)).lower()
    for lang, heading in (('zh', '参考文献'), ('en', 'References')):
        page = open(os.path.join(HTML, lang, 'index.html'), encoding='utf-8').read()
        refs = re.findall(r'<li id="ref-[^"]*" value="(\d+)">.*?<cite>(.*?)</cite>', page, re.S)
        text = pdf_text(os.path.join(B, 'book-%s.pdf' % lang))
        text = text[text.rindex('\n' + heading + '\n'):]
        printed = re.split(r'^\s*\[(\d+)\]\s', text, flags=re.M)
        printed = dict(zip(printed[1::2], printed[2::2]))
        assert len(refs) >= 20 and len(refs) == len(printed), \
            '%s: %d references on the contents page, %d in the PDF' % (lang, len(refs), len(printed))
        for num, title in refs:
            title = squash(html_unescape(title))
            entry = squash(printed.get(num, ''))
            assert title[:30] in entry, '%s: reference [%s] on the contents page is "%s", ' \
                'in the PDF it is %r' % (lang, num, title, printed.get(num, '')[:120])


def test_code_chunks_keep_their_literate_structure():
    """Each chunk: an anchor, its name, highlighted C; uses link to the chunk
    used and the used chunk says where it is used, in the same words as the
    PDF of that language."""
    built()
    for lang, used in (('zh', '本段代码用于'), ('en', 'This code is used in')):
        page = open(os.path.join(HTML, lang, '02-attention.html'), encoding='utf-8').read()
        chunks = re.findall(r'<div class="chunk" id="(NW[^"]+)">', page)
        assert len(chunks) > 20, '%s: only %d chunks in chapter 2' % (lang, len(chunks))
        assert used in page, '%s: no "%s" line' % (lang, used)
        assert 'class="chunkuse"' in page, '%s: no links from a use to its chunk' % lang
        assert '<span class="kw">' in page, '%s: the C is not highlighted' % lang
        assert 'class="ident"' in page, '%s: identifiers do not link their definitions' % lang


def code_blocks(lang):
    """Every code block of the edition: [(page, [line's HTML, ...])]."""
    out = []
    for f in sorted(glob.glob(os.path.join(HTML, lang, '*.html'))):
        page = open(f, encoding='utf-8').read()
        for m in re.finditer(r'<code class="sourceCode c">(.*?)</code></pre>', page, re.S):
            lines = re.findall(r'<span id="cb\d+-\d+">(.*?)</span>$', m.group(1), re.M)
            assert len(lines) == m.group(1).count('\n') + 1, \
                '%s: a code line without its anchor' % os.path.basename(f)
            out.append((os.path.basename(f), lines))
    return out


def test_code_shows_the_chunks_text_coloured_as_c():
    """tools/html/highlight.lua colours the C: every line of code the pages
    show is a line of a chunk in chapters/*.nw, character for character, and
    the words and literals carry pandoc's classes (book.css colours them)."""
    import html as htmlmod
    built()
    source = set()
    for nw in glob.glob(os.path.join(TOP, 'chapters', '*.nw')):
        source.update(open(nw, encoding='utf-8').read().split('\n'))
    marks = {}
    for lang in ('zh', 'en'):
        blocks = code_blocks(lang)
        assert len(blocks) > 400, '%s: only %d code blocks' % (lang, len(blocks))
        for page, lines in blocks:
            for line in lines:
                if 'class="chunkuse"' in line:
                    continue
                text = htmlmod.unescape(re.sub(r'<[^>]+>', '', line))
                assert text in source, '%s/%s: a code line no chunk has: %r' % (lang, page, text)
                for cls, word in re.findall(r'<span class="(\w+)">([^<]*)</span>', line):
                    marks.setdefault(htmlmod.unescape(word), set()).add(cls)
    expect = {'for': 'cf', 'return': 'cf', 'if': 'cf', 'sizeof': 'kw', 'struct': 'kw',
              'double': 'dt', 'const': 'dt', 'size_t': 'dt', 'uint64_t': 'dt',
              '0.0': 'fl', '1e-9': 'fl', '0x1.0p-53': 'fl', '0x80': 'bn', '0': 'dv',
              'f': 'bu', '\\n': 'sc', "'\\0'": 'ch', '<math.h>': 'im', '"core.h"': 'im',
              '#include ': 'pp', '#endif': 'pp', '->': 'op', ');': 'op'}
    for word, cls in expect.items():
        assert marks.get(word) == {cls}, '%r is marked %s, not %s' % (word, marks.get(word), cls)
    assert any(w.startswith('/*') and w.endswith('*/') and marks[w] == {'co'} for w in marks), \
        'no comment is marked co'
    assert any(w.startswith('"%') and marks[w] == {'st'} for w in marks), 'no string is marked st'


def test_every_page_in_chromium():
    """Every page of both editions in headless Chromium, on a 390 px phone
    screen: no console error, no failed load, every internal link and anchor
    resolves, every image loads (a figure with its width and height given, so
    that its place is kept while it loads), every formula is rendered MathML
    (no raw TeX, no <merror>, not empty), no link leaves the machine, and
    nothing makes the page wider than the screen (wide things scroll in their
    own box).
    Screenshots of one chapter page per language, at 1280 and 390 px, go to
    build/html-screenshot-{zh,en}-{1280,390}.png."""
    built()
    import browser
    if not browser.find_chromium():
        raise Skip('chromium is not installed (Debian package chromium; ./build.sh installs it)')
    pages = sorted(glob.glob(os.path.join(HTML, '*', '*.html')))
    assert len(pages) >= 10, 'too few pages: %r' % pages
    probe = r"""(() => {
      const r = {ids: [], links: [], images: [], math: [], problems: []};
      document.querySelectorAll('[id]').forEach(e => r.ids.push(e.id));
      document.querySelectorAll('a[href]').forEach(a =>
        r.links.push([a.getAttribute('href'), a.href]));
      document.querySelectorAll('img.plot').forEach(i => {
        const a = i.closest('a.figlink');
        if (!a || a.getAttribute('href') !== i.getAttribute('src'))
          r.problems.push('figure ' + i.getAttribute('src') + ' is not a link to itself');
        // its place is kept before it loads: width and height, as the image's own
        const w = +i.getAttribute('width'), h = +i.getAttribute('height');
        if (!(w > 0 && h > 0) ||
            Math.abs(w / h - i.naturalWidth / i.naturalHeight) > 0.02 * w / h ||
            Math.abs(w - i.naturalWidth) > 1)
          r.problems.push('figure ' + i.getAttribute('src') + ': width="' + w + '" height="' + h +
                          '", but the image is ' + i.naturalWidth + ' x ' + i.naturalHeight);
      });
      document.querySelectorAll('img').forEach(i =>
        r.images.push([i.getAttribute('src'), i.complete && i.naturalWidth > 0,
                       i.getBoundingClientRect().width]));
      document.querySelectorAll('math').forEach(m => {
        const box = m.getBoundingClientRect();
        const tex = m.querySelector('annotation');
        r.math.push([(tex ? tex.textContent : m.textContent).slice(0, 60),
                     !!m.querySelector('merror'), box.width * box.height]);
      });
      // pandoc leaves TeX it could not convert as text in a span.math
      document.querySelectorAll('span.math').forEach(s =>
        r.problems.push('math not rendered (raw TeX): ' + s.textContent.slice(0, 60)));
      const main = document.querySelector('main');
      if (!main || getComputedStyle(main).maxWidth === 'none')
        r.problems.push('book.css did not apply');
      const sw = document.documentElement.scrollWidth;
      if (sw > window.innerWidth) {
        // name what sticks out: the widest element that is not inside a scroll box
        let worst = null, w = window.innerWidth;
        document.querySelectorAll('main *').forEach(e => {
          const right = e.getBoundingClientRect().right;
          if (right > w) { w = right; worst = e; }
        });
        r.problems.push('page is ' + sw + ' px wide on a ' + window.innerWidth +
                        ' px screen: ' + (worst ? worst.outerHTML.slice(0, 120) : '?'));
      }
      return r;
    })()"""
    errors, ids, links = [], {}, []
    start = time.time()
    n_math = 0
    with browser.Chromium() as b:
        page = None
        for path in pages:
            url = 'file://' + path
            if page is None:
                page = b.open(url, width=390)
            else:
                page.problems = []
                page.navigate(url)
            rel = os.path.relpath(path, HTML)
            r = page.evaluate(probe)
            page.collect()
            errors += ['%s: %s' % (rel, p) for p in page.problems + r['problems']]
            ids[os.path.realpath(path)] = set(r['ids'])
            for src, ok, width in r['images']:
                if not ok or width == 0:
                    errors.append('%s: image %s did not load' % (rel, src))
                elif src.startswith('fig/') and width < 470:
                    # book.css keeps a figure 30rem wide on a phone (it scrolls
                    # sideways in its link) so that its labels stay readable
                    errors.append('%s: figure %s is %d px wide on a 390 px phone: its '
                                  'labels are too small to read' % (rel, src, width))
            for tex, merror, area in r['math']:
                n_math += 1
                if merror:
                    errors.append('%s: <merror> in math: %s' % (rel, tex))
                elif area <= 0:
                    errors.append('%s: math rendered empty: %s' % (rel, tex))
            links += [(rel, path, h, full) for h, full in r['links']]
        for lang in ('zh', 'en'):
            for width in (1280, 390):
                shot = os.path.join(B, 'html-screenshot-%s-%d.png' % (lang, width))
                page.screenshot(shot, width=width, height=900)   # the layout at this width
                page.navigate('file://' + os.path.join(HTML, lang, '02-attention.html'))
                page.screenshot(shot, width=width, height=1800)
        page.close()
    for rel, path, href, full in links:
        u = urllib.parse.urlparse(full)
        if u.scheme != 'file':
            errors.append('%s: link leaves the machine: %s' % (rel, href))
            continue
        target = os.path.realpath(urllib.parse.unquote(u.path))
        if not os.path.exists(target):
            errors.append('%s: broken link %s' % (rel, href))
            continue
        frag = urllib.parse.unquote(u.fragment)
        if frag:
            if target not in ids:
                errors.append('%s: link %s into a page that was not checked' % (rel, href))
            elif frag not in ids[target]:
                errors.append('%s: link %s: no anchor #%s there' % (rel, href, frag))
    print('        (Chromium: %d pages, %d links, %d formulas in %.1f s)' % (
        len(pages), len(links), n_math, time.time() - start))
    assert not errors, '%d problems:\n%s' % (len(errors), '\n'.join(errors[:40]))


def headings(page):
    return re.findall(r'<h([1-4]) id="([^"]+)"', page)


def test_chapter_pages_navigate():
    """Each chapter page has its contents (every section linked), a permalink
    on every heading, links to the PDFs and the chapter's code files, and the
    same ids as the other edition, so the language switch keeps the place."""
    built()
    for path in sorted(glob.glob(os.path.join(HTML, 'en', '[0-9]*.html'))):
        name = os.path.basename(path)
        pages = {l: open(os.path.join(HTML, l, name), encoding='utf-8').read()
                 for l in ('zh', 'en')}
        assert headings(pages['zh']) == headings(pages['en']), \
            '%s: the two editions have different section ids' % name
        zh_ids = set(re.findall(r' id="([^"]+)"', pages['zh']))
        en_ids = set(re.findall(r' id="([^"]+)"', pages['en']))
        assert zh_ids == en_ids, '%s: ids only in one edition: %r' % (
            name, sorted(zh_ids ^ en_ids)[:10])
        for lang, page in pages.items():
            toc = re.search(r'<aside class="toc".*?</aside>', page, re.S)
            assert toc, '%s/%s: no contents' % (lang, name)
            for level, ident in headings(page):
                if level in ('2', '3'):
                    assert 'href="#%s"' % ident in toc.group(0), \
                        '%s/%s: section #%s is not in the contents' % (lang, name, ident)
                assert 'class="permalink" href="#%s"' % ident in page, \
                    '%s/%s: heading #%s has no permalink' % (lang, name, ident)
            assert 'href="../../book-%s.pdf"' % lang in page, '%s/%s: no PDF link' % (lang, name)
            assert re.search(r'class="lang"[^>]*href="\.\./%s/%s"' % (
                'en' if lang == 'zh' else 'zh', re.escape(name)), page), \
                '%s/%s: the language switch does not lead to the same page' % (lang, name)
    ch2 = open(os.path.join(HTML, 'en', '02-attention.html'), encoding='utf-8').read()
    for f in ('attention.h', 'attention.c', 'ch02-attention.c'):
        assert 'href="../code/%s"' % f in ch2, 'chapter 2 does not link code/%s' % f
        assert os.path.exists(os.path.join(HTML, 'code', f))
    assert re.search(r'href="\.\./\.\./slides/02-attention-en\.pdf"', ch2), \
        'chapter 2 does not link its slides'


def test_prose_typography():
    """No space between two Chinese characters inside a paragraph (a line
    break of the source is not a space); ordinary parentheses in math do not
    stretch; quoted code links only when it is a whole identifier; every
    figure's alt text is its caption."""
    built()
    cjk = r'[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]'
    stray = []
    for path in glob.glob(os.path.join(HTML, 'zh', '*.html')):
        t = re.sub(r'<math.*?</math>', 'M', open(path, encoding='utf-8').read(), flags=re.S)
        for p in re.findall(r'<p>(.*?)</p>', t, re.S):
            p = re.sub(r'<[^>]+>', '', p)
            # an exercise's head (练习 2.1（易）) is followed by a space, as in print
            p = re.sub(r'^练习 [0-9A-Z.]+（[^）]*）\s', '', p)
            stray += [p[max(0, m.start() - 10):m.end() + 10]
                      for m in re.finditer(cjk + r'\s+' + cjk, p)]
    assert not stray, '%d spaces between Chinese characters, e.g. %r' % (len(stray), stray[:5])
    for lang in ('zh', 'en'):
        for path in glob.glob(os.path.join(HTML, lang, '*.html')):
            t = open(path, encoding='utf-8').read()
            rel = os.path.relpath(path, HTML)
            for m in re.finditer(r'<math\b.*?</math>', t, re.S):
                ann = re.search(r'<annotation[^>]*>(.*?)</annotation>', m.group(0), re.S)
                if ann and re.search(r'\\left|\\right', ann.group(1)):
                    continue
                assert not re.search(r'<mo stretchy="true"[^>]*>[()]</mo>', m.group(0)), \
                    '%s: stretchy parentheses in %s' % (rel, ann.group(1)[:80] if ann else '')
            for code in re.findall(r'class="ident"><code>([^<]*)</code>', t):
                assert re.match(r'^[A-Za-z_][A-Za-z0-9_]*(\(.*\))?$', html_unescape(code)), \
                    '%s: a link on part of a name: %s' % (rel, code)
            # in the code too: not attention in "attention.h" or ch02-attention
            for m in re.finditer(r'([-./A-Za-z0-9_]?)<a class="ident"[^>]*>([^<]*)</a>'
                                 r'([-.]?[A-Za-z0-9_]?)', t):
                assert not m.group(1) and not re.match(r'^[-.]?[A-Za-z0-9_]', m.group(3)), \
                    '%s: a link on part of a name in code: %s' % (rel, m.group(0))
            for alt in re.findall(r'<img class="plot"[^>]*alt="([^"]*)"', t):
                assert len(alt) > 20 and not alt.startswith('ch0'), \
                    '%s: figure alt text is not its caption: %r' % (rel, alt)
    ch2 = open(os.path.join(HTML, 'en', '02-attention.html'), encoding='utf-8').read()
    assert '<code>attention.h</code>' in ch2 and \
        'class="ident"><code>attention.h' not in ch2


def html_unescape(s):
    import html
    return html.unescape(s)


def relative_luminance(rgb):
    def ch(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (ch(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg, bg):
    a, b = sorted((relative_luminance(fg), relative_luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_search_copy_and_colours_in_chromium():
    """In Chromium, from file://: the search finds known sections for a
    Chinese and an English query; a chunk's copy button copies code that
    notangle would write (uses expanded, no ⟨…⟩); links are underlined and
    text, links and code keep a contrast of 4.5:1 in the light and the dark
    theme; the language switch carries the section on screen."""
    built()
    import browser
    import subprocess
    if not browser.find_chromium():
        raise Skip('chromium is not installed (Debian package chromium; ./build.sh installs it)')
    search = r"""(async (q) => {
      const input = document.getElementById('search-q');
      input.value = q;
      input.dispatchEvent(new Event('input'));
      for (let k = 0; k < 100 && !window.ATTN_SEARCH; k++)
        await new Promise(r => setTimeout(r, 50));
      await new Promise(r => setTimeout(r, 50));
      return Array.from(document.querySelectorAll('#search-results a')).map(a => a.getAttribute('href'));
    })(%s)"""
    colours = r"""(() => {
      const rgb = s => (s.match(/\d+(\.\d+)?/g) || []).slice(0, 3).map(Number);
      const bg = rgb(getComputedStyle(document.body).backgroundColor);
      const out = [];
      const sel = ['main p', 'main p a.ref', 'main .chunk-xref', 'main .chunk-xref a',
                   'main span.kw', 'main span.co', 'main span.dv', 'main span.st',
                   'main .secnum', 'aside.toc a', 'main .caption', 'nav a'];
      sel.forEach(s => {
        const e = document.querySelector(s);
        if (e) out.push([s, rgb(getComputedStyle(e).color), bg,
                         getComputedStyle(e).textDecorationLine]);
      });
      return out;
    })()"""
    chunks = r"""(async () => {
      if (window.ATTN_CHUNKS) return 'chunks.js loaded before a reader reached for a button';
      await new Promise(r => attnbook.withChunks(r));
      const b = Array.from(document.querySelectorAll('button.copy')).filter(b => !b.hidden);
      return [b.length, Object.keys(ATTN_CHUNKS.names)];
    })()"""
    problems = []

    def check_colours(b, page, lang):
        """Contrast and underlines on the page open, light and dark."""
        for scheme in ('light', 'dark'):
            b.send('Emulation.setEmulatedMedia', {'features': [
                {'name': 'prefers-color-scheme', 'value': scheme}]}, session=page.s)
            for sel, fg, bg, deco in page.evaluate(colours):
                c = contrast(fg, bg)
                if c < 4.5:
                    problems.append('%s %s %s: contrast %.2f:1 (%r on %r)' % (
                        scheme, lang, sel, c, fg, bg))
                # links in running text (a list of links is known as links)
                if sel in ('main p a.ref', 'main .chunk-xref a', 'nav a'):
                    if 'underline' not in deco:
                        problems.append('%s: %s is not underlined' % (lang, sel))
        b.send('Emulation.setEmulatedMedia', {'features': []}, session=page.s)

    with browser.Chromium() as b:
        page = None
        # each language's Chapter 2 once: its colours, then the search
        for lang, queries in (('zh', (('掩码', '04-masking.html#'),
                                      ('层归一化', '05-feed-forward.html#'))),
                              ('en', (('padding mask', '04-masking.html#'),
                                      ('softmax overflow', '02-attention.html#')))):
            url = 'file://' + os.path.join(HTML, lang, '02-attention.html')
            if page is None:
                page = b.open(url, width=1280)
            else:
                page.navigate(url)
            check_colours(b, page, lang)
            for query, want in queries:
                hrefs = page.evaluate(search % repr(query), await_=True)
                if not any(h.startswith(want) for h in hrefs[:5]):
                    problems.append('%s: searching %r does not find %s in the first five: %r' % (
                        lang, query, want, hrefs[:5]))
        # copy (English Chapter 2 is open): the button on a chunk that uses
        # others, and whole files
        got = page.evaluate(chunks, await_=True)
        if isinstance(got, str):
            problems.append(got)
            got = (0, [])
        n, names = got
        if n < 20:
            problems.append('only %d copy buttons on chapter 2' % n)
        chapters = sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw')))
        for f in ('code/attention.h', 'code/attention.c'):
            want = open(os.path.join(TOP, f), encoding='utf-8').read().split('\n', 1)[1]
            got = page.evaluate('attnbook.expandName(%r)' % f)
            # tools/tangle.sh adds a blank line after a definition where noweb
            # joins two chunks; the page expands the chunks as noweb does.
            if [l for l in got.rstrip().split('\n') if l] != \
                    [l for l in want.rstrip().split('\n') if l]:
                problems.append('expanding <<%s>> does not give %s' % (f, f))
        label = page.evaluate("""(() => {
          const uses = Array.from(document.querySelectorAll('.chunk')).filter(c =>
            c.querySelector('a.chunkuse') && !c.querySelector('a.file') &&
            c.querySelector('.chunk-def').textContent === '≡');
          const b = uses[0].querySelector('button.copy');
          b.click();
          return [b.dataset.chunk, uses[0].querySelector('.chunk-name').textContent];
        })()""")
        copied = page.evaluate('attnbook.copied')
        print('        (copy button: <<%s>>, %d lines)' % (label[1], len((copied or '').splitlines())))
        name = label[1].strip('⟨⟩ ').rsplit(' ', 1)[0]
        tangled = subprocess.run(['notangle', '-R' + name] + chapters, capture_output=True,
                                 text=True).stdout
        if not copied or '⟨' in copied or '<<' in copied:
            problems.append('the copy button copied %r' % (copied or '')[:200])
        elif tangled.strip() and copied.rstrip() != tangled.rstrip():
            problems.append('the copy button of <<%s>> copied what notangle does not '
                            'write:\n%s\n---\n%s' % (name, copied[:300], tangled[:300]))
        # the language switch keeps the place
        page.navigate('file://' + os.path.join(HTML, 'en', 'index.html'))
        page.navigate('file://' + os.path.join(HTML, 'en', '02-attention.html') + '#sec:softmax')
        page.evaluate("window.scrollBy(0, 5)")
        here = page.evaluate("""new Promise(r => requestAnimationFrame(() => requestAnimationFrame(
            () => { const a = document.querySelector('aside.toc a.here');
                    r(a ? a.getAttribute('href') : null); })))""", await_=True)
        if here != '#sec:softmax':
            problems.append('the contents mark %r, not the section on screen' % here)
        href = page.evaluate("""(() => { const a = document.querySelector('a.lang');
                                a.dispatchEvent(new MouseEvent('click', {cancelable: true}));
                                return a.href; })()""")
        if not href.endswith('02-attention.html#sec%3Asoftmax') and \
                not href.endswith('02-attention.html#sec:softmax'):
            problems.append('the language switch leads to %s' % href)
        page.close()
    assert not problems, '\n'.join(problems)
