"""Chunk names in the reader's language (issue 14).  Every code chunk has a
Chinese display name in chapters/chunk-names.zh; the Chinese edition (PDF,
HTML, slides) shows it, the English edition the English key, and the
bilingual edition the Chinese name with the English as a gloss where the
chunk is defined."""
import glob
import os
import re
import shutil
import subprocess
import sys

from helpers import TOP, Skip

sys.path.insert(0, os.path.join(TOP, 'tools'))
import chunknames  # noqa: E402

B = os.path.join(TOP, 'build')
TABLE = os.path.relpath(chunknames.TABLE, TOP)
CJK = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff]')
# a name as noweave writes it into the woven TeX, where the edition shows it
WOVEN_NAME = re.compile(r'\\moddef\{(.*?)(?:~\{\\nwtagstyle\{\}|\}\\(?:plus)?endmoddef)'
                        r'|\\LA\{\}(.*?)(?:~\{\\nwtagstyle\{\}|\\RA\{\})', re.S)


def defined_chunks():
    """{name: 'chapters/FILE.nw:LINE' of its first definition}, files excepted."""
    where = {}
    for path in sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw'))):
        with open(path, encoding='utf-8') as f:
            for n, line in enumerate(f, 1):
                m = re.match(r'^<<(.*)>>=\s*$', line)
                if m and not chunknames.is_file(m.group(1)):
                    where.setdefault(' '.join(m.group(1).split()),
                                     '%s:%d' % (os.path.relpath(path, TOP), n))
    return where


def test_every_chunk_has_a_chinese_name():
    where = defined_chunks()
    table = chunknames.load()
    missing = [n for n in where if n not in table]
    stale = [n for n in table if n not in where]
    msg = []
    if missing:
        msg.append('%d chunks have no Chinese name.  Add a line for each to %s, in its '
                   "chapter's group:" % (len(missing), TABLE))
        msg += ['    %s | 中文名        (defined at %s)' % (n, where[n]) for n in missing]
    if stale:
        msg.append('%d lines of %s name no chunk (renamed or removed?): change or delete '
                   'them:' % (len(stale), TABLE))
        msg += ['    %s | %s' % (n, table[n]) for n in stale]
    assert not msg, '\n'.join(msg)


def test_chinese_names_are_chinese_and_keep_the_code():
    """A Chinese name is written in Chinese (not the English copied over), with
    full-width punctuation, and keeps the [[code]] of the English name."""
    problems = []
    for en, zh in chunknames.load().items():
        if not CJK.search(zh):
            problems.append('%s | %s: no Chinese in the Chinese name' % (en, zh))
        if re.search(r'[\u4e00-\u9fff][,;:]|[,;:][\u4e00-\u9fff]|``|\'\'', zh):
            problems.append('%s | %s: half-width punctuation or ASCII quotes in Chinese'
                            % (en, zh))
        if sorted(re.findall(r'\[\[.*?\]\]', en)) != sorted(re.findall(r'\[\[.*?\]\]', zh)):
            problems.append('%s | %s: the [[code]] differs' % (en, zh))
    assert not problems, '\n'.join(problems)


def test_the_woven_form_of_every_name_reads_back():
    """tools/chunknames.py finds a name in the woven TeX by undoing noweave's
    escapes; check that against what noweave actually wrote."""
    woven = os.path.join(B, 'woven.tex')
    assert os.path.exists(woven), '%s is missing: run make' % woven
    text = open(woven, encoding='utf-8').read()
    seen = {chunknames.unweave(a or b) for a, b in WOVEN_NAME.findall(text)}
    names = set(defined_chunks())
    assert names <= seen, 'not found in the woven TeX: %s' % sorted(names - seen)[:10]
    for n in names:
        assert chunknames.unweave(chunknames.weave(n)) == n, n


def woven_names(edition):
    path = os.path.join(B, 'body-%s.tex' % edition)
    assert os.path.exists(path), '%s is missing: run make' % path
    text = open(path, encoding='utf-8').read()
    return [(a or b) for a, b in WOVEN_NAME.findall(text)], text


def test_each_edition_shows_its_own_names():
    names, _ = woven_names('zh')
    english = [n for n in names if not CJK.search(n) and not chunknames.is_file(n)]
    assert not english, 'the Chinese edition shows English chunk names: %s' % english[:10]
    names, _ = woven_names('en')
    chinese = [n for n in names if CJK.search(n)]
    assert not chinese, 'the English edition shows Chinese chunk names: %s' % chinese[:10]
    names, text = woven_names('bilingual')
    defs = re.findall(r'\\moddef\{(.*?)(?:~\{\\nwtagstyle\{\}|\}\\(?:plus)?endmoddef)', text)
    bad = [d for d in defs if not chunknames.is_file(d) and not (
        CJK.search(d) and '\\nwchunkgloss{' in d)]
    assert not bad, 'bilingual definitions without a Chinese name and its gloss: %s' % bad[:5]


def test_chinese_pdf_shows_the_chinese_names():
    if not shutil.which('pdftotext'):
        raise Skip('pdftotext is not installed (Debian package poppler-utils)')
    pdf = os.path.join(B, 'book-zh.pdf')
    assert os.path.exists(pdf), '%s is missing: run make' % pdf
    text = subprocess.run(['pdftotext', '-enc', 'UTF-8', pdf, '-'], capture_output=True,
                          text=True, check=True).stdout
    flat = re.sub(r'\s+', '', text)
    table = chunknames.load()
    absent = [zh for zh in table.values()
              if re.sub(r'\s+|\[\[|\]\]', '', zh) not in flat]
    assert not absent, '%d Chinese chunk names not in %s, e.g. %s' % (
        len(absent), pdf, absent[:5])
    # the chunk index has its Chinese heading
    assert '代码块索引' in flat


def test_html_and_slides_show_the_chinese_names():
    pages = glob.glob(os.path.join(B, 'html', 'zh', '*.html'))
    if not pages:
        raise AssertionError('build/html/zh is empty: run make html')
    shown = []
    for p in pages:
        shown += re.findall(r'<span class="chunk-name">⟨(.*?) <a', open(p, encoding='utf-8').read())
    assert shown, 'no chunk names in build/html/zh'
    english = [s for s in shown if not CJK.search(s) and not chunknames.is_file(s)]
    assert not english, 'English chunk names in the Chinese HTML: %s' % english[:5]
    en_pages = glob.glob(os.path.join(B, 'html', 'en', '*.html'))
    for p in en_pages:
        for s in re.findall(r'<span class="chunk-name">⟨(.*?) <a',
                            open(p, encoding='utf-8').read()):
            assert not CJK.search(s), '%s: a Chinese chunk name %r' % (p, s)
    heads = []
    for tex in glob.glob(os.path.join(B, 'slides', '*-zh.tex')):
        t = open(tex, encoding='utf-8').read()
        heads += re.findall(r'\$\\langle\$(?:\\hbox\{\})?\\emph\{(.*?)\}(?:\\hbox\{\})?\$\\rangle', t)
        heads += re.findall(r'\\nwuse\{(.*?)\}', t)
    assert heads, 'no chunks on the Chinese slides: run make slides'
    english = [h for h in heads if not CJK.search(h) and '/' not in h]
    assert not english, 'English chunk names on the Chinese slides: %s' % english[:5]
