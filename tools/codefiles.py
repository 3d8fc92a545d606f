#!/usr/bin/python3
"""Which files in code/ are programs: the rule, stated once.

code/chNN-TOPIC.c (Chapter NN) and code/appX-TOPIC.c (Appendix X) each hold
one program's main(); every other .c file in code/ goes into the library
(build/libattn.a), which the programs, the unit tests and the exercises'
grader link.  The build (build/tangle.mk), the student release's Makefile,
tools/grade.py and tools/grade_release.py all ask here.

  codefiles.py make < FILES   print the make variables CODE, PROG_SRCS and
                              LIB_SRCS for the code/ files named one a line
  codefiles.py programs FILE...   print the programs among FILES, on one line
"""
import os
import re
import sys

PROGRAM = re.compile(r'(ch[0-9][0-9]|app[A-Z])-[^/]*\.c\Z')


def is_program(name):
    """True for a chapter's or an appendix's program, code/chNN-*.c or code/appX-*.c."""
    return PROGRAM.match(os.path.basename(name)) is not None


def library_sources(names):
    """The .c files among NAMES that go into the library."""
    return [n for n in names if n.endswith('.c') and not is_program(n)]


def main(argv):
    if argv[1:2] == ['programs']:
        print(' '.join(n for n in argv[2:] if is_program(n)))
        return 0
    if argv[1:] != ['make']:
        print(__doc__, file=sys.stderr)
        return 2
    names = sorted(line.strip() for line in sys.stdin if line.strip())
    print('CODE := ' + ' '.join(names))
    print('PROG_SRCS := ' + ' '.join(n for n in names if is_program(n)))
    print('LIB_SRCS := ' + ' '.join(library_sources(names)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
