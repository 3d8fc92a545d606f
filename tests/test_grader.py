"""The checks of the checker: tools/grade.py and tools/grade_release.py.

  - every exercise's reference solution gets full marks on every check,
    visible and hidden, within the time budget;
  - the generated stubs get zero on every check, in the student release,
    which builds and grades on its own from its tarball;
  - no solution and no hidden check reaches the student release;
  - the deliberately bad submissions in exercises/_hostile/ fail with the
    expected reason, with the lint and without it (then the sandbox and the
    judge alone must hold); nothing they start outlives the grading, nothing
    outside the scratch directory changes, results.json is valid and final;
  - correct alternative solutions (exercises/_alternative/) get full marks;
  - the Gradescope autograder grades only the submitted C files, with the
    hidden checks, and the Classroom configuration names real checks.
"""
import concurrent.futures
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
    return grade_release.exercises(TOP, everything=everything)


SHARED_BUILD = os.path.join(TOP, 'build', 'test-grader')


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
        # "No allocation" in the contract is enforced; forbidden names are the book's
        if 'no_alloc' in meta:        # else the grader reads it from the header
            assert bool(meta['no_alloc']) == ('no allocation' in headers.lower()), \
                '%s: no_alloc in exercise.json and "No allocation" in the header disagree' % ex
        for fn in meta.get('forbidden', []):
            assert any(fn + '(' in grade_release.read(h)
                       for h in glob.glob(os.path.join(TOP, 'code', '*.h'))), \
                '%s: forbids %s, which is not a function of the book' % (ex, fn)


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


def load_grade():
    sys.path.insert(0, os.path.join(TOP, 'tools'))
    import grade as g
    return g


def test_the_judge_reads_the_value_stream_strictly():
    """Malformed, truncated or extra values are never a pass; the same values
    as the reference's are; a value off by more than the tolerance is not."""
    g = load_grade()

    def rec(*fields):
        body = b''.join(b'%d:%s,' % (len(f), f) for f in fields)
        return b'%d:%s,' % (len(body), body)
    ref = rec(b'near', b'x', b'2', b'0x0p+0 0x0p+0', b'0x1p+0 0x1.8p+1') + rec(b'end', b'c')
    refs = g.decode_records(ref)
    assert g.judge(refs, refs) is None, 'the same values must pass'
    off = rec(b'near', b'x', b'2', b'0x0p+0 0x0p+0', b'0x1p+0 0x1.80001p+1') + rec(b'end', b'c')
    v = g.judge(g.decode_records(off), refs)
    assert v and v['kind'] == 'value' and v['what'] == 'x[1]', v
    for bad in (ref[:-1], ref[:10], b'x' + ref, ref + b'7', b'99999999999:' + ref,
                ref.replace(b'near', b'nEar'), b'3:abc,'):
        try:
            recs = g.decode_records(bad)
        except ValueError:
            continue
        assert g.judge(recs, refs) is not None, 'a malformed stream passed: %r' % bad
    assert g.judge([], refs)['kind'] == 'incomplete'
    assert g.judge(g.decode_records(rec(b'end', b'c')), refs) is not None
    # a different label or shape is not the check as written
    other = rec(b'near', b'y', b'2', b'0x0p+0 0x0p+0', b'0x1p+0 0x1.8p+1') + rec(b'end', b'c')
    assert g.judge(g.decode_records(other), refs)['kind'] == 'structure'
    # every truncation of a real stream fails
    for k in range(len(ref)):
        try:
            recs = g.decode_records(ref[:k])
        except ValueError:
            continue
        assert g.judge(recs, refs) is not None, 'truncated at %d passed' % k


def test_the_lint_sees_directives_however_spelled():
    g = load_grade()
    for src in ('#line 5 "x.h"\n', '# 5 "x.h"\n', '#/* c */line 5\n', '#li\\\nne 5\n',
                '??=line 5\n', '%:line 5\n', '  #  12 "a"\n'):
        names = [n for _, n in g.directives(src)]
        assert names and (names[0] == 'line' or names[0].isdigit()), (src, names)
    names = [n for _, n in g.directives('x = "#line 5"; // #line 6\n/* #line 7 */\n#include <x>\n')]
    assert names == ['include'], names


# ------------------------------------------------------------ grading
def test_solutions_get_full_marks_on_every_check_within_the_budget():
    need_cc()
    rc, data, out, seconds = grade([])
    failed = [t['name'] + ': ' + t['output'] for t in data['tests'] if t['score'] != t['max_score']]
    assert not failed, 'the reference solutions lose points:\n' + '\n'.join(failed)[:3000]
    n = sum(len(m['checks']) for _, m in exercises())
    assert len(data['tests']) == n, 'expected %d checks, results.json has %d' % (n, len(data['tests']))
    assert rc == 0, 'full marks must exit 0, got %d:\n%s' % (rc, out[-2000:])
    assert data['score'] == sum(t['max_score'] for t in data['tests'])
    assert any(t['visibility'] == 'after_published' for t in data['tests']), 'hidden checks ran'


def test_every_check_hands_the_judge_a_value_of_the_students_function():
    """A check made only of expect_true() conditions could be forged by code
    that knows it (the expected record is a known "1"): every check must
    give the judge at least one value (near, int or same)."""
    need_cc()
    g = load_grade()
    weak = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        tc = g.Toolchain(TOP, SHARED_BUILD, pool)
        for ex in g.find_exercises(TOP):
            if ex.missing:
                continue
            for name, raw in tc.expected_raw(ex, ex.limits).items():
                kinds = {r[0] for r in g.decode_records(raw)}
                if not kinds & {'near', 'int', 'same'}:
                    weak.append('%s/%s' % (ex.id, name))
    assert not weak, 'checks with no value for the judge: %s' % ', '.join(weak)


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
        env = dict(os.environ, LANG='en_US.UTF-8', EX=RELEASE_SAMPLE)
        p = subprocess.run(['make', '-s', 'grade'], cwd=root, capture_output=True, text=True,
                           timeout=300, env=env)
        assert p.returncode != 0, 'the stubs must not get full marks'
        with open(os.path.join(root, 'build', 'grade', 'results.json'), encoding='utf-8') as f:
            data = json.load(f)
        scored = [t['name'] for t in data['tests'] if t['score'] != 0]
        assert not scored, 'stubs scored on: %s' % scored
        assert data['tests'] and all(t['visibility'] == 'visible' for t in data['tests'])
        assert {t['extra_data']['exercise'] for t in data['tests']} == {'appA-transpose'}
        assert 'checked only by your course' in p.stdout, p.stdout[-800:]
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
    tests = [t for t in data['tests'] if not only or t['extra_data']['check'] in only]
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


def run_hostile(case, expect, lint):
    args = ['--ex', expect.get('ex', 'appA-transpose'), '--cpu-seconds', '1',
            '--submission', os.path.join(HOSTILE, case)]
    if not lint:
        args.append('--no-lint')
    if expect.get('ex', 'appA-transpose') == 'appA-transpose':
        args += ['--check', 'one_by_one,large_rectangle']   # one visible, one hidden
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, 'results.json')
        p = subprocess.run([sys.executable, GRADE, '--build', SHARED_BUILD, '--results', results,
                            '--lang', 'en', '--jobs', '1'] + args,
                           capture_output=True, text=True, timeout=180)
        with open(results, encoding='utf-8') as f:
            first = f.read()
        data = json.loads(first)
        if expect.get('background'):
            time.sleep(3)        # longer than the hostile code waits before it strikes
            with open(results, encoding='utf-8') as f:
                assert f.read() == first, '%s: results.json changed after the grader ended' % case
    return p.returncode, data


def test_hostile_submissions_fail_for_the_right_reason_with_and_without_the_lint():
    """Each hostile submission fails with the reason its expect.json names.
    Then again without the lint (--no-lint), where only the sandbox and the
    judge stand in the way: it must still score nothing, and nothing it
    started may outlive the grading or change anything outside the scratch
    directory."""
    need_cc()
    cases = hostile_cases()
    assert len(cases) >= 30, 'expected the hostile set, found %d cases' % len(cases)
    before = tree_state(TOP)
    planted = ['/tmp/grader-pwned', os.path.join(TOP, 'grader-pwned'), '/tmp/results.json']
    for p in planted:
        if os.path.exists(p):
            os.unlink(p)
    jobs = []
    for case, expect in cases:
        jobs.append((case, expect, True, expect['reasons']))
        if 'no_lint' not in expect or expect['no_lint'] is not None:
            jobs.append((case, expect, False, expect.get('no_lint')))
    problems = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        futs = [(j, pool.submit(run_hostile, j[0], j[1], j[2])) for j in jobs]
        for (case, expect, lint, reasons), fut in futs:
            rc, data = fut.result()
            mode = 'lint' if lint else 'no lint'
            if rc == 0:
                problems.append('%s (%s): exit status 0' % (case, mode))
            problems += check_outcome(case, expect, data, reasons, mode)
    left = sandbox_processes(SHARED_BUILD)
    assert not left, 'processes outlived the grading: %s' % left
    for p in planted:
        assert not os.path.exists(p), '%s was written by a hostile submission' % p
    changed = tree_state(TOP) ^ before
    changed = {c for c in changed if '/build/' not in c[0]}
    assert not changed, 'files outside the build directory changed: %s' % sorted(changed)[:5]
    assert not problems, '\n'.join(problems[:20])


def test_symbolic_links_in_a_submission_are_refused():
    """A submission whose file (or a directory on its path) is a symbolic link
    into the book's tree is refused, never graded as the reference solution."""
    need_cc()
    solution = os.path.join(TOP, 'exercises', 'appA-transpose', 'transpose.c')
    with tempfile.TemporaryDirectory() as sub:
        os.symlink(solution, os.path.join(sub, 'transpose.c'))
        rc, data, out, _ = grade(['--ex', 'appA-transpose', '--submission', sub])
        assert rc != 0 and all(t['score'] == 0 for t in data['tests']), out[-1000:]
        assert {t['extra_data']['reason'] for t in data['tests']} == {'refused'}, out[-1000:]
        assert 'symbolic link' in data['tests'][0]['output']
    with tempfile.TemporaryDirectory() as sub:
        os.symlink(os.path.join(TOP, 'exercises'), os.path.join(sub, 'exercises'))
        rc, data, out, _ = grade(['--ex', 'appA-transpose', '--submission', sub])
        assert all(t['score'] == 0 for t in data['tests']), out[-1000:]
        assert {t['extra_data']['reason'] for t in data['tests']} <= {'refused', 'missing'}


def test_correct_alternative_solutions_get_full_marks():
    """Other loop orders, other stable formulas, <complex.h> (the compiler's
    __muldc3 and cexp), __builtin_popcount, C99 inline helpers, <setjmp.h>,
    <signal.h> and <time.h>: correct code keeps every point."""
    need_cc()
    problems = []
    for case in sorted(os.listdir(ALTERNATIVE)):
        d = os.path.join(ALTERNATIVE, case)
        with open(os.path.join(d, 'expect.json')) as f:
            ex = json.load(f)['ex']
        rc, data, out, _ = grade(['--ex', ex, '--submission', d])
        lost = [t['name'] + ': ' + t['output'][:300] for t in data['tests']
                if t['score'] != t['max_score']]
        if rc != 0 or lost or not data['tests']:
            problems.append('%s: %s' % (case, '\n'.join(lost) or out[-600:]))
    assert len(os.listdir(ALTERNATIVE)) >= 5
    assert not problems, '\n'.join(problems)


def test_compile_errors_are_shown_once_per_exercise():
    need_cc()
    rc, data, out, _ = grade(['--ex', 'appA-transpose', '--submission',
                              os.path.join(HOSTILE, 'compile-error')])
    outputs = [t['output'] for t in data['tests']]
    assert 'did not compile' in outputs[0]
    assert all('did not compile' not in o for o in outputs[1:]), outputs[:3]
    assert out.count('did not compile') == 1, out[-1500:]


def test_numeric_answers_are_never_revealed():
    """A wrong numeric answer is told it is wrong, with the hint, never the
    expected value; the student release holds neither the checks nor values."""
    need_cc()
    ex = 'ch07-tie-answers'
    with tempfile.TemporaryDirectory() as sub:
        with open(os.path.join(sub, 'tie_answers.c'), 'w') as f:
            f.write('#include "tie_answers.h"\ndouble answer_tie_constant(void) { return 2.5; }\n')
        rc, data, out, _ = grade(['--ex', ex, '--submission', sub])
    assert data['tests'] and all(t['score'] == 0 for t in data['tests'])
    for t in data['tests']:
        assert 'not right' in t['output'] and 'hint' in t['output'], t['output']
        assert '1.76' not in t['output'] and '1.77' not in t['output'], t['output']
    assert '1.76' not in out and '1.77' not in out
    with tempfile.TemporaryDirectory() as tmp:
        dest, tarball, files = grade_release.student(TOP, dest=os.path.join(tmp, 'student'))
        exp = json.loads(files['exercises/%s/expected.json' % ex])
        assert exp['checks'] == {}, exp
        assert 'integrand' not in files['exercises/%s/checks.c' % ex]


def test_the_grader_says_what_is_missing_without_a_sandbox():
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, 'r.json')
        p = subprocess.run([sys.executable, GRADE, '--ex', 'appA-transpose', '--build',
                            os.path.join(tmp, 'b'), '--results', results],
                           env=dict(os.environ, GRADE_BWRAP='/bin/false'),
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2
        assert 'user namespaces' in p.stderr and '--no-sandbox' in p.stderr, p.stderr
        with open(results) as f:
            data = json.load(f)
        assert data['score'] == 0 and 'sandbox' in data['output']


def test_without_the_sandbox_a_student_can_still_grade_their_own_code():
    """--no-sandbox (a student's own machine without bubblewrap): the same
    lint and the same judge, said out loud."""
    need_cc()
    rc, data, out, _ = grade(['--no-sandbox', '--ex', 'appA-transpose'])
    assert rc == 0 and data['score'] == 8, out[-1500:]
    assert 'unconfined' in out
    rc, data, out, _ = grade(['--no-sandbox', '--ex', 'appA-transpose', '--submission',
                              os.path.join(HOSTILE, 'fake-result')])
    assert data['score'] == 0 and {t['extra_data']['reason'] for t in data['tests']} == {'wrong'}


def test_the_sandbox_works_for_an_unprivileged_user_too():
    """Gradescope runs as root; a student or a CI runner does not."""
    need_cc()
    if os.geteuid() != 0 or not shutil.which('setpriv'):
        raise Skip('needs root (to switch to an unprivileged user) and setpriv')
    grade(['--ex', 'appA-transpose', '--check', 'one_by_one'])     # warm the shared cache
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o777)
        shutil.copytree(os.path.join(SHARED_BUILD, 'cache'), os.path.join(tmp, 'b', 'cache'))
        for dp, dn, fn in os.walk(tmp):
            for n in dn + fn:
                os.chmod(os.path.join(dp, n), 0o777)
        results = os.path.join(tmp, 'r.json')
        p = subprocess.run(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups',
                            sys.executable, GRADE, '--ex', 'appA-transpose', '--build',
                            os.path.join(tmp, 'b'), '--results', results, '--lang', 'en'],
                           capture_output=True, text=True, timeout=180,
                           env=dict(os.environ, HOME=tmp))
        if 'user namespaces' in p.stderr:
            raise Skip('this kernel does not allow unprivileged user namespaces: %s'
                       % p.stderr.strip()[-200:])
        assert p.returncode == 0, p.stdout[-1500:] + p.stderr[-1500:]


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
                                '--build', SHARED_BUILD, '--results',
                                os.path.join(tmp, 'r.json')], capture_output=True, text=True,
                               env=dict(os.environ, LANG=lang, LC_ALL='', GRADE_LANG=''),
                               timeout=120)
            outs[lang] = p.stdout
        assert '期望' in outs['zh'] and 'expected' not in outs['zh'], outs['zh'][:500]
        assert 'expected' in outs['en'] and '期望' not in outs['en'], outs['en'][:500]


# ------------------------------------------------------------ Gradescope, Classroom
def run_autograder(zip_path, submission_files, tmp, links=None):
    ag = os.path.join(tmp, 'autograder')
    shutil.rmtree(ag, ignore_errors=True)
    os.makedirs(os.path.join(ag, 'submission'))
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(os.path.join(ag, 'source'))
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


def test_gradescope_autograder_grades_only_the_submitted_files():
    need_cc()
    with tempfile.TemporaryDirectory() as tmp:
        zip_path = grade_release.gradescope(TOP, spec=RELEASE_SAMPLE,
                                            dest=os.path.join(tmp, 'gradescope.zip'))
        with zipfile.ZipFile(zip_path) as z:
            names = z.namelist()
        assert 'setup.sh' in names and 'run_autograder' in names, names[:10]
        # 1. the solutions, flat, as a student uploads files: everything, hidden too
        subs = {}
        for d, meta in grade_release.exercises(TOP, RELEASE_SAMPLE):
            for f in meta['student_files']:
                subs[f] = os.path.join(d, f)
        p, data = run_autograder(zip_path, subs, tmp)
        assert data['tests'] and all(t['score'] == t['max_score'] for t in data['tests']), \
            [t['output'] for t in data['tests'] if t['score'] != t['max_score']][:3]
        assert any(t['visibility'] == 'after_published' for t in data['tests'])
        # 2. nothing submitted: zero, "not submitted" -- never the stubs or solutions
        p, data = run_autograder(zip_path, {}, tmp)
        assert all(t['score'] == 0 for t in data['tests'])
        assert {t['extra_data']['reason'] for t in data['tests']} == {'missing'}
        assert 'not submitted' in data['tests'][0]['output']
        # 3. a symbolic link to the autograder's own files: refused
        p, data = run_autograder(zip_path, {}, tmp, links={
            'transpose.c': os.path.join(tmp, 'autograder', 'source', 'exercises', 'appA-transpose',
                                        'transpose.c')})
        mine = [t for t in data['tests'] if t['extra_data']['exercise'] == 'appA-transpose']
        assert mine and {t['extra_data']['reason'] for t in mine} == {'refused'}
        # 4. a repository with edited checks: the edits are ignored
        edited = os.path.join(HOSTILE, 'edited-test')
        files = {os.path.relpath(os.path.join(dp, f), edited): os.path.join(dp, f)
                 for dp, dn, fn in os.walk(edited) for f in fn}
        p, data = run_autograder(zip_path, files, tmp)
        mine = [t for t in data['tests'] if t['extra_data']['exercise'] == 'appA-transpose']
        assert mine and all(t['score'] == 0 for t in mine), [t['output'] for t in mine]


def workflow_steps(text):
    """The steps of the generated workflow (without PyYAML: it is generated
    by grade_release.classroom_workflow in a fixed layout)."""
    steps, cur, key = [], None, None
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


def test_classroom_workflow_replays_with_a_readme_edited_by_classroom():
    """The workflow uses the current Classroom actions, runs real visible
    checks, and replayed in a student repository whose README.md Classroom
    has edited (a due-date badge), it checks the checksums and gives full
    marks to the solutions; editing a check breaks the checksum step."""
    need_cc()
    with tempfile.TemporaryDirectory() as tmp:
        dest, tarball, files = grade_release.student(TOP, dest=os.path.join(tmp, 'student'))
        wf = files['.github/workflows/classroom.yml']
        assert 'education/autograding' not in wf
        steps = workflow_steps(wf)
        uses = {s.get('uses') for s in steps}
        assert 'classroom-resources/autograding-command-grader@v1' in uses
        assert 'classroom-resources/autograding-grading-reporter@v1' in uses
        graders = [s for s in steps if s.get('uses', '').startswith(
            'classroom-resources/autograding-command-grader')]
        visible = {(m['id'], c['name']) for _, m in exercises() for c in m['checks']
                   if not c.get('hidden') and m.get('kind') != 'answers'}
        seen = set()
        for s in graders:
            words = s['command'].split()
            seen.add((words[words.index('--ex') + 1], words[words.index('--check') + 1]))
            assert int(s['max-score']) > 0 and int(s['timeout']) >= 1
        assert seen == visible, seen ^ visible
        reporter = [s for s in steps if 'grading-reporter' in s.get('uses', '')][0]
        assert reporter['runners'].split(',') == [s['id'] for s in graders]
        # Classroom edits README.md; the student writes the solutions
        with open(os.path.join(dest, 'README.md'), 'r+', encoding='utf-8') as f:
            text = f.read()
            f.seek(0)
            f.write('[![Review Assignment Due Date](https://classroom.github.com/assets/'
                    'deadline-readme-button.svg)](https://classroom.github.com/a/x)\n' + text)
        for d, meta in exercises():
            for f in meta['student_files']:
                shutil.copy(os.path.join(d, f), os.path.join(dest, 'exercises', meta['id'], f))
        runs = [s['run'] for s in steps if 'run' in s and 'sudo' not in s['run']]
        assert any('sha256sum' in r for r in runs)
        for r in runs:
            p = subprocess.run(r, shell=True, cwd=dest, capture_output=True, text=True, timeout=60)
            assert p.returncode == 0, '%s: %s' % (r, p.stdout[-500:] + p.stderr[-500:])
        score = 0
        for s in graders:
            if '--ex appA-transpose ' not in s['command']:
                continue               # one exercise's steps replayed: each is a cold build
            p = subprocess.run(s['command'], shell=True, cwd=dest, capture_output=True, text=True,
                               timeout=60 * int(s['timeout']))
            score += int(s['max-score']) if p.returncode == 0 else 0
            assert p.returncode == 0, s['command'] + '\n' + p.stdout[-800:] + p.stderr[-800:]
        assert score == 5
        # an edited check fails the checksum step
        with open(os.path.join(dest, 'exercises', 'appA-transpose', 'checks.c'), 'a') as f:
            f.write('\n/* edited */\n')
        p = subprocess.run('sha256sum --check --strict --quiet grader.sha256', shell=True,
                           cwd=dest, capture_output=True, text=True)
        assert p.returncode != 0


def test_the_instructor_guide_lists_every_exercise_and_its_hidden_checks():
    path, text, current = grade_release.guide_with_table(TOP)
    assert text == current, ('exercises/INSTRUCTOR.md: the exercise table is out of date; '
                             'run tools/grade_release.py table --write')
