#!/usr/bin/python3
"""No code is used before it is defined.

    forward_use.py [--prerequisite FILE.nw]... [--deps OUT.tex] FILE.nw ...

reads the chapters in book order (the order given) and fails, with one line
per offence naming the chunk, its chapter and the identifier, whenever code
in chapter k uses a C identifier (function, type, struct or enum tag,
enumeration constant, macro, file-scope variable), a chunk or a header
(#include "x.h" of a root <<code/x.h>>) that is first defined in a chapter
j > k.

The rule the book states (Chapter 1's introduction): the appendices named
with --prerequisite (the C core, Appendix A, and the programs' command-line
module, Appendix D) are read as prerequisites; what they define may be used
anywhere.  Everything else may be used only from its defining chapter on.
Code written in a prerequisite appendix but tangled into a chapter's program
(Appendix D holds each program's data mode) belongs to that chapter: it may
use what that chapter may use, no more.  Inside one chapter the order is
free (literate programs name a chunk before they show it).

How: every root <<code/...>> is expanded as notangle would, keeping for each
character the chunk and the .nw line it came from; the C is then split into
tokens and its file-scope declarations found (a declarator's name is the
first identifier followed by one of ( [ ) = , ; or the end).  A `static`
definition is seen only from its own file; anything else (a header's
prototypes, a library's functions) from everywhere.  Identifiers after . or
->, inside comments, strings and character constants are not uses.
With --deps, a clean book also gives OUT.tex, for the preface's roadmap:
for each chapter, the earlier chapters whose definitions its code uses (a
name the file defines itself, such as every program's main, is no such use;
adding to an earlier chapter's chunk is).
Exit status: 0 clean, 1 forward uses found, 2 bad input.
"""
import bisect
import os
import re
import sys

CHUNK_DEF = re.compile(r'^<<(.+)>>=\s*$')
DOC_START = re.compile(r'^@( |$)')
CHUNK_REF = re.compile(r'<<(.+?)>>')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
DEFINE = re.compile(r'^\s*#\s*define\s+([A-Za-z_]\w*)')
TOKEN = re.compile(r'''
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<pp>^[ \t]*\#(?:\\\n|[^\n])*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<punct>->|\.\.\.|[{}()\[\];,.=*&]|[^\s\w])
  | (?P<space>\s+)
''', re.S | re.M | re.X)
KEYWORDS = set('''auto break case char const continue default do double else
enum extern float for goto if inline int long register restrict return short
signed sizeof static struct switch typedef union unsigned void volatile while
_Bool _Complex _Noreturn _Static_assert _Alignas _Alignof _Thread_local
bool'''.split())
ENDS_DECLARATOR = {'(', '[', ')', '=', ',', ';', ':', None}


class Chunk:
    """One piece of a chunk as written: <<name>>= in file at line."""
    def __init__(self, name, path, line):
        self.name, self.path, self.line, self.body = name, path, line, []


def read_chunks(paths):
    chunks = []
    for path in paths:
        try:
            with open(path, encoding='utf-8') as f:
                lines = f.read().split('\n')
        except OSError as e:
            sys.stderr.write('forward_use: %s: %s\n' % (path, e.strerror))
            sys.exit(2)
        cur = None
        for no, text in enumerate(lines, 1):
            m = CHUNK_DEF.match(text)
            if m:
                cur = Chunk(m.group(1), path, no)
                chunks.append(cur)
            elif cur is not None and DOC_START.match(text):
                cur = None
            elif cur is not None:
                cur.body.append((no, text.replace('@<<', '<<').replace('@>>', '>>')))
    return chunks


class Book:
    def __init__(self, paths, prerequisites):
        self.paths = paths
        self.prereq = {os.path.normpath(p) for p in prerequisites}
        self.chunks = read_chunks(paths)
        self.pieces = {}                      # name -> [Chunk] in book order
        for c in self.chunks:
            self.pieces.setdefault(c.name, []).append(c)
        # The reading position of each file: prerequisites come first (0),
        # then the files in the order given.
        self.order = {}
        n = 0
        for p in paths:
            if os.path.normpath(p) in self.prereq:
                self.order[p] = 0
            else:
                n += 1
                self.order[p] = n
        self.title = {p: chapter_title(p, i) for i, p in enumerate(paths)}
        self.uses = set()                     # (p, q): position p uses q < p

    def note_use(self, p, q):
        """Code read at position p uses something first defined at q."""
        if 0 < q < p:
            self.uses.add((p, q))

    def name_of(self, position):
        return next(self.title[p] for p in self.paths if self.order[p] == position)

    def position(self, path, root):
        """Where code written in path and tangled into root is read."""
        if self.order[path] > 0:
            return self.order[path]
        return self.order[self.pieces[root][0].path]

    def first(self, name, root):
        """(position, Chunk) of the first piece of chunk name, seen from root."""
        return min(((self.position(c.path, root), i, c)
                    for i, c in enumerate(self.pieces[name])),
                   key=lambda t: t[:2])[::2]


def chapter_title(path, index):
    base = os.path.basename(path)
    m = re.match(r'(\d+)-', base)
    if m and int(m.group(1)) < 90:
        return 'Chapter %d' % int(m.group(1))
    if m:
        return 'Appendix %s' % chr(ord('A') + int(m.group(1)) - 90)
    return base


def expand(book, root, offences):
    """The text of root as notangle writes it (indentation aside), and for
    each line the (Chunk, line number) it came from.  Chunk references that
    point forward are reported into offences on the way."""
    out, origin = [], []

    def walk(name, stack, indent):
        if name in stack:
            return
        start, _ = book.first(name, root)
        for piece in book.pieces[name]:
            p = book.position(piece.path, root)
            book.note_use(p, start)          # a chapter adding to an earlier chunk
            for no, text in piece.body:
                refs = list(CHUNK_REF.finditer(text))
                if not refs:
                    out.append(indent + text)
                    origin.append((piece, no))
                    continue
                for m in refs:
                    ref = m.group(1)
                    if ref not in book.pieces:
                        continue         # noroots / notangle report these
                    q, first = book.first(ref, root)
                    book.note_use(p, q)
                    if q > p:
                        offences.add((piece.path, no, piece.name, p,
                                      'chunk <<%s>>' % ref, first.path, first.line, q))
                # Lines that only hold a reference expand in place; text
                # around a reference stays on a line of its own.
                pos = 0
                for m in refs:
                    before = text[pos:m.start()]
                    if before.strip():
                        out.append(indent + before)
                        origin.append((piece, no))
                    if m.group(1) in book.pieces:
                        walk(m.group(1), stack + [name],
                             indent + ' ' * len(before))
                    pos = m.end()
                if text[pos:].strip():
                    out.append(indent + text[pos:])
                    origin.append((piece, no))
    walk(root, [], '')
    return out, origin


def tokens(lines):
    """(kind, text, line index) of the C in lines."""
    text = '\n'.join(lines) + '\n'
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind in ('space', 'comment', 'number'):
            continue
        yield kind, m.group(), bisect.bisect_right(starts, m.start()) - 1


def declarations(toks):
    """Split the token list into file-scope items; yield (names declared,
    is_static, index range of the item)."""
    i, n = 0, len(toks)
    while i < n:
        kind, text, _ = toks[i]
        if kind == 'pp':
            i += 1
            continue
        start, depth, j, body = i, 0, i, None
        while j < n:
            k2, t, _ = toks[j]
            if k2 == 'pp':
                j += 1
                continue
            if t in '([{':
                if t == '{' and depth == 0 and j > start and toks[j - 1][1] == ')':
                    body = j
                depth += 1
            elif t in ')]}':
                depth -= 1
                if depth == 0 and body is not None and t == '}':
                    break
            elif t == ';' and depth == 0:
                break
            j += 1
        item = [t for t in toks[start:j + 1] if t[0] != 'pp']
        yield declared_names(item, body is not None), item and item[0][1] == 'static', (start, j + 1)
        i = j + 1


def declared_names(item, is_function):
    """(names, kind): kind 'object' for functions and variables, 'type'
    when the item only declares types, tags or enumeration constants."""
    names, objects = [], []
    words = strip_attributes([t[1] for t in item])
    # struct/union/enum tags and enumeration constants
    for a, w in enumerate(words):
        if w in ('struct', 'union', 'enum') and a + 2 < len(words) \
                and re.match(r'[A-Za-z_]', words[a + 1]) and words[a + 2] == '{':
            names.append(words[a + 1])
        if w == 'enum':
            b = a + 1 + (words[a + 1] != '{' if a + 1 < len(words) else 0)
            if b < len(words) and words[b] == '{':
                depth, expect = 0, True
                for c in range(b, len(words)):
                    if words[c] in '({[':
                        depth += 1
                        if depth == 1:
                            expect = True
                            continue
                    elif words[c] in ')}]':
                        depth -= 1
                        if depth == 0:
                            break
                    if depth == 1 and words[c] == ',':
                        expect = True
                    elif depth == 1 and expect and re.match(r'[A-Za-z_]', words[c]):
                        names.append(words[c])
                        expect = False
    # the declarators: drop the braces of struct/enum bodies and initialisers
    flat, depth = [], 0
    for w in words:
        if w == '{':
            if depth == 0:
                flat.append('{}')           # struct {...} Name: Name is declared
            depth += 1
            continue
        if w == '}':
            depth -= 1
            continue
        if depth == 0:
            flat.append(w)
    parts, cur, d = [], [], 0
    for w in flat:
        if w in '([':
            d += 1
        elif w in ')]':
            d -= 1
        if w == ',' and d == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(w)
    parts.append(cur)
    if is_function:
        parts = parts[:1]
    for part in parts:
        d = 0
        for a, w in enumerate(part):
            nxt = part[a + 1] if a + 1 < len(part) else None
            if w == '(' and nxt != '*':
                if d == 0 and a > 0:
                    break            # a parameter list: the name came before
            if w in '([':
                d += 1
            elif w in ')]':
                d -= 1
            elif w == '=' and d == 0:
                break
            elif re.match(r'[A-Za-z_]\w*$', w) and w not in KEYWORDS \
                    and nxt in ENDS_DECLARATOR and (a == 0 or part[a - 1] not in ('struct', 'union', 'enum')):
                (names if words[0] == 'typedef' else objects).append(w)
                break
    return names, objects


def strip_attributes(words):
    """words without GCC's __attribute__((...))."""
    out, a = [], 0
    while a < len(words):
        if words[a] == '__attribute__' and a + 1 < len(words) and words[a + 1] == '(':
            depth, a = 0, a + 1
            while a < len(words):
                depth += {'(': 1, ')': -1}.get(words[a], 0)
                a += 1
                if depth == 0:
                    break
            continue
        out.append(words[a])
        a += 1
    return out


def check(book):
    offences = set()
    used = {m.group(1) for c in book.chunks for _, t in c.body
            for m in CHUNK_REF.finditer(t)}
    roots = [r for r in book.pieces if r.startswith('code/') and r not in used]
    files = {}                               # root -> (tokens, origin)
    defs = {}                                # name -> [(pos, root or None, Chunk, line)]
    for root in roots:
        lines, origin = expand(book, root, offences)
        toks = list(tokens(lines))
        files[root] = (toks, origin)
        header = root.endswith('.h')
        # A header's names are seen by every file; a .c file's types, tags,
        # constants, macros and static objects only by that file.
        for (names, objects), static, (a, b) in declarations(toks):
            piece, no = origin[toks[a][2]]
            pos = book.position(piece.path, root)
            for name in names:
                defs.setdefault(name, []).append((pos, None if header else root, piece, no, root))
            for name in objects:
                defs.setdefault(name, []).append(
                    (pos, root if static and not header else None, piece, no, root))
        for kind, text, li in toks:
            if kind == 'pp':
                m = DEFINE.match(text)
                if m and not m.group(1).endswith('_H'):
                    piece, no = origin[li]
                    defs.setdefault(m.group(1), []).append(
                        (book.position(piece.path, root), None if header else root, piece, no,
                         root))
    for root, (toks, origin) in files.items():
        for a, (kind, text, li) in enumerate(toks):
            piece, no = origin[li]
            p = book.position(piece.path, root)
            if kind == 'pp':
                m = INCLUDE.match(text)
                if m and 'code/' + m.group(1) in book.pieces:
                    q, first = book.first('code/' + m.group(1), 'code/' + m.group(1))
                    book.note_use(p, q)
                    if q > p:
                        offences.add((piece.path, no, piece.name, p,
                                      '#include "%s"' % m.group(1), first.path, first.line, q))
                    continue
                used = re.findall(r'[A-Za-z_]\w*', re.sub(r'"[^"]*"', '', text))[2:]
            elif kind == 'ident':
                if a > 0 and toks[a - 1][1] in ('.', '->'):
                    continue
                used = [text]
            else:
                continue
            for name in used:
                seen = [d for d in defs.get(name, ()) if d[1] in (None, root)]
                if not seen:
                    continue
                q, _, dpiece, dno, _ = min(seen, key=lambda d: d[0])
                # A name this file defines itself (every program's main)
                # is no use of another chapter.
                own = [d[0] for d in seen if d[4] == root]
                book.note_use(p, min(own) if own else q)
                if q > p:
                    offences.add((piece.path, no, piece.name, p, name, dpiece.path, dno, q))
    return offences


def main(argv):
    prereq, paths, deps = [], [], None
    args = iter(argv[1:])
    for a in args:
        if a == '--prerequisite':
            prereq.append(next(args, ''))
        elif a == '--deps':
            deps = next(args, '')
            if not deps:
                sys.stderr.write('forward_use: --deps needs a file name\n')
                return 2
        elif a.startswith('-'):
            sys.stderr.write('forward_use: unknown option %s\n' % a)
            return 2
        else:
            paths.append(a)
    if not paths:
        sys.stderr.write(__doc__)
        return 2
    for p in prereq:
        if os.path.normpath(p) not in {os.path.normpath(x) for x in paths}:
            sys.stderr.write('forward_use: --prerequisite %s: not among the files\n' % p)
            return 2
    book = Book(paths, prereq)
    offences = check(book)
    # one line per (chunk piece, identifier): the first line it is used on
    first = {}
    for o in sorted(offences):
        first.setdefault((o[0], o[2], o[4]), o)
    def where(path, p):
        if book.order[path] == p:
            return book.title[path]
        return "%s, in %s's code" % (book.title[path], book.name_of(p))
    for path, no, chunk, p, what, dpath, dno, q in sorted(first.values()):
        sys.stderr.write('%s:%d: %s: <<%s>> uses %s, first defined in %s (%s:%d)\n'
                         % (path, no, where(path, p), chunk, what,
                            where(dpath, q), dpath, dno))
    if first:
        return 1
    if deps:
        try:
            write_deps(book, deps)
        except OSError as e:
            sys.stderr.write('forward_use: %s: %s\n' % (deps, e.strerror))
            return 2
    return 0


LABEL = re.compile(r'\\label\{((?:ch|app):[^}]*)\}')


def chapter_label(path):
    """The \\label{ch:...} or \\label{app:...} that follows the file's \\chapter."""
    with open(path, encoding='utf-8') as f:
        m = LABEL.search(f.read())
    if not m:
        sys.stderr.write('forward_use: %s: no \\label{ch:...} after its \\chapter\n' % path)
        sys.exit(2)
    return m.group(1)


def write_deps(book, out):
    """For the preface's roadmap: which earlier chapters' code each chapter's
    code uses, as TeX: \\attndeps{ch:mha}{\\ref{ch:attention}} for each
    chapter, in book order.  The appendices read as prerequisites are left
    out (every chapter uses them)."""
    path_at = {book.order[p]: p for p in book.paths if book.order[p] > 0}
    lines = ['% Generated by tools/forward_use.py --deps from the chapters\' code:',
             '% for each chapter, the earlier chapters whose definitions its code uses.']
    for p in sorted(path_at):
        used = sorted(q for (a, q) in book.uses if a == p)
        lines.append('\\attndeps{%s}{%s}' % (
            chapter_label(path_at[p]),
            ', '.join('\\ref{%s}' % chapter_label(path_at[q]) for q in used)))
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    sys.exit(main(sys.argv))
