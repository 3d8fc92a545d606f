"""The HTML edition (make html): its numbers, its figures, and every page of
both languages opened in headless Chromium (Debian's chromium, driven over
the DevTools protocol by tools/html/browser.py)."""
import glob
import os
import re
import sys
import time
import urllib.parse

from helpers import TOP, Skip

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


def test_numbers_are_the_pdfs_numbers():
    """Chapters, sections, equations, figures, tables and exercises are numbered
    by tools/html/nwbook.py as LaTeX numbers them: every \\label in the PDFs'
    .aux files must have the same number in the HTML edition."""
    import nwbook
    src = nwbook.Source(nwbook.chapter_paths(TOP))
    checked = 0
    for lang in ('zh', 'en'):
        aux = os.path.join(B, 'book-%s.aux' % lang)
        if not os.path.exists(aux):
            raise Skip('%s is missing: run make pdf' % aux)
        book = nwbook.Book(src, lang)
        for m in re.finditer(r'\\newlabel\{([^}]*)\}\{\{(\{?)([^{}]*)\}?\}',
                             open(aux, encoding='utf-8').read()):
            label, number = m.group(1), m.group(3)
            if label.startswith('NW'):          # noweb's own chunk labels
                continue
            assert label in book.labels, '%s: \\label{%s} (%s in the PDF) is not in the ' \
                'HTML edition' % (lang, label, number)
            assert book.labels[label][0] == number, \
                '%s: \\label{%s} is %r in the PDF but %r in the HTML edition' % (
                    lang, label, number, book.labels[label][0])
            checked += 1
    assert checked > 20, 'only %d labels checked' % checked


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
    built()
    for lang in ('zh', 'en'):
        svgs = glob.glob(os.path.join(HTML, lang, 'fig', '*.svg'))
        assert svgs, 'no figures in build/html/%s/fig/' % lang
        has_cjk = 0
        for s in svgs:
            text = ''.join(re.findall(r'<text[^>]*>(.*?)</text>',
                                      open(s, encoding='utf-8').read(), re.S))
            text = re.sub(r'<[^>]*>', '', text)
            assert '$' not in text and '\\' not in text, \
                '%s: TeX left in a label: %r' % (s, text[:200])
            if lang == 'en':    # Chapter 9's maps label tokens with Chinese numerals
                labels = re.sub('[零一二三四五六七八九十百千万]', '', text)
                assert not CJK.search(labels), '%s: Chinese in an English figure' % s
            has_cjk += bool(CJK.search(text))
        if lang == 'zh':
            assert has_cjk >= len(svgs) // 2, 'the Chinese figures are not labelled in Chinese'


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


def test_every_page_in_chromium():
    """Every page of both editions in headless Chromium: no console error, no
    failed load, every internal link and anchor resolves, every image loads,
    every formula is rendered MathML (no raw TeX, no <merror>, not empty), no
    link leaves the machine.  Screenshots of one chapter page per language go
    to build/html-screenshot-{zh,en}.png."""
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
                page = b.open(url)
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
            for tex, merror, area in r['math']:
                n_math += 1
                if merror:
                    errors.append('%s: <merror> in math: %s' % (rel, tex))
                elif area <= 0:
                    errors.append('%s: math rendered empty: %s' % (rel, tex))
            links += [(rel, path, h, full) for h, full in r['links']]
        for lang in ('zh', 'en'):
            shot = os.path.join(B, 'html-screenshot-%s.png' % lang)
            page.navigate('file://' + os.path.join(HTML, lang, '02-attention.html'))
            page.screenshot(shot, width=1100, max_height=3200)
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
