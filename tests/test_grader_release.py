"""The packages the grader ships: the student release (it builds and grades
on its own and holds no solution, no hidden check and no numeric answer), the
Gradescope autograder and the GitHub Classroom workflow."""
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import zipfile

from helpers import TOP
from grader_common import (HOSTILE, RELEASE_SAMPLE, exercise, exercises, grade, grade_release,
                           need_cc, run_autograder, setup_autograder, workflow_steps)


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
                shipped = exercise.read(os.path.join(root, 'exercises', meta['id'], f))
                assert shipped == exercise.make_stub(exercise.read(os.path.join(d, f))), \
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
            public += exercise.strip_hidden(exercise.read(os.path.join(d, 'checks.c')))
            for f in meta['student_files']:
                solution += [l.strip() for l in exercise.solution_lines(
                    exercise.read(os.path.join(d, f))) if len(l.strip()) > 12]
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
        assert not any('/mutants/' in n or '_same_mistake' in n for n in names), \
            'known wrong solutions in the release'


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


def test_gradescope_autograder_grades_only_the_submitted_files():
    need_cc()
    with tempfile.TemporaryDirectory() as tmp:
        zip_path = grade_release.gradescope(TOP, spec=RELEASE_SAMPLE,
                                            dest=os.path.join(tmp, 'gradescope.zip'))
        with zipfile.ZipFile(zip_path) as z:
            names = z.namelist()
        assert {'setup.sh', 'prepare.sh', 'run_autograder'} <= set(names), names[:10]
        ag = setup_autograder(zip_path, tmp)
        # 1. the solutions, flat, as a student uploads files: everything, hidden too
        subs = {}
        for d, meta in grade_release.exercises(TOP, RELEASE_SAMPLE):
            for f in meta['student_files']:
                subs[f] = os.path.join(d, f)
        cache = os.path.join(ag, 'grade-build', 'cache')
        prepared = set(os.listdir(cache))
        p, data = run_autograder(ag, subs)
        assert set(os.listdir(cache)) == prepared, \
            'the submission was not graded warm: built %s' % sorted(set(os.listdir(cache)) - prepared)
        assert data['tests'] and all(t['score'] == t['max_score'] for t in data['tests']), \
            [t['output'] for t in data['tests'] if t['score'] != t['max_score']][:3]
        assert any(t['visibility'] == 'after_published' for t in data['tests'])
        # 2. nothing submitted: zero, "not submitted" -- never the stubs or solutions
        p, data = run_autograder(ag, {})
        assert all(t['score'] == 0 for t in data['tests'])
        assert {t['extra_data']['reason'] for t in data['tests']} == {'missing'}
        assert 'not submitted' in data['tests'][0]['output']
        # 3. a symbolic link to the autograder's own files: refused
        p, data = run_autograder(ag, {}, links={
            'transpose.c': os.path.join(ag, 'source', 'exercises', 'appA-transpose',
                                        'transpose.c')})
        mine = [t for t in data['tests'] if t['extra_data']['exercise'] == 'appA-transpose']
        assert mine and {t['extra_data']['reason'] for t in mine} == {'refused'}
        # 4. a repository with edited checks: the edits are ignored
        edited = os.path.join(HOSTILE, 'edited-test')
        files = {os.path.relpath(os.path.join(dp, f), edited): os.path.join(dp, f)
                 for dp, dn, fn in os.walk(edited) for f in fn}
        p, data = run_autograder(ag, files)
        mine = [t for t in data['tests'] if t['extra_data']['exercise'] == 'appA-transpose']
        assert mine and all(t['score'] == 0 for t in mine), [t['output'] for t in mine]
        # 5. a known wrong solution: its mistake is named from the values the
        #    autograder ships (expected.json), without building a mutant
        p, data = run_autograder(ag, {'transpose.c': os.path.join(
            TOP, 'exercises', 'appA-transpose', 'mutants', 'copy-not-transpose.c')})
        assert set(os.listdir(cache)) == prepared, 'a mutant was built while grading'
        t = [t for t in data['tests'] if t['extra_data']['check'] == 'two_by_three'][0]
        assert t['extra_data']['diagnoses'] == ['copy-not-transpose'], t['output']
        assert not [n for n in names if '/mutants/' in n], 'mutants in the autograder'


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
