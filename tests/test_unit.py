"""The Criterion unit tests (tests/unit/*.c, built by make into build/tests/),
one pytest test per Criterion test: `pytest -k matmul_by_hand` runs one.

Each binary's tests are listed with its --list at collection time; the first
test of a binary to run runs the whole binary once (--json report, both
cores) and every test of that binary reads its own result from the report.
"""
import functools
import glob
import json
import os
import re
import subprocess
import tempfile

import pytest

from helpers import TOP

SOURCES = sorted(glob.glob(os.path.join(TOP, 'tests', 'unit', '*.c')))
BUILT = os.path.join(TOP, 'build', 'tests')


def binary(name):
    return os.path.join(BUILT, name)


def listing(name):
    """[(suite, test)] from `BINARY --list`: 'suite: N tests' then tree lines."""
    path = binary(name)
    if not os.access(path, os.X_OK):
        return []
    out = subprocess.run([path, '--list'], capture_output=True, text=True,
                         timeout=60).stdout
    tests, suite = [], None
    for line in out.split('\n'):
        m = re.match(r'^(\S+): \d+ tests?$', line)
        if m:
            suite = m.group(1)
            continue
        m = re.match(r'^\W+\s(\S+)$', line)       # '├── name' or '└── name'
        if m and suite:
            tests.append((suite, m.group(1)))
    return tests


NAMES = [os.path.splitext(os.path.basename(s))[0] for s in SOURCES]
CASES = [(n, s, t) for n in NAMES for s, t in listing(n)]


@functools.lru_cache(maxsize=None)
def report(name):
    """Run build/tests/NAME once; {(suite, test): (status, messages)} and
    the binary's own output (for a crash that leaves no report)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'report.json')
        p = subprocess.run([binary(name), '--jobs=2', '--json=' + path, '--ascii',
                            '--short-filename'],
                           capture_output=True, text=True, timeout=300, cwd=tmp)
        out = (p.stdout + p.stderr)[-3000:]
        if not os.path.exists(path):
            return None, 'no Criterion report (exit %d):\n%s' % (p.returncode, out)
        with open(path, encoding='utf-8') as f:
            data = json.load(f)
    results = {}
    for suite in data.get('test_suites', []):
        for t in suite.get('tests', []):
            results[(suite['name'], t['name'])] = (t.get('status'), t.get('messages', []))
    return results, out


@pytest.mark.parametrize('name,suite,test', CASES,
                         ids=['%s::%s::%s' % c for c in CASES])
def test_criterion(name, suite, test):
    results, out = report(name)
    assert results is not None, out
    assert (suite, test) in results, '%s: %s::%s is not in the report:\n%s' % (
        name, suite, test, out)
    status, messages = results[(suite, test)]
    assert status == 'PASSED', '%s: %s::%s %s\n%s' % (
        name, suite, test, status, '\n'.join(map(str, messages)) or out)


def test_every_unit_suite_is_built_and_lists_its_tests():
    """A source in tests/unit/ whose binary is missing (or lists no test)
    would otherwise just contribute no tests."""
    assert SOURCES, 'no Criterion sources in tests/unit/'
    for name in NAMES:
        assert os.access(binary(name), os.X_OK), '%s is missing: run make test' % binary(name)
        assert listing(name), '%s --list shows no tests' % binary(name)
