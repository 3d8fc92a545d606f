#!/usr/bin/python3
"""make bench-demos, bench-html, bench-test: how long things take, against the budgets
in the README (make bench-grade is tools/grade_bench.py).  No test asserts a
time (machines are shared and differ); these targets measure, print one
line per figure,

    what                                          measured    budget  OK|OVER

and exit 1 if any figure is over its budget.  Run them on a quiet machine.

    tools/bench.py demos [--repeat N]   each chapter program's demo (no
                                        arguments), the median wall time of
                                        N runs (default 5): < 1 s
    tools/bench.py html                 make -j2 html slides from a built
                                        tree (HTML, SVGs and slides removed
                                        first): <= 30 s
    tools/bench.py test                 make test from a built tree (what
                                        the tests need built first, by a
                                        make test that only collects them):
                                        <= 90 s
    tools/bench.py line WHAT SECONDS BUDGET [less]
                                        print one line in this format (for
                                        a shell script's own bench target);
                                        exits 1 if over
    tools/bench.py host                 the host's speed now: the CPU time
                                        of a fixed loop (html prints it
                                        before and after)

A bench target of another part of the book prints its lines with
`tools/bench.py line` (or the same format) and joins `make bench` with
BENCH_TARGETS += bench-NAME in the Makefile.
"""
import glob
import math
import os
import resource
import statistics
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
over = 0


def line(what, seconds, budget, strict=False):
    """One figure against its budget; strict: must be below (<), else <=."""
    global over
    bad = seconds >= budget if strict else seconds > budget
    over |= bad
    print('  %-46s %8.2f s  %-2s %5g s  %s' % (what, seconds, '<' if strict else '<=',
                                            budget, 'OVER' if bad else 'OK'), flush=True)


def fail(what, detail):
    global over
    over = 1
    print('  %-46s   failed: %s' % (what, detail.strip().split('\n')[-1][:200]), flush=True)


def host():
    """One line: the CPU time of a fixed loop of Python.  On a shared
    machine the same work can take twice as long from one minute to the
    next (an Intel Xeon here: 0.29 s to 0.68 s); a figure against its
    budget means little without this one beside it."""
    start = time.process_time()
    sum(range(3 * 10 ** 7))
    print('  %-46s %8.2f s  (CPU time; lower is faster)'
          % ('host speed: a fixed loop', time.process_time() - start), flush=True)


def wall(cmd, **kw):
    start = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **kw)
    return time.monotonic() - start, p


def demos(repeat=5):
    print('bench-demos: each demo, median wall time of %d runs (%d cores):'
          % (repeat, os.cpu_count()))
    programs = sorted(glob.glob(os.path.join(TOP, 'build', 'bin', '*')))
    if not programs:
        fail('demos', 'no programs in build/bin: run make')
    for prog in programs:
        times, cpus = [], []
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t, p = wall([prog], cwd=TOP)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if p.returncode != 0:
                fail('demo: ' + os.path.basename(prog), 'exit %d: %s' % (p.returncode, p.stderr))
                break
            times.append(t)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        else:   # the CPU time, for context: on a busy machine wall time is mostly waiting
            line('demo: %s (cpu %.2f s)' % (os.path.basename(prog), statistics.median(cpus)),
                 statistics.median(times), 1.0, strict=True)
    cost_slopes()


def cost_slopes():
    """Chapter 2's text says the measured times of both scores grow as s^2
    (slope 2 on log scales) and that the additive ones are slower."""
    global over
    prog = os.path.join(TOP, 'build', 'bin', 'ch02-attention')
    if not os.path.exists(prog):
        return
    p = subprocess.run([prog, '--figure', 'cost'], capture_output=True, text=True)
    rows = [[float(t) for t in l.split()] for l in p.stdout.split('\n') if l and l[0] != '#']
    if p.returncode != 0 or len(rows) < 5:
        fail('ch02-attention --figure cost', p.stderr or 'no rows')
        return
    for col, name in ((1, 'dot-product'), (2, 'additive')):
        slope = math.log(rows[4][col] / rows[2][col]) / math.log(4)
        bad = not 1.6 < slope < 2.4
        over |= bad
        print('  %-46s %8.2f    in 1.6..2.4  %s' % ('ch02 cost figure: slope, %s scores' % name,
                                                    slope, 'OVER' if bad else 'OK'))
    ratio = rows[-1][2] / rows[-1][1]
    over |= ratio <= 1
    print('  %-46s %8.2f    > 1          %s' % ('ch02 cost figure: additive/dot at s = 256',
                                               ratio, 'OK' if ratio > 1 else 'OVER'))


def html():
    print('bench-html: make -j2 html slides, from a built tree:')
    p = subprocess.run(['make', '-s', '-j2', 'all'], cwd=TOP, capture_output=True, text=True)
    if p.returncode != 0:
        fail('make all (before)', p.stdout + p.stderr)
        return
    for d in ('html', 'html-svg', 'slides'):
        shutil.rmtree(os.path.join(TOP, 'build', d), ignore_errors=True)
    timed('make -j2 html slides', ['make', '-s', '-j2', 'html', 'slides'], 30)


def timed(what, cmd, budget):
    """CMD's wall time against BUDGET, between two readings of the host's
    speed, with its CPU time: on a busy machine the wall time says little,
    and the CPU time says what two idle cores would need at best (half)."""
    host()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t, p = wall(cmd, cwd=TOP)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        fail(what, p.stderr or 'exit status %d' % p.returncode)   # wall() drops stdout
    else:
        line(what, t, budget)
        print('  %-46s %8.2f s  (CPU time, user + system; load %.1f)'
              % (what, cpu, os.getloadavg()[0]), flush=True)
    host()


def test():
    """make test with everything it needs already built: a first make test
    whose pytest only collects the tests builds it (and fills the grader's
    cache), then make test is timed."""
    print('bench-test: make test, from a built tree:')
    p = subprocess.run(['make', '-s', 'test', 'PYTEST_ARGS=--collect-only -q'], cwd=TOP,
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail('make test (collecting only, before)', p.stdout + p.stderr)
        return
    timed('make test', ['make', '-s', 'test'], 90)


def main(argv):
    what = argv[1] if len(argv) > 1 else ''
    if what == 'demos':
        demos(int(argv[3]) if len(argv) > 3 and argv[2] == '--repeat' else 5)
    elif what == 'html':
        html()
    elif what == 'test':
        test()
    elif what == 'host':
        host()
    elif what == 'line' and len(argv) in (5, 6):
        line(argv[2], float(argv[3]), float(argv[4]), strict=argv[5:] == ['less'])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 1 if over else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
