#!/usr/bin/python3
"""A noweb filter: no local variable or include guard in the identifier index.

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

    noweave -n -autodefs c -filter tools/nwlocals.py -index ...
    markup ... | autodefs.c | tools/nwlocals.py | finduses | noidx
"""
import sys


def filter_stream(lines):
    """The pipeline's lines without the local definitions' @index defn."""
    chunk_of = []               # per line: the name of the code chunk it is in, or None
    uses = {}                   # chunk name -> [(user chunk, at line start)]
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
    # file scope: a root, or used at a line's start by a chunk at file scope
    file_scope = {n for n in defined if n not in uses}
    changed = True
    while changed:
        changed = False
        for n in defined - file_scope:
            if any(start and user in file_scope for user, start in uses.get(n, ())):
                file_scope.add(n)
                changed = True
    out, prev, cur = [], '', ''         # the code lines before and at this point
    for line, n in zip(lines, chunk_of):
        if line.startswith('@nl'):
            prev, cur = cur, ''
        elif line.startswith('@text '):
            cur += line[6:].rstrip('\n')
        elif line.startswith('@index defn ') and n is not None:
            ident = line[12:].strip()
            if n not in file_scope:
                continue
            if cur.split() == ['#define', ident] and prev.split() == ['#ifndef', ident]:
                continue
        out.append(line)
    return out


def main():
    lines = sys.stdin.readlines()
    sys.stdout.writelines(filter_stream(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
