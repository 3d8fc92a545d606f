"""What the grader's tests share (tests/test_grader*.py): the shared build
directory, running the grader, the hostile cases and the autograder replay.
The tests are split over three modules so that pytest-xdist, which hands out
whole modules, can run them on both cores."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

from helpers import TOP, Skip

sys.path.insert(0, os.path.join(TOP, 'tools'))
import exercise  # noqa: E402  (the loader and the marker scanner)
import grade_release  # noqa: E402,F401  (the tests' way to the releases)

GRADE = os.path.join(TOP, 'tools', 'grade.py')
HOSTILE = os.path.join(TOP, 'exercises', '_hostile')
ALTERNATIVE = os.path.join(TOP, 'exercises', '_alternative')
# what the release and Gradescope tests grade (every exercise is graded by the
# solutions and stubs tests; these test the packaging): one exercise with
# hidden checks and one numeric-answer exercise
RELEASE_SAMPLE = 'appA-transpose ch07-tie-answers'

def need_cc():
    if not shutil.which('cc') or not shutil.which('nm') or not shutil.which('readelf'):
        raise Skip('cc, nm or readelf missing (Debian packages gcc, binutils)')
    if not shutil.which('bwrap'):
        raise Skip('bwrap missing (Debian package bubblewrap)')


def exercises(everything=False):
    """The exercises; all of them, or those whose chapter code is in code/."""
    return exercise.exercises(TOP, everything=everything)


SHARED_BUILD = os.path.join(TOP, 'build', 'test-grader')
# The hostile cases grade in a build directory of their own, whose name marks
# their processes (the other grader tests may run at the same time, in the
# shared one), with the shared cache linked in.
HOSTILE_BUILD = os.path.join(TOP, 'build', 'test-grader-hostile')


def hostile_build():
    os.makedirs(os.path.join(SHARED_BUILD, 'cache'), exist_ok=True)
    os.makedirs(HOSTILE_BUILD, exist_ok=True)
    link = os.path.join(HOSTILE_BUILD, 'cache')
    # Several threads (and pytest workers) may get here at once: whoever
    # makes the link first wins, and the others find it made.
    try:
        os.symlink(os.path.join(SHARED_BUILD, 'cache'), link)
    except FileExistsError:
        if not os.path.islink(link):
            raise
    return HOSTILE_BUILD


def grade(args, root=TOP, timeout=300, build=None):
    """Run the grader (its build directory: BUILD, by default one shared by
    these tests, whose cache holds only what the grader builds from its own
    sources); return (rc, results, stdout, seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, 'results.json')
        start = time.monotonic()
        p = subprocess.run([sys.executable, os.path.join(root, 'tools', 'grade.py'),
                            '--root', root, '--build', build or SHARED_BUILD,
                            '--results', results, '--lang', 'en', '--jobs', '2'] + list(args),
                           capture_output=True, text=True, timeout=timeout)
        seconds = time.monotonic() - start
        with open(results, encoding='utf-8') as f:
            data = json.load(f)          # must be valid JSON, whatever happened
    return p.returncode, data, p.stdout + p.stderr, seconds


def by_name(data):
    return {(t['extra_data']['exercise'], t['extra_data']['check']): t for t in data['tests']}


def load_grade():
    sys.path.insert(0, os.path.join(TOP, 'tools'))
    import grade as g
    return g


def sandbox_processes(marker):
    """PIDs of live processes whose command line or working directory mentions MARKER."""
    pids = []
    for d in os.listdir('/proc'):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open('/proc/%s/cmdline' % d, 'rb') as f:
                cmd = f.read()
            cwd = os.readlink('/proc/%s/cwd' % d)
        except OSError:
            continue
        if marker.encode() in cmd or marker in cwd:
            pids.append(int(d))
    return pids


def tree_state(root):
    """(path, size, mtime) of every file under ROOT but build/: to see that
    grading changed nothing outside its own build directory."""
    out = set()
    for dp, dn, fn in os.walk(root):
        dn[:] = [d for d in dn if d not in ('build', '.git', '__pycache__')]
        for f in fn:
            p = os.path.join(dp, f)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            out.add((p, st.st_size, st.st_mtime_ns))
    return out


RESOURCE_LIMITS = {'memory-limit', 'cpu-limit', 'timeout'}


def hostile_cases():
    cases = []
    for case in sorted(os.listdir(HOSTILE)):
        with open(os.path.join(HOSTILE, case, 'expect.json')) as f:
            cases.append((case, json.load(f)))
    return cases


def check_outcome(case, expect, data, reasons, mode):
    problems = []
    only = expect.get('only')
    # a name in "only" is a check's, or EXERCISE/CHECK where names repeat
    tests = [t for t in data['tests'] if not only or t['extra_data']['check'] in only
             or '%s/%s' % (t['extra_data']['exercise'], t['extra_data']['check']) in only]
    if not tests:
        problems.append('%s (%s): no results' % (case, mode))
    for t in tests:
        reason = t['extra_data']['reason']
        if t['score'] != 0:
            problems.append('%s (%s): %s scored %s' % (case, mode, t['name'], t['score']))
        ok = reasons is None and reason is not None
        for want in reasons or ():
            kind, _, detail = want.partition(':')
            if reason == kind and (not detail or detail in t['output']):
                ok = True
            # A submission that exhausts a resource may be stopped by
            # whichever limit it reaches first on this machine (memory, CPU
            # time or wall time, as load and speed vary); any of them will
            # do, but it must never pass.
            if kind in RESOURCE_LIMITS and reason in RESOURCE_LIMITS:
                ok = True
        if not ok and not (t['output'].startswith('not built: see the first check')
                           and reasons and reason in [w.partition(':')[0] for w in reasons]):
            problems.append('%s (%s): %s failed for %r, expected %s:\n%s'
                            % (case, mode, t['name'], reason, reasons, t['output'][:300]))
        for secret in expect.get('secret', ()):
            if secret in t['output']:
                problems.append('%s (%s): %r reached the feedback' % (case, mode, secret))
    return problems


def run_hostile(case, expect, lint, scratch):
    """Grade the hostile CASE (with or without the lint); results.json goes in
    the directory SCRATCH, which the caller keeps: a case marked "background"
    is checked again after the grader has ended (see recheck_background)."""
    args = ['--ex', expect.get('ex', 'appA-transpose'), '--cpu-seconds', '1',
            '--submission', os.path.join(HOSTILE, case)]
    if not lint:
        args.append('--no-lint')
    if expect.get('ex', 'appA-transpose') == 'appA-transpose':
        args += ['--check', 'one_by_one,large_rectangle']   # one visible, one hidden
    results = os.path.join(scratch, 'results.json')
    p = subprocess.run([sys.executable, GRADE, '--build', hostile_build(), '--results', results,
                        '--lang', 'en', '--jobs', '1'] + args,
                       capture_output=True, text=True, timeout=180)
    with open(results, encoding='utf-8') as f:
        first = f.read()
    return p.returncode, json.loads(first), first


# longer than any hostile code waits before it strikes (2 s)
BACKGROUND_WAIT = 3


def recheck_background(done):
    """DONE: [(case, results.json path, its text when the grader ended)].
    After one wait, every results.json must be as the grader left it."""
    if not done:
        return []
    time.sleep(BACKGROUND_WAIT)
    changed = []
    for case, path, first in done:
        with open(path, encoding='utf-8') as f:
            if f.read() != first:
                changed.append('%s: results.json changed after the grader ended' % case)
    return changed


def setup_autograder(zip_path, tmp):
    """Unpack the Gradescope zip as Gradescope does (into autograder/source)
    and run the part of setup.sh that follows the package install,
    prepare.sh, once; return the autograder root."""
    ag = os.path.join(tmp, 'autograder')
    shutil.rmtree(ag, ignore_errors=True)
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(os.path.join(ag, 'source'))
    setup = open(os.path.join(ag, 'source', 'setup.sh'), encoding='utf-8').read()
    assert 'prepare.sh' in setup, 'setup.sh does not prepare the cache'
    p = subprocess.run(['bash', os.path.join(ag, 'source', 'prepare.sh')],
                       env=dict(os.environ, AUTOGRADER_ROOT=ag),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, 'prepare.sh failed:\n' + p.stdout[-800:] + p.stderr[-800:]
    return ag


def run_autograder(ag, submission_files, links=None):
    """One submission, as Gradescope grades it: a fresh submission/ and
    results/ beside the prepared source and cache."""
    for d in ('submission', 'results'):
        shutil.rmtree(os.path.join(ag, d), ignore_errors=True)
    os.makedirs(os.path.join(ag, 'submission'))
    for rel, src in submission_files.items():
        dst = os.path.join(ag, 'submission', rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(src, dst)
    for rel, target in (links or {}).items():
        os.symlink(target, os.path.join(ag, 'submission', rel))
    script = os.path.join(ag, 'source', 'run_autograder')
    p = subprocess.run(['bash', script], env=dict(os.environ, AUTOGRADER_ROOT=ag),
                       capture_output=True, text=True, timeout=300)
    with open(os.path.join(ag, 'results', 'results.json'), encoding='utf-8') as f:
        return p, json.load(f)


def workflow_steps(text):
    """The steps of the generated workflow (without PyYAML: it is generated
    by grade_release.classroom_workflow in a fixed layout)."""
    steps, cur = [], None
    for line in text.splitlines():
        if line.startswith('    - '):
            cur = {}
            steps.append(cur)
            line = '      ' + line[6:]
        if cur is None or not line.startswith('      '):
            continue
        k, _, v = line.strip().partition(':')
        v = v.strip()
        if v.startswith('"'):
            v = json.loads(v)
        elif v == "''":
            v = ''
        cur[k] = v
    return steps
