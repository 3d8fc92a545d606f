"""The checks of the checker: tools/grade.py and tools/grade_release.py.

  - every exercise's reference solution gets full marks on every check,
    visible and hidden (how long grading takes: `make bench-grade`);
  - the generated stubs get zero on every check, in the student release,
    which builds and grades on its own from its tarball;
  - no solution and no hidden check reaches the student release;
  - the deliberately bad submissions in exercises/_hostile/ fail with the
    expected kind of reason, and results.json stays valid JSON;
  - the Gradescope autograder grades only the submitted C files, with the
    hidden checks, and the Classroom configuration names real checks.
"""
import atexit
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

from helpers import TOP, Skip

sys.path.insert(0, os.path.join(TOP, 'tools'))
import grade_release  # noqa: E402

GRADE = os.path.join(TOP, 'tools', 'grade.py')
HOSTILE = os.path.join(TOP, 'exercises', '_hostile')
# A submission that exhausts a resource may be stopped by whichever limit
# it reaches first on a given machine (memory, CPU time or wall time, as load
# and speed vary); any of them will do, but it must never pass.
RESOURCE_LIMITS = {'memory-limit', 'cpu-limit', 'timeout'}


def need_cc():
    if not shutil.which('cc') or not shutil.which('nm') or not shutil.which('readelf'):
        raise Skip('cc, nm or readelf missing (Debian packages gcc, binutils)')


def exercises(everything=False):
    """The exercises; all of them, or those whose chapter code is in code/."""
    return grade_release.exercises(TOP, everything=everything)


_BUILD = []


def shared_build():
    """One grader build directory for this module's runs (in this process):
    the grader caches what it compiles by the hash of the sources, so the
    first run builds the book's library with the sanitizers (cold) and the
    others reuse it.  Cold builds of every exercise are timed by make
    bench-grade."""
    if not _BUILD:
        d = tempfile.TemporaryDirectory(prefix='attn-grade-')
        atexit.register(d.cleanup)
        _BUILD.append(d)
    return os.path.join(_BUILD[0].name, 'build')


def grade(args, root=TOP, timeout=300):
    """Run the grader; return (rc, results, stdout, seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, 'results.json')
        start = time.monotonic()
        build = shared_build() if root == TOP else os.path.join(tmp, 'build')
        p = subprocess.run([sys.executable, os.path.join(root, 'tools', 'grade.py'),
                            '--root', root, '--build', build,
                            '--results', results, '--lang', 'en'] + list(args),
                           capture_output=True, text=True, timeout=timeout)
        seconds = time.monotonic() - start
        with open(results, encoding='utf-8') as f:
            data = json.load(f)          # must be valid JSON, whatever happened
    return p.returncode, data, p.stdout + p.stderr, seconds


def by_name(data):
    return {(t['extra_data']['exercise'], t['extra_data']['check']): t for t in data['tests']}


# ------------------------------------------------------------ the sources
def test_every_exercise_is_complete_and_consistent():
    seen_files = {}
    for d, meta in exercises(everything=True):
        ex = meta['id']
        assert ex == os.path.basename(d), '%s: id differs from directory' % d
        for key in ('title', 'student_files', 'functions', 'checks', 'tolerance'):
            assert key in meta, '%s: exercise.json lacks %r' % (ex, key)
        assert meta['title'].get('en') and meta['title'].get('zh'), '%s: title in both languages' % ex
        for f in meta['student_files']:
            assert f not in seen_files, '%s and %s both have a file %s' % (ex, seen_files.get(f), f)
            seen_files[f] = ex
            text = grade_release.read(os.path.join(d, f))
            assert 'BEGIN SOLUTION' in text, '%s/%s has no solution markers' % (ex, f)
        checks_c = grade_release.read(os.path.join(d, 'checks.c'))
        in_c = grade_release.all_check_names(checks_c)
        in_json = [c['name'] for c in meta['checks']]
        assert sorted(in_c) == sorted(in_json), \
            '%s: checks.c has %s, exercise.json has %s' % (ex, in_c, in_json)
        hidden_c = set(grade_release.hidden_check_names(checks_c))
        hidden_json = {c['name'] for c in meta['checks'] if c.get('hidden')}
        assert hidden_c == hidden_json, \
            '%s: hidden in checks.c %s, in exercise.json %s' % (ex, hidden_c, hidden_json)
        assert hidden_json or meta.get('kind') == 'answers', \
            '%s: no hidden check (only numeric-answer exercises may have none)' % ex
        for c in meta['checks']:
            assert isinstance(c.get('points'), int) and c['points'] > 0, '%s: points' % c['name']
            assert c.get('hint', {}).get('en') and c['hint'].get('zh'), \
                '%s/%s: a hint in both languages' % (ex, c['name'])
        headers = ''.join(grade_release.read(h) for h in glob.glob(os.path.join(d, '*.h')))
        for fn in meta['functions']:
            assert fn + '(' in headers, '%s: %s is not declared in its header' % (ex, fn)


def test_stubs_are_generated_from_the_solutions():
    for d, meta in exercises(everything=True):
        for f in meta['student_files']:
            path = os.path.join(d, f)
            solution = grade_release.read(path)
            stub = grade_release.make_stub(solution, path)
            assert '/* YOUR CODE HERE */' in stub, path
            for marker in ('BEGIN SOLUTION', 'END SOLUTION', 'BEGIN STUB', 'END STUB'):
                assert marker not in stub, '%s: %s left in the stub' % (path, marker)
            code = [l.strip() for l in grade_release.solution_lines(solution)]
            for line in code:
                assert len(line) <= 12 or line not in stub, \
                    '%s: the solution line %r is in the stub' % (path, line)
    bad = '/* BEGIN SOLUTION */\nx;\n'
    try:
        grade_release.make_stub(bad, 'unclosed.c')
    except grade_release.MarkerError:
        pass
    else:
        raise AssertionError('an unclosed SOLUTION marker must be refused')


def test_the_harness_hides_the_token_from_the_code_under_test():
    """A probe check (built like any exercise) looks for the secret in its own
    environment and in /proc/self/environ; the harness must have erased it
    before any check code ran, and still report with it."""
    need_cc()
    probe = r'''
#include "grade.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
CHECK(probe)
{
    char buf[65536];
    FILE *f = fopen("/proc/self/environ", "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = 0;
    for (size_t i = 0; i < n; i++) if (!buf[i]) buf[i] = '\n';
    expect_true(getenv("GRADE_TOKEN") == NULL && getenv("GRADE_FD") == NULL, "env", "env");
    expect_true(strstr(buf, "s3cr3t-t0ken") == NULL, "proc", "proc");
    expect_true(strstr(buf, "KEEP=me") != NULL, "other variables stay", "other");
}
'''
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'probe.c')
        with open(src, 'w') as f:
            f.write(probe)
        h = os.path.join(TOP, 'exercises', 'harness')
        exe = os.path.join(tmp, 'probe')
        subprocess.run(['cc', '-std=c11', '-D_POSIX_C_SOURCE=200809L', '-I', h, '-o', exe,
                        os.path.join(h, 'harness.c'), src, '-lm'], check=True)
        r, w = os.pipe()
        env = {'GRADE_TOKEN': 's3cr3t-t0ken', 'GRADE_FD': str(w), 'KEEP': 'me', 'PATH': '/usr/bin'}
        p = subprocess.run([exe, 'probe', '0', '0'], env=env, pass_fds=(w,),
                           capture_output=True, text=True, timeout=20)
        os.close(w)
        with os.fdopen(r) as f:
            result = f.read()
        assert p.returncode == 0, p.stderr
        assert result.startswith('s3cr3t-t0ken {'), 'no token-carrying result: %r' % result
        verdict = json.loads(result.split(' ', 1)[1])
        assert verdict == {'check': 'probe', 'status': 'pass'}, verdict


# ------------------------------------------------------------ grading
def test_solutions_get_full_marks_on_every_check():
    need_cc()
    rc, data, out, seconds = grade([])
    failed = [t['name'] + ': ' + t['output'] for t in data['tests'] if t['score'] != t['max_score']]
    assert not failed, 'the reference solutions lose points:\n' + '\n'.join(failed)[:3000]
    n = sum(len(m['checks']) for _, m in exercises())
    assert len(data['tests']) == n, 'expected %d checks, results.json has %d' % (n, len(data['tests']))
    assert rc == 0, 'full marks must exit 0, got %d:\n%s' % (rc, out[-2000:])
    assert data['score'] == sum(t['max_score'] for t in data['tests'])
    assert any(t['visibility'] == 'after_published' for t in data['tests']), 'hidden checks ran'


def test_one_exercise_is_graded_alone():
    need_cc()
    first = exercises()[0][1]['id']
    rc, data, out, seconds = grade(['--ex', first])
    assert rc == 0, out[-2000:]
    assert {t['extra_data']['exercise'] for t in data['tests']} == {first}


def test_stubs_fail_every_check_hidden_ones_too():
    """Each check can fail: the generated stubs, graded with all the checks
    (visible and hidden), score zero on every one."""
    need_cc()
    with tempfile.TemporaryDirectory() as sub:
        for d, meta in exercises():
            for f in meta['student_files']:
                with open(os.path.join(sub, f), 'w', encoding='utf-8') as out:
                    out.write(grade_release.make_stub(grade_release.read(os.path.join(d, f))))
        rc, data, out, seconds = grade(['--submission', sub])
    assert rc != 0
    n = sum(len(m['checks']) for _, m in exercises())
    assert len(data['tests']) == n, 'expected %d checks, got %d' % (n, len(data['tests']))
    scored = ['%s (%s)' % (t['name'], t['visibility']) for t in data['tests'] if t['score'] != 0]
    assert not scored, 'the stubs pass: %s' % ', '.join(scored)
    reasons = {t['extra_data']['reason'] for t in data['tests']}
    assert reasons <= {'wrong'}, 'stubs should fail on their answers, not for %s' % reasons


def test_student_release_builds_and_grades_on_its_own():
    """Unpack build/student.tar.gz in a temp dir; its own `make grade` gives 0
    on every check with the untouched stubs and full marks with the
    solutions copied in."""
    need_cc()
    with tempfile.TemporaryDirectory() as tmp:
        dest, tarball, files = grade_release.student(TOP, dest=os.path.join(tmp, 'student'))
        unpack = os.path.join(tmp, 'unpacked')
        with tarfile.open(tarball) as tar:
            try:
                tar.extractall(unpack, filter='data')
            except TypeError:           # Python before 3.11.4 has no filter
                tar.extractall(unpack)
        root = os.path.join(unpack, 'attention-exercises')
        assert os.path.isfile(os.path.join(root, 'README.md'))
        for d, meta in exercises():     # each stub is exactly the one generated from its solution
            for f in meta['student_files']:
                shipped = grade_release.read(os.path.join(root, 'exercises', meta['id'], f))
                assert shipped == grade_release.make_stub(grade_release.read(os.path.join(d, f))), \
                    '%s/%s in the release is not the stub generated from the solution' % (meta['id'], f)
        env = dict(os.environ, LANG='en_US.UTF-8')
        p = subprocess.run(['make', '-s', 'grade'], cwd=root, capture_output=True, text=True,
                           timeout=300, env=env)
        assert p.returncode != 0, 'the stubs must not get full marks'
        with open(os.path.join(root, 'build', 'grade', 'results.json'), encoding='utf-8') as f:
            data = json.load(f)
        scored = [t['name'] for t in data['tests'] if t['score'] != 0]
        assert not scored, 'stubs scored on: %s' % scored
        assert data['tests'] and all(t['visibility'] == 'visible' for t in data['tests'])
        for d, meta in exercises():
            for f in meta['student_files']:
                shutil.copy(os.path.join(d, f), os.path.join(root, 'exercises', meta['id'], f))
        p = subprocess.run(['make', '-s', 'grade'], cwd=root, capture_output=True, text=True,
                           timeout=300, env=env)
        assert p.returncode == 0, 'solutions in the student release:\n' + p.stdout[-3000:]


def test_student_release_holds_no_solution_and_no_hidden_check():
    with tempfile.TemporaryDirectory() as tmp:
        dest, tarball, files = grade_release.student(TOP, dest=os.path.join(tmp, 'student'))
        hidden, solution, public = {}, [], ''
        for d, meta in exercises():
            hidden[meta['id']] = {c['name'] for c in meta['checks'] if c.get('hidden')}
            public += grade_release.strip_hidden(grade_release.read(os.path.join(d, 'checks.c')))
            for f in meta['student_files']:
                solution += [l.strip() for l in grade_release.solution_lines(
                    grade_release.read(os.path.join(d, f))) if len(l.strip()) > 12]
        # a solution line leaks if it reaches the release without being in a visible check
        solution = [l for l in solution if l not in public]
        for path, text in files.items():
            for marker in ('BEGIN SOLUTION', 'END SOLUTION', 'BEGIN HIDDEN', 'END HIDDEN'):
                assert marker not in text, '%s holds %s' % (path, marker)
            if path.startswith('exercises/') and not path.startswith('exercises/harness/'):
                for name in hidden.get(path.split('/')[1], ()):
                    assert name not in text, '%s names the hidden check %s' % (path, name)
                for line in solution:
                    assert line not in text, '%s holds the solution line %r' % (path, line)
        with tarfile.open(tarball) as tar:
            names = tar.getnames()
        assert not any('_hostile' in n for n in names), 'hostile submissions in the release'


def test_hostile_submissions_fail_with_the_expected_kind_of_reason():
    """Each bad submission fails every check, for its expected reason; one
    that exhausts a resource may be stopped by any of the resource limits.
    (The subprocess timeout only keeps a hung grader from hanging the tests.)"""
    need_cc()
    cases = sorted(os.listdir(HOSTILE))
    assert len(cases) >= 7, 'expected the hostile set, found %s' % cases
    problems = []
    for case in cases:
        with open(os.path.join(HOSTILE, case, 'expect.json')) as f:
            expect = json.load(f)
        rc, data, out, seconds = grade(['--ex', 'appA-transpose', '--cpu-seconds', '1',
                                        '--submission', os.path.join(HOSTILE, case)], timeout=300)
        if rc == 0:
            problems.append('%s: exit status 0' % case)
        if not data['tests']:
            problems.append('%s: no results' % case)
        for t in data['tests']:
            reason = t['extra_data']['reason']
            if t['score'] != 0:
                problems.append('%s: %s scored %s' % (case, t['name'], t['score']))
            ok = False
            for want in expect['reasons']:
                kind, _, detail = want.partition(':')
                if reason == kind and (not detail or detail in t['output']):
                    ok = True
                if kind in RESOURCE_LIMITS and reason in RESOURCE_LIMITS:
                    ok = True
            if not ok:
                problems.append('%s: %s failed for %r, expected %s:\n%s'
                                % (case, t['name'], reason, expect['reasons'], t['output'][:300]))
    assert not problems, '\n'.join(problems[:20])


def test_results_json_is_written_even_when_grading_cannot_start():
    rc, data, out, seconds = grade(['--ex', 'no-such-exercise'])
    assert rc != 0 and data['score'] == 0 and data['tests'] == [], data
    assert 'no exercise matches' in data['output']


def test_feedback_speaks_the_chosen_language():
    need_cc()
    with tempfile.TemporaryDirectory() as tmp:
        sub = os.path.join(tmp, 'sub')
        os.makedirs(sub)
        shutil.copy(os.path.join(HOSTILE, 'fake-result', 'transpose.c'), sub)
        outs = {}
        for lang in ('zh', 'en'):
            p = subprocess.run([sys.executable, GRADE, '--ex', 'appA-transpose', '--submission', sub,
                                '--build', shared_build(), '--results',
                                os.path.join(tmp, 'r.json')], capture_output=True, text=True,
                               env=dict(os.environ, LANG=lang, LC_ALL='', GRADE_LANG=''),
                               timeout=120)
            outs[lang] = p.stdout
        assert '期望' in outs['zh'] and 'expected' not in outs['zh'], outs['zh'][:500]
        assert 'expected' in outs['en'] and '期望' not in outs['en'], outs['en'][:500]


# ------------------------------------------------------------ Gradescope, Classroom
def run_autograder(zip_path, submission_files, tmp):
    ag = os.path.join(tmp, 'autograder')
    shutil.rmtree(ag, ignore_errors=True)
    os.makedirs(os.path.join(ag, 'submission'))
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(os.path.join(ag, 'source'))
    for rel, src in submission_files.items():
        dst = os.path.join(ag, 'submission', rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(src, dst)
    script = os.path.join(ag, 'source', 'run_autograder')
    p = subprocess.run(['bash', script], env=dict(os.environ, AUTOGRADER_ROOT=ag),
                       capture_output=True, text=True, timeout=300)
    with open(os.path.join(ag, 'results', 'results.json'), encoding='utf-8') as f:
        return p, json.load(f)


def test_gradescope_autograder_grades_only_the_submitted_files():
    need_cc()
    with tempfile.TemporaryDirectory() as tmp:
        zip_path = grade_release.gradescope(TOP, dest=os.path.join(tmp, 'gradescope.zip'))
        with zipfile.ZipFile(zip_path) as z:
            names = z.namelist()
        assert 'setup.sh' in names and 'run_autograder' in names, names[:10]
        # 1. the solutions, flat, as a student uploads files: everything, hidden too
        subs = {}
        for d, meta in exercises():
            for f in meta['student_files']:
                subs[f] = os.path.join(d, f)
        p, data = run_autograder(zip_path, subs, tmp)
        assert data['tests'] and all(t['score'] == t['max_score'] for t in data['tests']), \
            [t['output'] for t in data['tests'] if t['score'] != t['max_score']][:3]
        assert any(t['visibility'] == 'after_published' for t in data['tests'])
        # 2. nothing submitted: zero, "not submitted" -- never the stubs or solutions
        p, data = run_autograder(zip_path, {}, tmp)
        assert all(t['score'] == 0 for t in data['tests'])
        assert all('not submitted' in t['output'] for t in data['tests'])
        # 3. a repository with edited checks: the edits are ignored
        edited = os.path.join(HOSTILE, 'edited-test')
        files = {os.path.relpath(os.path.join(dp, f), edited): os.path.join(dp, f)
                 for dp, dn, fn in os.walk(edited) for f in fn}
        p, data = run_autograder(zip_path, files, tmp)
        mine = [t for t in data['tests'] if t['extra_data']['exercise'] == 'appA-transpose']
        assert mine and all(t['score'] == 0 for t in mine), [t['output'] for t in mine]


def test_classroom_config_runs_real_checks():
    with tempfile.TemporaryDirectory() as tmp:
        dest, tarball, files = grade_release.student(TOP, dest=os.path.join(tmp, 'student'))
        config = json.loads(files['.github/classroom/autograding.json'])
        visible = {(m['id'], c['name']) for _, m in exercises() for c in m['checks']
                   if not c.get('hidden')}
        seen = set()
        for t in config['tests']:
            words = t['run'].split()
            seen.add((words[words.index('--ex') + 1], words[words.index('--check') + 1]))
            assert t['points'] > 0 and t['timeout'] >= 1
        assert seen == visible, seen ^ visible
        assert 'education/autograding' in files['.github/workflows/classroom.yml']
        # the manifest the workflow checks matches the release
        p = subprocess.run(['sha256sum', '--check', '--strict', '--quiet', 'grader.sha256'],
                           cwd=dest, capture_output=True, text=True)
        assert p.returncode == 0, p.stdout + p.stderr


def test_the_instructor_guide_lists_every_exercise_and_its_hidden_checks():
    path, text, current = grade_release.guide_with_table(TOP)
    assert text == current, ('exercises/INSTRUCTOR.md: the exercise table is out of date; '
                             'run tools/grade_release.py table --write')
