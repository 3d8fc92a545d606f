"""The book's sources as noweb's own front end sees them.

The chapters go through markup | autodefs.c | nwlocals.py | finduses |
nwlocals.py uses | noidx, the stages the PDF's weave (mk/pdf.mk) runs
before noweb's LaTeX back end; Source reads
that stream into files of documentation text and code chunks (names, labels,
continuations, uses, the identifiers each defines), and the [[quoted]] code
of the documentation (a marker \\htmlq{N} stands where quote N stood).
"""
import os
import subprocess
import sys

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NOWEB_LIB = '/usr/lib/noweb'


class Chunk:
    """One code chunk (one definition, noweb's @begin code ... @end code)."""

    def __init__(self, index):
        self.index = index          # 0, 1, 2 ... over the whole book
        self.label = None           # noweb's label, e.g. NW3Y5whp-4CI70t-1
        self.first = None           # label of the name's first definition
        self.name = ''
        self.next = None
        self.alldefs = []           # (on the first one) every continuation
        self.uses = []              # labels of the chunks that use it
        self.root = None            # file name, for a chunk used nowhere
        self.lines = [[]]           # each line: list of ('text', s) | ('use', name, label)
                                    #            | ('ident', name, deflabel)
        self.defines = []           # identifiers defined here
        self.file = None            # the .nw file
        self.tag = ''               # its number in the HTML edition, e.g. 2.14


class Source:
    """The whole book as noweb's front end and noidx see it."""

    def __init__(self, paths):
        cmd = ' | '.join([
            '%s/markup %s' % (NOWEB_LIB, ' '.join("'%s'" % p for p in paths)),
            '%s/autodefs.c' % NOWEB_LIB,
            "'%s' '%s'" % (sys.executable, os.path.join(TOOLS, 'nwlocals.py')),   # no locals
            '%s/finduses' % NOWEB_LIB,
            "'%s' '%s' uses" % (sys.executable, os.path.join(TOOLS, 'nwlocals.py')),
            '%s/noidx' % NOWEB_LIB])
        out = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd], check=True,
                             capture_output=True).stdout.decode('utf-8')
        self.files = []             # (path, [('docs', text) | ('code', Chunk)])
        self.chunks = []
        self.quotes = []            # (code text, label of its definition or None,
                                    #  the identifier that label defines)
        self.ident_uses = {}        # identifier -> labels of the chunks using it
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
                    items.append(('docs', ''.join(docs)))
            elif kw == 'text':
                if cur is not None:
                    # a file's own identifier is indexed as "opts (ch08)"
                    if pending_ident is not None and (arg == pending_ident[0] or
                                                      pending_ident[0].startswith(arg + ' (')):
                        cur.lines[-1].append(('ident', arg, pending_ident[1]))
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
                else:                   # (in a quote, nwlocals.py made it a space)
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
                    index_entry = rest.partition(' ')[2]
                    self.ident_uses[index_entry] = []
                elif sub == 'entryuse' and index_entry:
                    if rest not in self.ident_uses[index_entry]:
                        self.ident_uses[index_entry].append(rest)
                elif sub == 'entryend':
                    index_entry = None
        for c in self.chunks:
            if c.first is None:
                c.first = c.label


def chapter_paths(top):
    d = os.path.join(top, 'chapters')
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.nw'))
