"""No code is used before it is defined (tools/forward_use.py).

The book passes the check, and the check can fail: tiny synthetic chapters
with a forward use of a function, a type, a chunk and a header are each
reported, naming the file and line, the chunk, its chapter and the
identifier; what the rule allows (a prerequisite appendix, a later
chapter extending an earlier chunk, a static of another program, a name in
a comment or a string) is not."""
import glob
import os
import subprocess
import tempfile

from helpers import TOP

PYTHON = '/usr/bin/python3'
TOOL = os.path.join(TOP, 'tools', 'forward_use.py')
PREREQ = ['chapters/90-appendix-core.nw', 'chapters/93-appendix-cli.nw']


def check(files, prereq=()):
    args = [PYTHON, TOOL]
    for p in prereq:
        args += ['--prerequisite', p]
    p = subprocess.run(args + list(files), capture_output=True, text=True,
                       cwd=TOP, timeout=60)
    return p.returncode, p.stdout, p.stderr


def write_book(d, chapters):
    """chapters: {file name: text}; returns the paths in book order."""
    paths = []
    for name in sorted(chapters):
        path = os.path.join(d, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(chapters[name])
        paths.append(path)
    return paths


def test_the_book_uses_nothing_before_it_is_defined():
    chapters = sorted(glob.glob(os.path.join(TOP, 'chapters', '*.nw')))
    rc, out, err = check([os.path.relpath(c, TOP) for c in chapters], PREREQ)
    assert rc == 0 and err == '' and out == '', \
        'forward uses in the book (exit %d):\n%s' % (rc, err)


EARLY = r'''\chapter{Early}
<<code/early.h>>=
void early(double *x);
@
<<code/early.c>>=
#include "early.h"
#include "late.h"
<<the early kernel>>
@
<<the early kernel>>=
/* calls late() -- a comment is not a use */
void early(double *x)
{
    const char *s = "late(x)";              /* nor is a string */
    Late l = { 0 };
    late(x, &l);
    <<a chunk the next chapter defines>>
    (void)s;
}
@
'''

LATE = r'''\chapter{Late}
<<code/late.h>>=
typedef struct { int n; } Late;
void late(double *x, Late *l);
@
<<code/late.c>>=
#include "late.h"
#include "early.h"
void late(double *x, Late *l)
{
    early(x);
    <<a chunk the next chapter defines>>
}
@
<<a chunk the next chapter defines>>=
x[0] += l->n;
@
'''


def test_a_forward_use_is_reported_by_name():
    with tempfile.TemporaryDirectory(prefix='attn-fwd-') as d:
        paths = write_book(d, {'01-early.nw': EARLY, '02-late.nw': LATE})
        rc, out, err = check(paths)
    assert rc == 1, 'exit %d, expected 1; stderr %r' % (rc, err)
    assert out == '', 'nothing on stdout, got %r' % out
    lines = err.splitlines()
    for what in ('uses late,', 'uses Late,', 'uses #include "late.h"',
                 'uses chunk <<a chunk the next chapter defines>>'):
        hits = [l for l in lines if what in l]
        assert len(hits) == 1, 'expected one line with %r in:\n%s' % (what, err)
        assert 'Chapter 1' in hits[0] and 'first defined in Chapter 2' in hits[0], hits[0]
        assert os.path.basename(paths[0]) in hits[0], hits[0]
    late = [l for l in lines if 'uses late,' in l][0]
    assert '01-early.nw:16: Chapter 1: <<the early kernel>>' in late, late
    assert len(lines) == 4, 'comments, strings and backward uses are no uses:\n' + err


def test_what_the_rule_allows_passes():
    """A prerequisite appendix may be used anywhere; a later chapter may add
    to an earlier chapter's chunk; a static of one program is not another
    program's name."""
    appendix = r'''\chapter{Core}
<<code/core.h>>=
void core(void);
@
<<code/core.c>>=
#include "core.h"
void core(void) {}
@
<<code/app-tool.c>>=
#include "core.h"
static void helper(void) { core(); }
int main(void) { helper(); return 0; }
@
'''
    one = r'''\chapter{One}
<<code/one.c>>=
#include "core.h"
<<what one does>>
@
<<what one does>>=
static int helper(void) { core(); return 1; }
@
'''
    two = r'''\chapter{Two}
<<code/two.h>>=
void two(void);
@
<<what one does>>=
static void helper2(void) { two(); }
@
'''
    with tempfile.TemporaryDirectory(prefix='attn-fwd-') as d:
        paths = write_book(d, {'01-one.nw': one, '02-two.nw': two,
                               '90-appendix-core.nw': appendix})
        rc, out, err = check(paths, [paths[2]])
        assert rc == 0 and err == '', 'exit %d:\n%s' % (rc, err)
        # Without the prerequisite rule the appendix comes last, and
        # Chapter 1's use of core() is a forward use.
        rc, out, err = check(paths)
        assert rc == 1 and 'uses core,' in err and 'first defined in Appendix A' in err, err


def test_bad_arguments_exit_2():
    rc, out, err = check(['chapters/no-such-chapter.nw'])
    assert rc == 2 and out == '' and 'no-such-chapter.nw' in err, (rc, err)
    rc, out, err = check(['chapters/01-why-attention.nw'], ['chapters/02-attention.nw'])
    assert rc == 2 and '--prerequisite' in err, (rc, err)


def test_deps_lists_the_earlier_chapters_each_chapter_uses():
    """--deps (the preface's roadmap): chapter 2 calls chapter 1's function
    and the prerequisite's, chapter 3 extends chapter 2's chunk and includes
    chapter 1's header; worked out by hand from the three files below."""
    core = '\\chapter{Core}\n\\label{app:core}\n<<code/core.h>>=\nvoid core(void);\n@\n'
    one = ('\\chapter{One}\n\\label{ch:one}\n<<code/one.h>>=\nvoid one(void);\n@\n'
           '<<code/one.c>>=\n#include "one.h"\nvoid one(void) {}\n@\n')
    two = ('\\chapter{Two}\n\\label{ch:two}\n<<code/two.c>>=\n#include "core.h"\n'
           '#include "one.h"\n<<two body>>\n@\n<<two body>>=\nint main(void) { core(); one(); return 0; }\n@\n')
    three = ('\\chapter{Three}\n\\label{ch:three}\n<<code/three.c>>=\n#include "one.h"\n'
             'int three(void) { return 0; }\n@\n<<two body>>=\n/* one() in a comment */\n@\n')
    with tempfile.TemporaryDirectory(prefix='attn-deps-') as d:
        paths = write_book(d, {'01-one.nw': one, '02-two.nw': two, '03-three.nw': three,
                               '90-core.nw': core})
        out = os.path.join(d, 'deps.tex')
        rc, _, err = check(['--deps', out] + paths, [paths[3]])
        assert rc == 0, err
        lines = [l for l in open(out, encoding='utf-8').read().splitlines()
                 if not l.startswith('%')]
    assert lines == ['\\attndeps{ch:one}{}', '\\attndeps{ch:two}{\\ref{ch:one}}',
                     '\\attndeps{ch:three}{\\ref{ch:one}, \\ref{ch:two}}'], lines
