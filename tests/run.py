#!/usr/bin/python3
"""Run every test of the book and print one closing line:

    tests: N passed, N failed, N skipped

  - the Criterion unit tests built from tests/unit/*.c into build/tests/;
  - the Python tests tests/test_*.py (numbers checked against NumPy or PyTorch,
    the programs' command lines and bad input, the PDFs, the toolchain's own
    checks).

Exit status 0 only when nothing failed.  `tests/run.py NAME` runs only the
suites whose file name contains NAME.
"""
import glob
import importlib.util
import os
import re
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from helpers import Skip  # noqa: E402

passed = failed = skipped = 0


def report(status, name, detail=''):
    global passed, failed, skipped
    if status == 'pass':
        passed += 1
    elif status == 'skip':
        skipped += 1
        print('  SKIP  %s: %s' % (name, detail))
    else:
        failed += 1
        print('  FAIL  %s' % name)
        for line in detail.rstrip().split('\n'):
            print('        ' + line)


def run_criterion(binary):
    name = os.path.basename(binary)
    try:
        p = subprocess.run([binary, '--jobs=2'], capture_output=True, text=True,
                           timeout=300)
    except subprocess.TimeoutExpired:
        report('fail', name, 'timed out after 300 s')
        return
    out = p.stdout + p.stderr
    m = re.search(r'Synthesis: Tested: (\d+) \| Passing: (\d+) \| Failing: (\d+) '
                  r'\| Crashing: (\d+)', out)
    if not m:
        report('fail', name, 'no Criterion summary; output:\n' + out[-2000:])
        return
    tested, passing, failing, crashing = map(int, m.groups())
    for _ in range(passing):
        report('pass', name)
    if failing or crashing or p.returncode != 0:
        details = [l for l in out.split('\n') if '[FAIL]' in l or 'CRASH' in l
                   or 'failed' in l.lower()]
        for i in range(max(failing + crashing, 1)):
            report('fail', '%s (%d of %d failed)' % (name, failing + crashing, tested),
                   '\n'.join(details[:20]) if i == 0 else '')


def run_module(path):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:
        report('fail', name, 'could not load:\n' + traceback.format_exc(limit=3))
        return
    tests = [(k, v) for k, v in vars(module).items()
             if k.startswith('test_') and callable(v)]
    for tname, fn in tests:
        full = '%s.%s' % (name, tname)
        try:
            fn()
        except Skip as s:
            report('skip', full, str(s))
        except Exception as e:
            msg = str(e) if isinstance(e, AssertionError) and str(e) else \
                traceback.format_exc(limit=4)
            report('fail', full, msg)
        else:
            report('pass', full)


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else ''
    start = time.time()
    for binary in sorted(glob.glob(os.path.join(TOP, 'build', 'tests', '*'))):
        if only in os.path.basename(binary) and os.access(binary, os.X_OK):
            before = passed + failed
            run_criterion(binary)
            print('  %-40s %d checks' % ('unit/' + os.path.basename(binary), passed + failed - before))
    for path in sorted(glob.glob(os.path.join(HERE, 'test_*.py'))):
        if only in os.path.basename(path):
            before = passed + failed + skipped
            run_module(path)
            print('  %-40s %d tests' % (os.path.basename(path), passed + failed + skipped - before))
    print('(%.1f s)' % (time.time() - start))
    print('tests: %d passed, %d failed, %d skipped' % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
