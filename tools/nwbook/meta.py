#!/usr/bin/python3
"""The book's metadata: book.toml at the top of the repository.

  load()        the whole file, checked: a missing or misspelt key is an
                error naming it (there are no default titles)
  words(lang)   the words the HTML edition and the slides print, one language
  tex(meta)     build/bookmeta.tex, the definitions tex/attnbook.sty \\inputs

  tools/nwbook/meta.py tex OUT.tex    writes OUT.tex
"""
import os
import sys
import tomllib

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH = os.path.join(TOP, 'book.toml')
LANGS = ('zh', 'en')

# What book.toml must hold: table -> keys (PAIR: a {zh, en} pair).
PAIR = object()
SCHEMA = {
    'book': {'title': PAIR, 'subtitle': PAIR, 'fulltitle': PAIR, 'tagline': PAIR,
             'authors': PAIR, 'bilingual': str, 'year': str, 'licence': PAIR,
             'colophon': PAIR},
    'fonts': dict.fromkeys(('cjkmain', 'cjksans', 'cjkmono', 'mono', 'sans', 'monoscale'), str),
    'machinery': dict.fromkeys(('exercise', 'references', 'chunkindex', 'chunkindexnote',
                                'identindex', 'identindexnote', 'subjectindex', 'indexnote',
                                'indexzh', 'indexzhnote', 'indexen', 'indexennote',
                                'indexlatin', 'glosspage'), PAIR),
    'noweb': {lang: dict.fromkeys((
        'chunk', 'and', 'comma', 'never_used', 'never_defined', 'written_to_file',
        'continued_in', 'used_in', 'uses', 'defines', 'ident_used_in',
        'ident_never_used'), str) for lang in LANGS},
    'html': {lang: dict.fromkeys((
        'chapter', 'appendix', 'figure', 'table', 'contents', 'prev', 'next', 'glossary',
        'other', 'otherlang', 'continues', 'toc', 'search', 'searchlabel', 'nores', 'copy',
        'copied', 'copytitle', 'resources', 'pdf', 'pdfbi', 'slides', 'code', 'permalink',
        'allcode', 'alldecks', 'colon'), str) for lang in LANGS},
}


class MetaError(Exception):
    pass


def _check(data, schema, where):
    for key, want in schema.items():
        name = '%s.%s' % (where, key) if where else key
        if key not in data:
            raise MetaError('%s: missing %s' % (PATH, name))
        value = data[key]
        if isinstance(want, dict):
            if not isinstance(value, dict):
                raise MetaError('%s: %s must be a table' % (PATH, name))
            _check(value, want, name)
        elif want is PAIR:
            if not isinstance(value, dict) or set(value) != set(LANGS) or \
                    not all(isinstance(v, str) and v for v in value.values()):
                raise MetaError('%s: %s must be { zh = "...", en = "..." }' % (PATH, name))
        elif not isinstance(value, str) or not value:
            raise MetaError('%s: %s must be a non-empty string' % (PATH, name))
    for key in data:
        if key not in schema:
            raise MetaError('%s: unknown key %s' % (PATH, '%s.%s' % (where, key) if where else key))


_cache = {}


def load(path=None):
    """book.toml, checked against SCHEMA; MetaError names the problem."""
    path = path or PATH
    if path not in _cache:
        try:
            with open(path, 'rb') as f:
                data = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise MetaError('%s: %s' % (path, e)) from None
        _check(data, SCHEMA, '')
        _cache[path] = data
    return _cache[path]


def words(lang, meta=None):
    """Every word the HTML edition and the slides print in lang: the html
    table, the book's machinery and noweb's labels (the same as the PDF's)."""
    m = meta or load()
    nw = m['noweb'][lang]
    w = dict(m['html'][lang])
    w.update({
        'exercise': m['machinery']['exercise'][lang] + ' {}',
        'references': m['machinery']['references'][lang],
        'continued': nw['continued_in'], 'used': nw['used_in'], 'file': nw['written_to_file'],
        'defines': nw['defines'], 'identused': nw['ident_used_in'],
        'and': ' %s ' % nw['and'], 'comma': nw['comma'], 'notused': nw['never_used'],
    })
    return w


def css(meta=None):
    """The fonts as CSS custom properties, for the top of book.css."""
    f = (meta or load())['fonts']
    return ':root { %s }\n' % ' '.join('--font-%s: "%s";' % (k, f[k]) for k in (
        'cjkmain', 'cjksans', 'cjkmono', 'mono', 'sans'))


def title(lang, key='fulltitle', meta=None):
    return (meta or load())['book'][key][lang]


def _tex_phrase(s):
    """A phrase with {} holes as a TeX macro body with #1, #2 ..."""
    parts = s.split('{}')
    return ''.join(p + ('#%d' % n if n < len(parts) else '') for n, p in enumerate(parts, 1)), \
        len(parts) - 1


def tex(meta=None):
    m = meta or load()
    out = ['% Generated from book.toml by tools/nwbook/meta.py: edit book.toml, not this.']
    for table in ('book', 'machinery'):
        for key, v in m[table].items():
            if isinstance(v, str):
                out.append('\\def\\attn%s{%s}' % (key, v))
                continue
            out.append('\\def\\attn%s{\\zhen{%s}{%s}}' % (key, v['zh'], v['en']))
            for lang in LANGS:          # each half alone: \attnzhtitle, \attnentitle
                out.append('\\def\\attn%s%s{%s}' % (lang, key, v[lang]))
    for key, v in m['fonts'].items():
        out.append('\\def\\attnfont%s{%s}' % (key, v))
    for lang in LANGS:
        for key, v in m['noweb'][lang].items():
            body, n = _tex_phrase(v)
            params = ''.join('#%d' % k for k in range(1, n + 1))
            out.append('\\expandafter\\def\\csname attnnw@%s@%s\\endcsname%s{%s}'
                       % (lang, key, params, body))
    return '\n'.join(out) + '\n'


def main(argv):
    if len(argv) != 3 or argv[1] != 'tex':
        print('usage: tools/nwbook/meta.py tex OUT.tex', file=sys.stderr)
        return 2
    try:
        text = tex()
    except MetaError as e:
        print(e, file=sys.stderr)
        return 2
    with open(argv[2] + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(argv[2] + '.tmp', argv[2])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
