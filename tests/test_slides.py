"""The chapter slides (make slides): one beamer deck per chapter with
`% slide` marks and per language, made from those marks.  (The time the HTML
edition and the slides take to build is `make bench-html`, not a test.)"""
import glob
import os
import re
import shutil
import subprocess
import sys

from helpers import TOP, Skip

B = os.path.join(TOP, 'build')
sys.path.insert(0, os.path.join(TOP, 'tools', 'html'))
CJK = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff]')
MARK = re.compile(r'^[ \t]*%[ \t]*slide(\+|\*?:.*)?[ \t]*$', re.M)
# a mark and the lines after it (tools/html/htmlbook.py, SLIDE_MARK)
MARK_LINES = re.compile(r'^[ \t]*%[ \t]*slide(\+|\*?:.*)?[ \t]*\n'
                        r'((?:[ \t]*%[ \t]*(?:zh|en):.*\n)*)', re.M)


def marked_chapters():
    out = []
    for path in sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw'))):
        n = len(MARK.findall(open(path, encoding='utf-8').read()))
        if n:
            out.append((path, n))
    return out


def pdftext(pdf):
    if not shutil.which('pdftotext'):
        raise Skip('pdftotext is not installed (Debian package poppler-utils)')
    assert os.path.exists(pdf), '%s is missing: run make slides' % pdf
    return subprocess.run(['pdftotext', '-enc', 'UTF-8', pdf, '-'], capture_output=True,
                          text=True, check=True).stdout.split('\f')


def test_every_marked_chapter_has_a_deck_per_language():
    chapters = marked_chapters()
    assert len(chapters) >= 3, 'expected slide marks in chapters 1, 2 and 7'
    for path, marks in chapters:
        base = os.path.splitext(os.path.basename(path))[0]
        plus = len(re.findall(r'^[ \t]*%[ \t]*slide\+', open(path, encoding='utf-8').read(),
                              re.M))
        for lang in ('zh', 'en'):
            pages = [p for p in pdftext(os.path.join(B, 'slides', '%s-%s.pdf' % (base, lang)))
                     if p.strip()]
            # a title frame and one frame per mark that starts a frame
            assert len(pages) == 1 + marks - plus, '%s-%s: %d frames for %d marks (%d +)' % (
                base, lang, len(pages), marks, plus)
            # one xelatex run typesets a language's decks, xdvipdfmx cuts
            # them apart (tools/html/slides.sh): each PDF starts with its own
            # title and numbers its frames from 1
            number = str(int(base[:2]))
            title = ('第%s章' if lang == 'zh' else 'Chapter%s:') % number
            assert title in pages[0].replace(' ', ''), \
                '%s-%s.pdf does not start with its title' % (base, lang)
            for k, p in enumerate(pages, 1):
                assert p.split()[-1] == str(k), '%s-%s.pdf, page %d shows frame %s' % (
                    base, lang, k, p.split()[-1])
            # and the information a deck's own run gives it (the template's)
            info = subprocess.run(['pdfinfo', os.path.join(B, 'slides', '%s-%s.pdf' % (base, lang))],
                                  capture_output=True, text=True).stdout
            assert re.search(r'^Creator:\s+LaTeX via pandoc$', info, re.M), \
                '%s-%s.pdf: no Creator of its own:\n%s' % (base, lang, info)
            text = '\n'.join(pages)
            if lang == 'en':
                m = CJK.search(text)
                assert not m, '%s-en.pdf has Chinese: %r' % (base, text[m.start() - 30:m.end() + 30])
            else:
                assert len(CJK.findall(text)) > 20, '%s-zh.pdf is not in Chinese' % base


def test_marks_take_the_books_numbers_and_figures():
    import htmlbook as nwbook
    src = nwbook.Source(nwbook.chapter_paths(TOP))
    book = nwbook.Book(src, 'en')
    bad = [w for w in book.warnings if 'slide' in w]
    assert not bad, '\n'.join(bad)
    ch2 = next(c for c in book.chapters if c.slug == '02-attention')
    tex = open(os.path.join(B, 'slides', '02-attention-en.tex'), encoding='utf-8').read()
    # equation (1) of the book is (1) on the slide, and figures are the book's files
    eqs = [e for _, els in ch2.slides for e in els if e[0] == 'equation']
    assert eqs and all(('\\tag{%s}' % e[2]) in tex for e in eqs if e[2])
    figs = [f for _, els in ch2.slides for e in els if e[0] == 'figure' for f in e[1]]
    # the book's figure, or the same script drawn again at the frame's size
    assert figs and all(re.search(r'\\input\{(slides/)?fig/%s(-[0-9.x]+)?\.tex\}' % f, tex)
                        for f in figs)
    text = '\n'.join(pdftext(os.path.join(B, 'slides', '02-attention-en.pdf')))
    assert 'Figure 2.2' in text, 'the heatmap slide should say Figure 2.2 as the book does'


def test_marks_carry_a_takeaway_in_both_languages():
    """Every mark that starts a frame has a title and one to three short lines
    in each language; each deck has 15 to 25 frames."""
    problems = []
    for path, marks in marked_chapters():
        text = open(path, encoding='utf-8').read()
        base = os.path.basename(path)
        frames = 1
        for m in MARK_LINES.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            if m.group(1) == '+':
                continue
            frames += 1
            if not (m.group(1) or '').lstrip('*').startswith(':'):
                problems.append('%s:%d: a frame without a title' % (base, line))
            for lang in ('zh', 'en'):
                lines = re.findall(r'%%[ \t]*%s:(.*)' % lang, m.group(2))
                if not 1 <= len(lines) <= 3:
                    problems.append('%s:%d: %d %s lines (1 to 3)' % (base, line, len(lines), lang))
                for l in lines:
                    size = len(CJK.findall(l)) * 2 + len(CJK.sub('', l)) if lang == 'zh' \
                        else len(l)
                    if size > 130:
                        problems.append('%s:%d: a %s line too long for a slide: %s' % (
                            base, line, lang, l.strip()[:60]))
        if not 15 <= frames <= 25:
            problems.append('%s: %d frames (15 to 25 a deck)' % (base, frames))
    assert not problems, '\n'.join(problems)


def test_decks_fit_their_frames():
    """No overfull box over 1 pt in any deck (nothing runs off a frame), no
    warning from tools/html/slides.lua (a chunk too long for a frame), code at
    \\small or larger with uses as ⟨name⟩, speaker notes, and the plots'
    labels at 9 pt or more on the frame."""
    decks = sorted(glob.glob(os.path.join(B, 'slides', '*.tex')))
    # not the one document of a language's decks (decks-LANG.tex), nor an
    # older build's header-*.tex
    decks = [d for d in decks if not os.path.basename(d).startswith(('header-', 'decks-'))]
    assert decks, 'no decks in build/slides: run make slides'
    warnings = open(os.path.join(B, 'slides', 'warnings.txt'), encoding='utf-8').read()
    assert not warnings.strip(), warnings
    problems = []
    for tex in decks:
        name = os.path.basename(tex)[:-4]
        log = open(tex[:-4] + '.log', encoding='utf-8', errors='replace').read()
        for m in re.finditer(r'Overfull \\([hv])box \(([0-9.]+)pt too (?:wide|high)\) (.*)', log):
            if float(m.group(2)) > 1:
                problems.append('%s: overfull \\%sbox by %s pt %s' % (name, m.group(1),
                                                                     m.group(2), m.group(3)))
        t = open(tex, encoding='utf-8').read()
        if '\\begin{Highlighting}' in t or 'Verbatim' in t:
            # the preamble (tools/html/slides.latex): code at \small or larger
            header = t[:t.index('\\begin{document}')]
            assert re.search(r'\\fvset\{fontsize=\\(small|normalsize)\}', header)
        if re.search(r'\\NormalTok\{[^}]*\\textless\{\}\\textless\{\}', t):
            problems.append('%s: a use of a chunk shown as raw <<...>>' % name)
        frames = t.count('\\begin{frame}')
        if t.count('\\note{') < frames // 2:
            problems.append('%s: speaker notes on only %d of %d frames' % (
                name, t.count('\\note{'), frames))
        # the figures' labels, measured on the PDF (page k is frame k)
        if not shutil.which('pdftotext'):
            continue
        bodies = re.split(r'\\begin\{frame\}', t)[1:]
        # (a TikZ diagram, slides/fig/NAME-LANG.tex, is shrunk to fit its
        # frame: test_marked_diagrams_are_on_both_decks measures its labels)
        fig_pages = [k + 2 for k, body in enumerate(bodies)
                     if re.search(r'\\input\{(slides/)?fig/(?![^}]*-(zh|en)\.tex\})', body)]
        for page in fig_pages:
            bbox = subprocess.run(['pdftotext', '-f', str(page), '-l', str(page), '-bbox',
                                   tex[:-4] + '.pdf', '-'], capture_output=True, text=True).stdout
            words = [(float(m.group(1)), float(m.group(2)), float(m.group(3)),
                      float(m.group(4)), m.group(5)) for m in re.finditer(
                          r'<word xMin="([^"]*)" yMin="([^"]*)" xMax="([^"]*)" '
                          r'yMax="([^"]*)">([^<]*)</word>', bbox)]
            for x0, y0, x1, y1, word in words:
                if not re.match(r'^[A-Za-z0-9.\-]{3,}$', word) or y0 < 30 or y1 > 242:
                    continue    # math letters, pieces of rotated labels, title, footline
                if y1 - y0 >= 8.8:
                    continue
                # a sub- or superscript (d_model): right after a larger letter,
                # off its centre line
                if any(abs(ax1 - x0) < 2.5 and ay1 - ay0 > y1 - y0 and
                       abs((ay0 + ay1) / 2 - (y0 + y1) / 2) > 1.5
                       for ax0, ay0, ax1, ay1, _ in words):
                    continue
                problems.append('%s, frame %d: the label %r is %.1f pt' % (
                    name, page, word, y1 - y0))
    assert not problems, '%d problems:\n%s' % (len(problems), '\n'.join(problems[:30]))


def diagram_pages(lang):
    """(deck, page, NAME) of every TikZ diagram (figures/NAME.tikz) that a
    `% slide` mark puts on a frame, in LANG's decks; page k is frame k - 1."""
    import htmlbook as nwbook
    book = nwbook.Book(nwbook.Source(nwbook.chapter_paths(TOP)), lang)
    out = []
    for chap in book.chapters:
        names = [f for _, els in chap.slides for e in els if e[0] == 'figure' for f in e[1]
                 if os.path.exists(os.path.join(TOP, 'figures', f + '.tikz'))]
        if not names:
            continue
        deck = os.path.join(B, 'slides', '%s-%s.tex' % (chap.slug, lang))
        bodies = re.split(r'\\begin\{frame\}', open(deck, encoding='utf-8').read())[1:]
        for name in names:
            pages = [k + 2 for k, body in enumerate(bodies)
                     if '\\input{slides/fig/%s-%s.tex}' % (name, lang) in body]
            assert len(pages) == 1, '%s: %d frames show %s' % (deck, len(pages), name)
            out.append((deck, pages[0], name))
    return out


def diagram_labels(name):
    """The (Chinese, English) labels of figures/NAME.tikz, \\figbox and
    \\figtext, that hold no other macro of tools/tikzfig.py."""
    import htmlbook as nwbook
    text = open(os.path.join(TOP, 'figures', name + '.tikz'), encoding='utf-8').read()
    pairs = []
    for macro in ('figbox', 'figtext'):
        nwbook.replace_macro(text, macro, 2, lambda zh, en: pairs.append((zh, en)) or '')
    return [(zh, en) for zh, en in pairs if '\\fig' not in zh + en]


def test_marked_diagrams_are_on_both_decks():
    """Each TikZ diagram with a `% slide` mark is on a frame of the Chinese and
    the English deck: the picture with that language's labels (the other's
    nowhere), \\figref's numbers the book's (no ??), and labels of 7 pt or
    more on the frame once the picture is shrunk to fit it."""
    found = {}
    problems = []
    for lang in ('zh', 'en'):
        for deck, page, name in diagram_pages(lang):
            found.setdefault(name, []).append(lang)
            pic = open(os.path.join(B, 'slides', 'fig', '%s-%s.tex' % (name, lang)),
                       encoding='utf-8').read()
            pic = re.sub(r'(?<!\\)%.*', '', pic)     # the comments: English for all
            if re.search(r'\\(fig(box|text|chunk|ref|data)|ref)\{', pic):
                problems.append('%s-%s.tex: a macro left unresolved' % (name, lang))
            words = subprocess.run(['pdftotext', '-f', str(page), '-l', str(page), '-bbox',
                                    deck[:-4] + '.pdf', '-'], capture_output=True,
                                   text=True).stdout if shutil.which('pdftotext') else None
            if words is None:
                raise Skip('pdftotext is not installed (Debian package poppler-utils)')
            shown = ''.join(pdftext(deck[:-4] + '.pdf')[page - 1].split())
            if '??' in shown:
                problems.append('%s, frame %d: an unresolved reference (??)' % (deck, page))
            for zh, en in diagram_labels(name):
                want, other = (zh, en) if lang == 'zh' else (en, zh)
                if want not in pic:
                    problems.append('%s-%s.tex: no label %r' % (name, lang, want))
                if other != want and other not in want and CJK.search(zh) and other in pic:
                    problems.append('%s-%s.tex: the other language\'s label %r'
                                    % (name, lang, other))
                # on the frame: the label's own words (math aside)
                plain = re.sub(r'\$[^$]*\$|\\[a-zA-Z]+|[{}\\]', ' ', want)
                runs = CJK.findall(plain) and re.findall(r'[\u3400-\u9fff]+', plain) \
                    if lang == 'zh' else re.findall(r'[A-Za-z]{4,}', plain)
                for r in runs:
                    if r not in shown:
                        problems.append('%s, frame %d: label %r not shown' % (
                            os.path.basename(deck), page, r))
            if lang == 'en' and CJK.search(shown):
                problems.append('%s, frame %d: Chinese on an English frame' % (deck, page))
            # the smallest label: its height on the PDF (Latin letters and
            # digits; pdftotext draws Chinese smaller than its size)
            boxes = [(float(m.group(1)), float(m.group(2)), float(m.group(3)),
                      float(m.group(4)), m.group(5)) for m in re.finditer(
                          r'<word xMin="([^"]*)" yMin="([^"]*)" xMax="([^"]*)" '
                          r'yMax="([^"]*)">([^<]*)</word>', words)]
            sizes = []
            for x0, y0, x1, y1, word in boxes:
                if CJK.search(word) or y0 < 30 or y1 > 242:
                    continue    # Chinese, the title, the footline
                if any(abs(ax1 - x0) < 2.5 and ay1 - ay0 > y1 - y0 and
                       abs((ay0 + ay1) / 2 - (y0 + y1) / 2) > 1.5
                       for ax0, ay0, ax1, ay1, _ in boxes):
                    continue    # a sub- or superscript
                sizes.append((y1 - y0, word))
            smallest = min(sizes)
            if smallest[0] < 7.0:
                problems.append('%s, frame %d: the label %r is %.1f pt (7 at least)' % (
                    os.path.basename(deck), page, smallest[1], smallest[0]))
    assert found, 'no TikZ diagram has a % slide mark'
    for name, langs in found.items():
        if langs != ['zh', 'en']:
            problems.append('%s is only in the %s decks' % (name, ', '.join(langs)))
    assert not problems, '\n'.join(problems)


def test_filter_marks_uses_and_warns():
    """tools/html/slides.lua on a deck of its own: a use of another chunk is
    \\nwuse{name} in the highlighted C, a reference takes the book's number,
    an unknown one and a chunk too long for a frame are warnings, and a
    caption keeps its first sentence, without how the build measured it."""
    import tempfile
    from book2html import lua
    if not shutil.which('pandoc'):
        raise Skip('pandoc is not installed')
    long_chunk = [['int a_%d = 0;' % k] for k in range(15)]
    deck = {'file': 'x.nw', 'title': 'T', 'number': '2', 'appendix': False, 'slides': [
        {'title': 'Eq.~\\eqref{eq:a}', 'points': ['see \\ref{fig:none}'],
         'notes': 'N\\footnote{F}.',
         'elements': [{'kind': 'code', 'name': 'the [[loop]]', 'chunk': 'the [[loop]]',
                       'cont': True,
                       'lines': [['for (;;) ', ['the [[body]]']]]},
                      {'kind': 'table', 'body': 'B', 'number': 'Table 2.1', 'figs': [],
                       'caption': 'Times (one call; Both sizes). Measured by \\texttt{bench} '
                                  'while the book was built.'}]},
        {'title': 'Long', 'points': [], 'notes': '',
         'elements': [{'kind': 'code', 'name': 'long', 'chunk': 'long', 'cont': False,
                       'lines': long_chunk}]}]}
    data = {'lang': 'en', 'words': {'chapter': 'Chapter {}', 'appendix': 'Appendix {}'},
            'subtitle': 'S',
            'labels': {'eq:a': '7'},
            'quotes': [], 'decks': {'x': deck}}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'data.lua')
        with open(path, 'w', encoding='utf-8') as f:
            f.write('return %s\n' % lua(data))
        p = subprocess.run(['pandoc', '-f', 'markdown', '-t', 'beamer', '-s', '--slide-level=2',
                            '--highlight-style=tango',
                            '--template', os.path.join(TOP, 'tools', 'html', 'slides.latex'),
                            '--lua-filter', os.path.join(TOP, 'tools', 'html', 'slides.lua'),
                            '-M', 'slidesdata=' + path, '-M', 'deck=x'],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    tex = p.stdout
    assert '\\title{Chapter 2:\\ T}' in tex
    assert '\\begin{frame}[fragile]{Eq.~(7)}' in tex
    assert '\\nwuse{the body}' in tex and 'ZZnwuse' not in tex
    assert '\\emph{the \\texttt{loop}}\\hbox{}$\\rangle+\\equiv$' in tex
    # the first sentence, not cut at a semicolon inside parentheses
    assert '\\textbf{Table 2.1}\\quad Times (one call; Both sizes).\\par' in tex
    assert '\\note{N.}' in tex and '\\DefineVerbatimEnvironment{Highlighting}' in tex
    assert '\\input{attnshared.tex}' in tex and '{ctex}' not in tex
    assert p.stderr.splitlines() == [
        'slides.lua: \\ref{fig:none}: no such label',
        'slides.lua: x.nw: chunk <<long>> has 15 lines: too long for a slide (at most 14)'], \
        p.stderr
