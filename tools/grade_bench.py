#!/usr/bin/python3
"""make bench-grade: how long grading takes, each figure against its budget
(issue 11: every exercise within 30 s on this 2-core machine, one within
5 s).  Cold = a fresh build directory (the harness, the library, the checks
and the reference values built first); warm = the grader's own cache kept.
Prints; never fails on a time (machines are shared and differ)."""
import os
import subprocess
import sys
import tempfile
import time

TOOLS = os.path.dirname(os.path.abspath(__file__))
GRADE = os.path.join(TOOLS, 'grade.py')


def timed(args, build):
    start = time.monotonic()
    p = subprocess.run([sys.executable, GRADE, '--quiet', '--lang', 'en', '--build', build,
                        '--results', os.path.join(build, 'results.json')] + args,
                       capture_output=True, text=True)
    return time.monotonic() - start, p.returncode, (p.stdout.strip().splitlines() or [''])[-1]


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        one = 'appA-transpose'
        rows.append(('one exercise (%s), cold' % one, 5.0) + timed(['--ex', one], os.path.join(tmp, 'a')))
        rows.append(('one exercise (%s), warm' % one, 5.0) + timed(['--ex', one], os.path.join(tmp, 'a')))
        rows.append(('every exercise, cold', 30.0) + timed([], os.path.join(tmp, 'b')))
        rows.append(('every exercise, warm', 30.0) + timed([], os.path.join(tmp, 'b')))
    for name, budget, seconds, rc, last in rows:
        print('  %-36s %6.1f s  budget %4.0f s  %s   [%s]'
              % (name, seconds, budget, 'ok' if seconds <= budget else 'OVER', last))
    try:
        print('  (load average %s on %d CPUs)' % (os.getloadavg()[0], os.cpu_count()))
    except OSError:
        pass
    return 0


if __name__ == '__main__':
    sys.exit(main())
