#!/usr/bin/python3
"""Two noweb filters: the identifier index holds the book's identifiers only.

noweb's autodefs.c takes every declaration that starts a code line as a
definition, so a chunk that is a piece of a function body and starts
`double m = x[0];` made `m` a book-wide identifier: every `m` in every
chunk became a link to it, and the identifier index and the chunks'
"Uses" footers listed it.  A chunk's lines are at file scope only when the
chunk is a file (a root) or is used at the start of a line of a chunk that
is at file scope; a chunk used indented is inside a function or a struct,
and its declarations are local.  This filter drops the `@index defn` lines
autodefs wrote in such chunks, so that finduses, after it, links no use to
them; and those of include guards (`#define X` on the line after
`#ifndef X`), which are not the book's identifiers either.

The same first filter gives a file's own identifiers the file's name:
`main`, `opts` and `program` are defined once in each of eleven programs
(and `program` in cli.c), and were one index entry listing the uses of
all.  An identifier that two or more files (roots) define, each time
static or in a program (code/ch*.c, code/app*.c), and no header declares,
becomes `opts (ch08)`, one entry per file (ch08 for code/ch08-training.c).  It also mends
autodefs.c's reading of `static size_t carve_params(...)` as a definition
of size_t.

The second filter, `nwlocals.py uses`, runs after finduses.  finduses
links a name wherever its letters stand, so `#include "attention.h"`,
a printf string and the comment "pre-softmax scores" were uses of
`attention` and `softmax`.  It reads each chunk with a small C lexer and
drops the uses inside strings, character constants and comments, and
those in the [[quoted]] code of the text that are part of a file name or
a command (`attention.h`, `build/bin/ch02-attention`), and the uses of
another file's static (Chapter 4's parameter `words` is not Chapter 6's
static array); it links each use of a file's own identifier to that
file's definition; and it makes a line break inside a [[quote]] a space
(noweb's LaTeX back end would force a line break there).

    markup ... | autodefs.c | nwlocals.py | finduses | nwlocals.py uses | noidx
"""
import re
import sys

PROGRAM = re.compile(r'code/((?:ch|app)[^/]*\.c)$')
QUALIFIED = re.compile(r'^(\w+) \((.+)\)$')
IDENT = re.compile(r'[A-Za-z_]\w*')
DEFN = re.compile(r'@index (local)?defn (.*)')
MEMBER = re.compile(r'(?:\.|->)\s*$')     # code before a name that makes it a member
# autodefs.c takes the word after `static` for the name: `static size_t
# carve_params(...)` defined size_t.  These are never the book's identifiers.
NOT_NAMES = set("""auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while _Bool
bool size_t ptrdiff_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t
uint64_t FILE __attribute__ always_inline""".split())


def declared_name(text):
    """The name a declaration line declares, or None: the identifier before
    the first '(' (a function), else before '=', '[' or ';'."""
    for m in re.finditer(r'([A-Za-z_]\w*)\s*\(', text):
        if m.group(1) not in NOT_NAMES:
            return m.group(1)
    m = re.search(r'([A-Za-z_]\w*)\s*(?:=|\[|;)', text)
    return m.group(1) if m and m.group(1) not in NOT_NAMES else None


def chunk_graph(lines):
    """(per line: its code chunk's name or None, name -> [(user, at a line's
    start)], the names defined)."""
    chunk_of = []
    uses = {}
    defined = set()
    name, at_start = None, True
    for line in lines:
        if line.startswith('@defn '):
            name = line[6:].rstrip('\n')
            defined.add(name)
            at_start = True
        elif line.startswith('@end code'):
            name = None
        elif name is not None:
            if line.startswith('@nl'):
                at_start = True
            elif line.startswith('@text '):
                if line[6:].rstrip('\n') != '':
                    at_start = False
            elif line.startswith('@use '):
                uses.setdefault(line[5:].rstrip('\n'), []).append((name, at_start))
                at_start = False
        chunk_of.append(name)
    return chunk_of, uses, defined


def roots_of(uses, defined):
    """name -> the set of roots (files) it ends up in."""
    memo = {}

    def up(n, seen):
        if n in memo:
            return memo[n]
        users = [u for u, _ in uses.get(n, ()) if u in defined and u not in seen]
        r = frozenset({n}) if n not in uses else \
            frozenset().union(*[up(u, seen | {n}) for u in users]) if users else frozenset()
        memo[n] = r
        return r
    return {n: up(n, frozenset()) for n in defined}


def file_tag(root):
    """How the index names a file: ch08 for code/ch08-training.c, cli.c."""
    m = PROGRAM.search(root)
    return m.group(1).split('-')[0] if m else root.rsplit('/', 1)[-1]


def filter_stream(lines):
    """The pipeline's lines without the local definitions' @index defn, and
    with a program's own identifiers qualified by the program's name."""
    chunk_of, uses, defined = chunk_graph(lines)
    # file scope: a root, or used at a line's start by a chunk at file scope
    file_scope = {n for n in defined if n not in uses}
    changed = True
    while changed:
        changed = False
        for n in defined - file_scope:
            if any(start and user in file_scope for user, start in uses.get(n, ())):
                file_scope.add(n)
                changed = True
    kept, prev, cur = [], '', ''        # the code lines before and at this point
    for line, n in zip(lines, chunk_of):
        if line.startswith('@nl'):
            prev, cur = cur, ''
        elif line.startswith('@text '):
            cur += line[6:].rstrip('\n')
        elif DEFN.match(line) and n is not None:
            local, ident = DEFN.match(line).groups()
            if n not in file_scope:
                continue
            if cur.split() == ['#define', ident] and prev.split() == ['#ifndef', ident]:
                continue
            if ident in NOT_NAMES:
                ident = declared_name(cur)
                if ident is None:
                    continue
                line = '@index %sdefn %s\n' % (local or '', ident)
        kept.append((line, n))
    # a file's own identifier: defined under two or more roots, each time
    # static (localdefn) or in a program, and never in a header
    roots = roots_of(uses, defined)
    where = {}                          # identifier -> [(local?, its roots)]
    for line, n in kept:
        m = DEFN.match(line)
        if m and n is not None:
            where.setdefault(m.group(2), []).append((bool(m.group(1)), roots[n]))
    own = set()
    for ident, defs in where.items():
        files = [r for _, rr in defs for r in rr]
        if all(len(rr) == 1 for _, rr in defs) and len(set(files)) > 1 and \
                not any(f.endswith('.h') for f in files) and \
                all(local or PROGRAM.search(f) for (local, _), f in zip(defs, files)):
            own.add(ident)
    out = []
    for line, n in kept:
        m = DEFN.match(line)
        if m and m.group(2) in own:
            (root,) = roots[n]
            line = '@index %sdefn %s (%s)\n' % (m.group(1) or '', m.group(2), file_tag(root))
        out.append(line)
    return out


# ---- after finduses: uses in code only ----------------------------------

# What the scanner looks for in code: a comment, a quote, an identifier.
CODE_TOKEN = re.compile(r'//|/\*|"|\'|' + IDENT.pattern)
# The rest of a string or character literal, up to its closing quote.
LITERAL_END = {'str': re.compile(r'(?:[^"\\]|\\.)*"', re.S),
               'chr': re.compile(r"(?:[^'\\]|\\.)*'", re.S)}
LITERAL_STATE = {'"': 'str', "'": 'chr'}


def c_scan(text, state):
    """Scan C text from a lexer state ('code', 'str', 'chr', 'line', 'block');
    return the end state and the spans of identifiers in code."""
    spans, i, n = [], 0, len(text)
    while i < n:
        if state == 'code':
            m = CODE_TOKEN.search(text, i)
            if not m:
                break
            j, tok = m.start(), m.group()
            if tok == '//':
                state = 'line'
                break
            if tok == '/*':
                state, i = 'block', j + 2
            elif tok in LITERAL_STATE:
                state, i = LITERAL_STATE[tok], j + 1
            elif j == 0 or not (text[j - 1].isalnum() or text[j - 1] == '_'):
                spans.append(m.span())
                i = m.end()
            else:                       # inside a number or a longer word
                i = j + 1
        elif state in ('str', 'chr'):
            m = LITERAL_END[state].match(text, i)
            if not m:
                break                   # the literal goes on past this text
            state, i = 'code', m.end()
        elif state == 'block':
            j = text.find('*/', i)
            state, i = ('code', j + 2) if j >= 0 else ('block', n)
        else:                           # a line comment runs to the line's end
            break
    return state, spans


def in_a_name(before, after):
    """True if quoted text around an identifier makes it part of a file name
    or a command line: attention.h, ch02-attention, tools/nwlang.py."""
    return (before[-1:] in ('/', '-') and before[-2:] != '->') or \
        re.match(r'\.(?:h|c|nw|py|mk|pdf|tex|dat)\b|[-/]', after) is not None


def filter_uses(lines):
    """finduses's output without the uses that are not code, and with the uses
    of a file's own identifiers linked to that file's definition."""
    chunk_of, uses, defined = chunk_graph(lines)
    roots = roots_of(uses, defined)
    own = {}                            # (identifier, root file) -> qualified name
    for line in lines:
        m = DEFN.match(line)
        m = m and QUALIFIED.match(m.group(2).strip())
        if m:
            own[m.group(1), m.group(2)] = m.group(0)
    static, extern = {}, set()         # identifier -> roots of its static definitions
    for line, n in zip(lines, chunk_of):
        m = DEFN.match(line)
        if m and m.group(1):
            static.setdefault(m.group(2).strip(), set()).update(roots.get(n, ()))
        elif m:
            extern.add(m.group(2).strip())
    out, state, quote, code_line = [], 'code', None, ''
    for i, line in enumerate(lines):
        n = chunk_of[i]
        if line.startswith('@begin code') or line.startswith('@end code'):
            state, code_line = 'code', ''
        elif line.startswith('@quote'):
            quote = ''
        elif line.startswith('@endquote'):
            quote = None
        elif line.startswith('@nl'):
            if quote is not None and n is None:
                # a [[quote]] across a line break of the source: a space,
                # as in the HTML; totex would force a line break there
                out.append('@text  \n')
                continue
            code_line = ''
            if state in ('line', 'str', 'chr'):
                state = 'code'
        elif line.startswith('@index use '):
            if n is not None and state != 'code':
                continue                # in a string or a comment
            if n is not None and MEMBER.search(code_line):
                continue                # a member: r.cpu_seconds, m->embedding
            ident = line[11:].strip()
            if n is not None and ident in static and ident not in extern and \
                    not any(r.endswith('.h') for r in static[ident]) and \
                    not static[ident] & roots.get(n, set()):
                continue                # another file's static: not visible here
            if n is None and quote is not None:
                after = lines[i + 2] if i + 2 < len(lines) else ''
                after = after[6:].rstrip('\n') if after.startswith('@text ') else ''
                if in_a_name(quote, after):
                    continue
        elif line.startswith('@text '):
            text = line[6:].rstrip('\n')
            if quote is not None and n is None:
                quote += text
            elif n is not None:
                before = code_line
                code_line += text
                r = roots.get(n, frozenset())
                state, spans = c_scan(text, state)
                base = file_tag(next(iter(r))) if len(r) == 1 else None
                links = [(a, b) for a, b in spans if (text[a:b], base) in own and
                         not MEMBER.search(before + text[:a])]
                if links and not (i > 0 and lines[i - 1].startswith('@index use ')):
                    pos = 0
                    for a, b in links:
                        if a > pos:
                            out.append('@text %s\n' % text[pos:a])
                        out.append('@index use %s\n' % own[text[a:b], base])
                        out.append('@text %s\n' % text[a:b])
                        pos = b
                    if pos < len(text):
                        out.append('@text %s\n' % text[pos:])
                    continue
        out.append(line)
    return out


def main():
    lines = sys.stdin.readlines()
    run = filter_uses if sys.argv[1:] == ['uses'] else filter_stream
    sys.stdout.write(''.join(run(lines)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
