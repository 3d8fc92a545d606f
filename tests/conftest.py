"""pytest's view of the book's tests (`make test` runs `python3 -m pytest -n 2`).

  - tests/test_*.py: plain functions named test_*; a test fails by raising
    (usually AssertionError with a message saying what was expected and what
    came) and skips by raising helpers.Skip(reason), which is pytest's own
    skip exception, so pytest -rs lists every skip with its reason;
  - tests/test_unit.py runs the Criterion suites built from tests/unit/*.c,
    one pytest test per Criterion test;
  - each module stands alone (no test depends on another having run), so
    pytest-xdist can spread them over both cores (--dist loadfile keeps a
    module on one worker: a module's own caches are shared by its tests).

Time budgets are not tested here (machines are shared and differ): they are
measured by `make bench`.
"""
import os
import sys

# The programs speak the language of LC_ALL, LC_MESSAGES or LANG (Appendix D).
# The tests read their English output unless a test sets these variables
# itself (tests/test_cli.py does), so the tester's own locale changes nothing.
os.environ['LC_ALL'] = 'C.UTF-8'

# Every `python3` a test starts through a shell or a Makefile (the student
# release's `make list`, the Classroom workflow's steps, Gradescope's
# run_autograder) is the interpreter running the tests, not whatever comes
# first on PATH: a version manager's shim there (pyenv's takes 0.7 s to start)
# would multiply the suite's time and test a different Python.
_BIN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    'build', 'pytest-bin')
os.makedirs(_BIN, exist_ok=True)
for _name in ('python3', 'python'):
    _link = os.path.join(_BIN, _name)
    if not (os.path.islink(_link) and os.readlink(_link) == sys.executable):
        try:
            os.unlink(_link)
        except FileNotFoundError:
            pass
        try:
            os.symlink(sys.executable, _link)
        except FileExistsError:     # another xdist worker made it meanwhile
            pass
os.environ['PATH'] = _BIN + os.pathsep + os.environ.get('PATH', '')

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:            # `from helpers import ...` in every module
    sys.path.insert(0, HERE)

# The modules that take longest go first, so that pytest-xdist (which hands
# out whole modules, in collection order) does not start one of them last,
# on one core, while the other core idles.  Order within a module is kept.
# Only the schedule changes: every module still runs on its own.
SLOW_FIRST = ['test_grader_hostile.py', 'test_grader.py', 'test_grader_stubs.py', 'test_grader_release.py', 'test_toolchain.py', 'test_html.py', 'test_course.py', 'test_mutants.py', 'test_ch07.py',
              'test_pdf.py']


def pytest_collection_modifyitems(session, config, items):
    def rank(item):
        name = os.path.basename(str(item.fspath))
        return SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST)
    items.sort(key=rank)            # stable: each module keeps its own order
