"""Chinese display names of the code chunks: chapters/chunk-names.zh.

The English name stays each chunk's key (in the .nw, in code/, in the English
edition); the Chinese edition shows the name this table gives it.  Used by
tools/nwbook/lang.py (the PDF editions' weave), tools/html/htmlbook.py (the HTML
edition and the slides) and tests/test_chunk_names.py.
"""
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(TOP, 'chapters', 'chunk-names.zh')


def load(path=TABLE):
    """{English name: Chinese name}; raises ValueError naming path:line on a
    line that is not `English | 中文` or repeats a name."""
    names = {}
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            parts = line.split(' | ')
            if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
                raise ValueError('%s:%d: expected "English name | 中文名"' % (path, n))
            en, zh = (' '.join(p.split()) for p in parts)
            if en in names:
                raise ValueError('%s:%d: <<%s>> is named twice' % (path, n, en))
            names[en] = zh
    return names


def is_file(name):
    """A root that is a file (code/model.h) keeps its name in every edition."""
    return '/' in name and ' ' not in name


_cache = {}


def names():
    """load() of chapters/chunk-names.zh, read once per process."""
    if 'table' not in _cache:
        _cache['table'] = load()
    return _cache['table']


def chinese(name, table=None):
    """The Chinese name of chunk `name`, or None if the table has none."""
    if table is None:
        try:
            table = names()
        except OSError:
            table = _cache['table'] = {}
    key = ' '.join(name.split())
    if is_file(key):
        return key
    return table.get(key)


# -- noweave's form of a name in the woven TeX -------------------------------

_ESC = {'_': r'{\_}', '&': r'{\&}', '%': r'{\%}', '$': r'{\$}', '#': r'{\#}',
        '{': r'{\{}', '}': r'{\}}'}


def weave(name):
    """A name as noweave writes it: [[x]] as \\code{}x\\edoc{}, specials escaped."""
    def esc(s):
        return ''.join(_ESC.get(ch, ch) for ch in s)
    parts = re.split(r'\[\[(.*?)\]\]', name)
    return ''.join(esc(p) if k % 2 == 0 else r'\code{}%s\edoc{}' % esc(p)
                   for k, p in enumerate(parts))


def unweave(tex):
    """The inverse of weave(): noweave's form back to the .nw's name."""
    def unesc(s):
        return re.sub(r'\{\\([_&%$#{}])\}', r'\1', s)
    s = re.sub(r'\\code\{\}(.*?)\\edoc\{\}', lambda m: '[[%s]]' % unesc(m.group(1)), tex)
    return ' '.join(unesc(s).split())
