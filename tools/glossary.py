#!/usr/bin/python3
"""The glossary's terms, for the subject index (issue 13).

The glossary (chapters/91-appendix-glossary.nw) is the single list of the
book's terms: one row `English & 中文 & note & \\glosspage \\\\` each.  Prose
marks the place that defines a term with \\defterm{KEY} (and, optionally, a
later substantial discussion with \\indexterm{KEY}), KEY being the row's
English term without a trailing parenthesis: "chunk (of code)" is \\defterm{chunk}.

  load()           the rows, checked: [Term(id, key, en, zh, note)]
  tex(terms)       build/glossary.tex, which tex/attnbook.sty \\inputs: one
                   \\attnterm{ID}{KEY}{LOOKUP}{English}{中文}{sort en}{sort zh}{EN UP}{ZH UP}
                   a term, UP the ID of the term it is a kind of (parent())
  uses(paths)      every \\defterm/\\indexterm in the chapters, with its block
  tools/glossary.py tex OUT.tex        writes OUT.tex
  tools/glossary.py check CHAPTER.nw ...   each term defined once per language
"""
import collections
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLOSSARY = os.path.join(TOP, 'chapters', '91-appendix-glossary.nw')

Term = collections.namedtuple('Term', 'id key en zh note line')
ROW = re.compile(r'^(?P<en>[^&%\\][^&]*?)\s*&\s*(?P<zh>[^&]*?)\s*&\s*(?P<note>.*?)\s*'
                 r'&\s*\\glosspage\s*\\\\\s*(%.*)?$')
# upmendex's special characters, and TeX's: a term holding one would be
# mangled in the .idx
SPECIAL = re.compile(r'[!@|"{}\\$#^_~]')


def key_of(en):
    """The key authors write: the English term without a trailing (...)."""
    return re.sub(r'\s*\([^()]*\)$', '', en).strip()


def load(path=GLOSSARY):
    """The glossary's rows in order; ValueError naming path:line on a row
    that has no \\glosspage, a repeated key or a character the index
    cannot carry."""
    terms, seen = [], {}
    inside = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if '\\endhead' in line:
                inside = True
                continue
            if '\\bottomrule' in line:
                inside = False
            if not inside or not line.strip():
                continue
            m = ROW.match(line.rstrip('\n'))
            if not m:
                raise ValueError('%s:%d: expected a row "English & 中文 & note & '
                                 '\\glosspage \\\\"' % (path, n))
            en, zh = m.group('en'), m.group('zh')
            key = key_of(en)
            for s in (en, zh):
                if SPECIAL.search(s):
                    raise ValueError('%s:%d: "%s": the index cannot carry %s'
                                     % (path, n, s, SPECIAL.search(s).group()))
            if key in seen:
                raise ValueError('%s:%d: the key "%s" is also line %d\'s' % (path, n, key, seen[key]))
            seen[key] = n
            terms.append(Term(len(terms) + 1, key, en, zh, m.group('note'), n))
    if not terms:
        raise ValueError('%s: no glossary rows found' % path)
    return terms


def zh_display(zh):
    """The Chinese term as the index shows it: a leading qualifier goes last
    (“（Softmax 的）饱和” is “饱和（Softmax 的）”)."""
    m = re.match(r'^（([^）]*)）(.*)$', zh)
    return '%s（%s）' % (m.group(2), m.group(1)) if m else zh


def zh_sort(zh):
    """The Chinese index's sort key: the term without its parenthesis.  A
    term that starts with a Latin letter (Adam, Softmax, Jacobi 迭代) sorts
    with the others like it, ahead of the Chinese ones, under their own
    heading (tex/index-zh.ist: the '*' makes upmendex count them symbols)."""
    s = re.sub(r'（[^）]*）', '', zh_display(zh)).strip()
    return '*' + s if re.match(r'[A-Za-z]', s) else s


def en_sort(en):
    return key_of(en).lower()


def lookup(en):
    """How the glossary's own row finds its term (tex/attnbook.sty's
    \\attn@glossterm): the English cell without spaces."""
    return re.sub(r'\s+', '', en)


def parent(t, terms, lang):
    """The term T is a kind of, in LANG, or None: the longest other term
    its own ends with, as a word (\"additive attention\" and \"self-attention\"
    under \"attention\"; \"加性注意力\" under \"注意力\").  The index lists T
    under it as well as in its own place."""
    best = None
    for u in terms:
        if u is t:
            continue
        if lang == 'en':
            a, b = t.key.lower(), u.key.lower()
            fits = a.endswith(' ' + b) or a.endswith('-' + b)
        else:
            a, b = (re.sub(r'（[^）]*）', '', zh_display(x.zh)).strip() for x in (t, u))
            fits = len(a) > len(b) and a.endswith(b)
        if fits and (best is None or len(b) > len(best[1])):
            best = (u, b)
    return best[0] if best else None


def tex(terms):
    out = ['% Generated from chapters/91-appendix-glossary.nw by tools/glossary.py.']
    for t in terms:
        up = [parent(t, terms, lang) for lang in ('en', 'zh')]
        # one Chinese character is too short a word to trust on its own
        # (抽头, a tap, is not a kind of 头, a head): only when the English agrees
        if up[1] and len(re.sub(r'（[^）]*）', '', up[1].zh)) < 2 and up[1] is not up[0]:
            up[1] = None
        out.append('\\attnterm{%d}{%s}{%s}{%s}{%s}{%s}{%s}{%d}{%d}' % (
            t.id, t.key, lookup(t.en), t.en, zh_display(t.zh), en_sort(t.en), zh_sort(t.zh),
            up[0].id if up[0] else 0, up[1].id if up[1] else 0))
    return '\n'.join(out) + '\n'


USE = re.compile(r'\\(defterm|indexterm)(?![A-Za-z])\s*\{([^{}]*)\}')
BLOCK = re.compile(r'^\s*\\(begin|end)\{(zh|en)\}\s*$')


def uses(paths):
    """[(path, line, 'defterm'|'indexterm', key, 'zh'|'en'|None)] for every
    use in the chapters' prose (code chunks skipped)."""
    out = []
    for path in paths:
        block, code = None, False
        with open(path, encoding='utf-8') as f:
            for n, line in enumerate(f, 1):
                if re.match(r'^<<.*>>=\s*$', line):
                    code = True
                    continue
                if code:
                    if line.startswith('@'):
                        code = False
                    continue
                m = BLOCK.match(line)
                if m:
                    block = m.group(2) if m.group(1) == 'begin' else None
                    continue
                text = re.sub(r'(?<!\\)%.*', '', line)
                for u in USE.finditer(text):
                    out.append((path, n, u.group(1), ' '.join(u.group(2).split()), block))
    return out


def check(paths, terms=None):
    """Complaints: a key not in the glossary, a use outside a zh/en block, a
    term defined other than once in each language."""
    terms = terms if terms is not None else load()
    keys = {t.key for t in terms}
    errors = []
    count = collections.Counter()
    for path, n, kind, key, block in uses(paths):
        where = '%s:%d' % (os.path.relpath(path, TOP), n)
        if key not in keys:
            errors.append('%s: \\%s{%s}: no such term in the glossary' % (where, kind, key))
        if block is None:
            errors.append('%s: \\%s{%s} outside a zh or en block' % (where, kind, key))
        elif kind == 'defterm':
            count[key, block] += 1
    for t in terms:
        for lang in ('zh', 'en'):
            if count[t.key, lang] != 1:
                errors.append('%s: "%s" has %d defining uses (\\defterm) in %s blocks, '
                              'not one' % (os.path.relpath(GLOSSARY, TOP), t.key,
                                           count[t.key, lang], lang))
    return errors


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == 'tex':
            text = tex(load())
            with open(argv[2] + '.tmp', 'w', encoding='utf-8') as f:
                f.write(text)
            os.replace(argv[2] + '.tmp', argv[2])
            return 0
        if len(argv) >= 3 and argv[1] == 'check':
            errors = check(argv[2:])
            for e in errors:
                print(e, file=sys.stderr)
            return 1 if errors else 0
    except ValueError as e:
        print(e, file=sys.stderr)
        return 1
    print('usage: tools/glossary.py tex OUT.tex | tools/glossary.py check CHAPTER.nw ...',
          file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
