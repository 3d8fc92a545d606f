#!/usr/bin/python3
"""Releases of the exercises, generated from the one source in exercises/.

    tools/grade_release.py student      build/student/ and build/student.tar.gz
    tools/grade_release.py gradescope   build/gradescope.zip (setup.sh, run_autograder)
    tools/grade_release.py stub FILE    print the student stub generated from FILE
    tools/grade_release.py table [--write]  the exercises and their hidden checks
                                        (--write: into exercises/INSTRUCTOR.md)

Markers in an exercise's files (each alone on its line, inside a C comment;
tools/exercise.py reads them, and exercise.json, for every tool):

    /* BEGIN SOLUTION */ ... /* END SOLUTION */
        the reference solution; the stub has one line /* YOUR CODE HERE */
    /* BEGIN STUB ... END STUB */
        code for the stub only (e.g. `return 0.0;`): a comment in the
        solution, uncommented in the stub
    /* BEGIN HIDDEN */ ... /* END HIDDEN */
        hidden checks in checks.c: removed from the student release
    /* BEGIN FIX */ ... /* BROKEN */ ... /* END FIX */
        a find-and-fix exercise ("kind": "fix"): the lines before BROKEN are
        the fix (the solution); each line after it starts with `//~ ` and is
        the broken code the student receives, prefix removed.  The release
        ships the file as broken, with no trace of the markers.

The student release holds the stubs, the visible checks, the values those
checks give with the solution (expected.json: the grader's judge compares
with them), the grader and the library it links (the book's code/*.c and
code/*.h), the chapter programs' sources (`make programs` builds them: the
exercises ask students to run them), its own README, Makefile and
development container, and a GitHub Classroom workflow.  No
solution, no hidden check and no numeric answer ever reaches it;
tests/test_grader.py proves it.  The Gradescope zip holds the stubs, every
check and every check's expected values.

`EX=...` (comma- or space-separated ids or globs) limits either release to
some exercises, e.g. one Gradescope assignment per chapter:
    make gradescope EX='ch02-*'
"""
import gzip
import hashlib
import json
import os
import shutil
import sys
import tarfile
import zipfile

from codefiles import is_program
from exercise import MarkerError, exercises, make_stub, read, shipped_meta, strip_hidden

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)


def library_files(root=ROOT):
    code = os.path.join(root, 'code')
    return sorted(f for f in os.listdir(code)
                  if f.endswith('.h') or (f.endswith('.c') and not is_program(f)))


def reference_values(root, metas, hidden):
    """{exercise id: {check name: the reference run's value stream (str)}},
    computed by the grader from the instructor's solutions (cached in
    build/grade/cache).  The releases ship these instead of the solutions."""
    import concurrent.futures
    sys.path.insert(0, TOOLS)
    import grade
    build = os.path.join(root, 'build', 'grade')
    out = {}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        tc = grade.Toolchain(root, build, pool)
        exs = {e.id: e for e in grade.find_exercises(root)}
        jobs = {}
        for d, meta in metas:
            ex = exs[meta['id']]
            jobs[ex.id] = pool.submit(tc.expected_raw, ex, ex.limits)
        for d, meta in metas:
            raw = jobs[meta['id']].result()
            keep = {c['name'] for c in meta['checks'] if hidden or not c.get('hidden')}
            out[meta['id']] = {k: v.decode('latin-1') for k, v in raw.items() if k in keep}
        # the values of the known wrong solutions (exercises/ID/mutants/), so
        # that the release names a student's bug without shipping the mutants
        diag = {}
        for d, meta in metas:
            ex = exs[meta['id']]
            if ex.kind == 'answers' or not ex.mutants:
                continue
            diag[ex.id] = {c: pool.submit(tc.diagnoses_raw, ex, c, ex.limits)
                           for c in out[ex.id]}
        for i, checks in diag.items():
            diag[i] = {c: {m: v.decode('latin-1') for m, v in f.result().items()}
                       for c, f in checks.items()}
            diag[i] = {c: v for c, v in diag[i].items() if v}
    return out, diag


ANSWERS_CHECKS_STUB = """/* The checks of this numeric-answer exercise are not in the student
   release: they would give the answers away.  Your course's grader checks
   your numbers; `make grade` here checks that your file compiles and follows
   the rules. */
#include "grade.h"
"""


GRADER = ('grade.py', 'codefiles.py', 'exercise.py')    # tools/: what grades


def release_files(root=ROOT, spec='', hidden=False):
    """{relative path: text} of a release: stubs always; hidden checks (and
    the checks of numeric-answer exercises) only if HIDDEN (the Gradescope
    autograder).  Each exercise ships expected.json, the values its checks
    give with the instructor's solution, never the solution itself."""
    files = {}
    for f in GRADER:
        files['tools/' + f] = read(os.path.join(root, 'tools', f))
    for f in ('grade.h', 'harness.c'):
        files['exercises/harness/' + f] = read(os.path.join(root, 'exercises', 'harness', f))
    for f in library_files(root):
        files['code/' + f] = read(os.path.join(root, 'code', f))
    metas = exercises(root, spec)
    values, diagnoses = reference_values(root, metas, hidden)
    for d, meta in metas:
        ex = 'exercises/%s/' % meta['id']
        answers = meta.get('kind') == 'answers' and not hidden
        for f in meta['student_files']:
            files[ex + f] = make_stub(read(os.path.join(d, f)), os.path.join(d, f))
        for f in sorted(os.listdir(d)):
            if f.endswith('.h'):
                files[ex + f] = read(os.path.join(d, f))
        checks = read(os.path.join(d, 'checks.c'))
        if answers:
            checks = ANSWERS_CHECKS_STUB
        elif not hidden:
            checks = strip_hidden(checks, d + '/checks.c')
        files[ex + 'checks.c'] = checks
        m = shipped_meta(meta)
        m.pop('broken_fails', None)     # which checks the shipped file fails: hidden ones too
        if answers:
            m['checks'] = []
            m['answers_checked_elsewhere'] = True
        elif not hidden:
            m['checks'] = [c for c, h in zip(m['checks'], meta['checks']) if not h.get('hidden')]
        names = {c['name'] for c in m['checks']}
        # a gate names only the checks this release holds
        m['checks'] = [dict(c, counts_with=[n for n in c['counts_with'] if n in names])
                       if 'counts_with' in c else c for c in m['checks']]
        diag = {k: v for k, v in diagnoses.get(meta['id'], {}).items() if k in names}
        # the mistakes, not the mutants (their sources stay here) nor which
        # check catches each (the tests' business)
        m.pop('mutants', None)
        if diag:
            m['mutants'] = [{'name': x['name'], 'mistake': x['mistake']}
                            for x in meta['mutants']
                            if any(x['name'] in v for v in diag.values())]
        files[ex + 'exercise.json'] = json.dumps(m, ensure_ascii=False, indent=2) + '\n'
        expected = {'note': 'the values of the checks with the instructor\'s solution; '
                            'written by tools/grade_release.py',
                    'checks': {k: v for k, v in values[meta['id']].items() if k in names}}
        if diag:
            expected['diagnoses'] = diag
        files[ex + 'expected.json'] = json.dumps(
            expected, ensure_ascii=False, indent=0, sort_keys=True) + '\n'
    return files


CLASSROOM_HEAD = """\
# GitHub Classroom autograding, with the current Classroom actions: one
# command-grader step per visible check (`python3 tools/grade.py --ex ID
# --check NAME`), then the reporter.  The instructor's authoritative grade
# comes from re-grading the students' C files with the instructor's own copy
# of the grader and the hidden checks: see INSTRUCTOR.md.
name: Autograding Tests
'on':
- push
- repository_dispatch
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
    - name: Checkout code
      uses: actions/checkout@v4
    - name: The grader's sandbox (bubblewrap; user namespaces allowed)
      run: sudo apt-get install -y -q bubblewrap && (sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true)
    - name: Check that the grader and the checks are the released ones
      run: sha256sum --check --strict grader.sha256
"""


def classroom_tests(files):
    """(step id, test name, command, points) of every visible check."""
    out = []
    for path in sorted(files):
        if not path.endswith('/exercise.json'):
            continue
        meta = json.loads(files[path])
        for c in meta['checks']:
            out.append(('t%03d' % (len(out) + 1),
                        '%s %s: %s' % (meta.get('exercise', ''), meta['id'], c['name']),
                        'python3 tools/grade.py --ex %s --check %s --quiet' % (meta['id'], c['name']),
                        c.get('points', 1)))
    return out


def classroom_workflow(files):
    """.github/workflows/classroom.yml for the classroom-resources actions."""
    lines = [CLASSROOM_HEAD.rstrip('\n')]
    tests = classroom_tests(files)
    for step, name, command, points in tests:
        lines += ['    - name: %s' % json.dumps(name),
                  '      id: %s' % step,
                  '      uses: classroom-resources/autograding-command-grader@v1',
                  '      with:',
                  '        test-name: %s' % json.dumps(name),
                  "        setup-command: ''",
                  '        command: %s' % json.dumps(command),
                  '        timeout: 2',
                  '        max-score: %d' % points]
    lines += ['    - name: Autograding Reporter',
              '      uses: classroom-resources/autograding-grading-reporter@v1',
              '      env:']
    lines += ['        %s_RESULTS: "${{steps.%s.outputs.result}}"' % (step.upper(), step)
              for step, _, _, _ in tests]
    lines += ['      with:', '        runners: %s' % ','.join(t[0] for t in tests)]
    return '\n'.join(lines) + '\n'


def manifest(files):
    """sha256sum lines of what grades: the grader, the harness, the checks,
    their values and metadata, the headers and the library.  Not the
    student's files, not README.md (Classroom edits it), not .github/."""
    student = set()
    for path in files:
        if path.endswith('/exercise.json'):
            meta = json.loads(files[path])
            student |= {os.path.dirname(path) + '/' + f for f in meta['student_files']}
    lines = []
    for path in sorted(files):
        graded = path in ['tools/' + f for f in GRADER] or \
            path.startswith(('exercises/', 'code/'))
        if path in student or not graded:
            continue
        digest = hashlib.sha256(files[path].encode('utf-8')).hexdigest()
        lines.append('%s  %s' % (digest, path))
    return '\n'.join(lines) + '\n'


def write_tree(dest, files, executables=()):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    for rel, text in files.items():
        path = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        if rel in executables:
            os.chmod(path, 0o755)


def source_date():
    """SOURCE_DATE_EPOCH (the Makefile sets it to the last commit's date)."""
    return int(os.environ.get('SOURCE_DATE_EPOCH', '1700000000'))


def write_tarball(tarball, tree, arcname):
    """TREE as ARCNAME/ in a .tar.gz that depends only on the files: sorted
    names, the source date for every time (the gzip header's too), owner 0,
    modes 755/644 whatever the umask, so two builds give the same bytes."""
    when = source_date()

    def normal(info):
        info.mtime = when
        info.uid = info.gid = 0
        info.uname = info.gname = ''
        executable = info.isdir() or info.mode & 0o100
        info.mode = 0o755 if executable else 0o644
        return info
    with open(tarball + '.tmp', 'wb') as raw, \
            gzip.GzipFile(filename='', mode='wb', fileobj=raw, mtime=when) as gz, \
            tarfile.open(fileobj=gz, mode='w', format=tarfile.PAX_FORMAT) as tar:
        tar.add(tree, arcname=arcname, filter=normal)   # tarfile sorts each directory
    os.replace(tarball + '.tmp', tarball)


def program_files(root=ROOT):
    """{relative path: text} of the chapter programs' sources (code/chNN-*.c,
    code/appX-*.c): the exercises tell students to run them (`make programs`
    in the student release builds them with the library)."""
    code = os.path.join(root, 'code')
    return {'code/' + f: read(os.path.join(code, f)) for f in sorted(os.listdir(code))
            if is_program(f)}


STUDENT_EXTRA = ('README.md', 'Makefile', '.devcontainer/Dockerfile',
                 '.devcontainer/devcontainer.json')


def student(root=ROOT, spec='', dest=None):
    files = release_files(root, spec, hidden=False)
    files.update(program_files(root))
    for f in STUDENT_EXTRA:
        files[f] = read(os.path.join(root, 'exercises', 'student', f))
    files['.gitignore'] = 'build/\n'
    files['.github/workflows/classroom.yml'] = classroom_workflow(files)
    files['grader.sha256'] = manifest(files)
    dest = dest or os.path.join(root, 'build', 'student')
    write_tree(dest, files, executables=('tools/grade.py',))
    tarball = dest.rstrip('/') + '.tar.gz'
    write_tarball(tarball, dest, 'attention-exercises')
    return dest, tarball, files


RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this once per submission.  The grader, the checks (hidden
# ones included), the headers and the library come from this autograder's own
# source directory; from the submission only the exercises' C files are taken
# (by name), never a test, a header or the grader.  results.json is always
# written, even if the student's code crashes or the grader itself fails.
# The grader works on a fresh copy of the source, at the path where setup.sh
# prepared its cache (the library, the checks), so a submission is graded warm.
set -uo pipefail
AG=${AUTOGRADER_ROOT:-/autograder}
work="$AG/work"
rm -rf "$work" && mkdir -p "$work"
cp -a "$AG/source/." "$work/"
mkdir -p "$AG/results"
python3 "$work/tools/grade.py" --root "$work" --build "$AG/grade-build" \\
    --submission "$AG/submission" \\
    --results "$AG/results/results.json" --lang "${GRADE_LANG:-both}" --jobs "$(nproc)"
status=$?
if ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$AG/results/results.json" 2>/dev/null; then
    echo '{"score": 0, "output": "The grader failed; please tell your teacher.", "tests": []}' \\
        > "$AG/results/results.json"
fi
rm -rf "$work"
exit 0   # the score is in results.json; $status was $status
"""

# Builds, once, what every grading shares; no student code runs here.
PREPARE_SH = """\
#!/usr/bin/env bash
# Called by setup.sh once the packages are in: build the library, the harness
# and the checks into the cache run_autograder grades with.  The source is
# copied to the same path run_autograder uses, since the cache is keyed by it.
set -euo pipefail
AG=${AUTOGRADER_ROOT:-/autograder}
rm -rf "$AG/work" && mkdir -p "$AG/work"
cp -a "$AG/source/." "$AG/work/"
python3 "$AG/work/tools/grade.py" --root "$AG/work" --build "$AG/grade-build" --prepare \\
    --jobs "$(nproc)"
rm -rf "$AG/work"
"""

SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder's image: install
# the C compiler (with AddressSanitizer and UBSan), make, Python 3 and the
# sandbox (bubblewrap; Gradescope runs the autograder as root, where it works),
# then build what every submission's grading shares.
# Nothing is fetched while grading.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends gcc libc6-dev make python3 binutils \\
    bubblewrap util-linux
bash "$(dirname "$0")/prepare.sh"
"""


def gradescope(root=ROOT, spec='', dest=None):
    files = release_files(root, spec, hidden=True)
    dest = dest or os.path.join(root, 'build', 'gradescope.zip')
    with zipfile.ZipFile(dest + '.tmp', 'w', zipfile.ZIP_DEFLATED) as z:
        for name, text, mode in [('setup.sh', SETUP_SH, 0o755),
                                 ('prepare.sh', PREPARE_SH, 0o755),
                                 ('run_autograder', RUN_AUTOGRADER, 0o755)]:
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o100000 | mode) << 16
            z.writestr(info, text)
        for rel in sorted(files):
            info = zipfile.ZipInfo(rel)
            mode = 0o755 if rel == 'tools/grade.py' else 0o644
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, files[rel])
    os.replace(dest + '.tmp', dest)
    return dest


TABLE_BEGIN = '<!-- BEGIN EXERCISE TABLE: tools/grade_release.py table --write -->'
TABLE_END = '<!-- END EXERCISE TABLE -->'


def exercise_table(root=ROOT):
    """The Markdown table of every exercise, its checks and which are hidden."""
    rows = ['| exercise · 练习 | id | student file · 学生文件 | visible checks · 公开检查 '
            '| hidden checks · 隐藏检查 | points · 分值 |',
            '|---|---|---|---|---|---|']
    for d, meta in exercises(root, everything=True):
        vis = [c['name'] for c in meta['checks'] if not c.get('hidden')]
        hid = [c['name'] for c in meta['checks'] if c.get('hidden')]
        pts = sum(c.get('points', 1) for c in meta['checks'])
        note = ' (needs %s)' % ', '.join('code/' + h for h in meta['requires']) \
            if meta.get('requires') else ''
        rows.append('| %s %s · %s | `%s`%s | `%s` | %s | %s | %d |' % (
            meta.get('exercise', ''), meta['title']['en'], meta['title']['zh'], meta['id'], note,
            '`, `'.join(meta['student_files']), ', '.join(vis), ', '.join(hid) or '—', pts))
    return '\n'.join(rows) + '\n'


def guide_with_table(root=ROOT):
    path = os.path.join(root, 'exercises', 'INSTRUCTOR.md')
    text = read(path)
    head, _, rest = text.partition(TABLE_BEGIN + '\n')
    _, _, tail = rest.partition(TABLE_END)
    return path, text, head + TABLE_BEGIN + '\n' + exercise_table(root) + TABLE_END + tail


def main(argv):
    if len(argv) >= 2 and argv[1] == 'table':
        path, old, new = guide_with_table()
        if '--write' in argv:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(new)
        else:
            sys.stdout.write(exercise_table())
        return 0
    if len(argv) < 2 or argv[1] not in ('student', 'gradescope', 'stub'):
        print(__doc__, file=sys.stderr)
        return 2
    spec = os.environ.get('EX', '')
    try:
        if argv[1] == 'stub':
            sys.stdout.write(make_stub(read(argv[2]), argv[2]))
        elif argv[1] == 'student':
            dest, tarball, files = student(spec=spec)
            n = sum(1 for f in files if f.endswith('/exercise.json'))
            print('  STUDENT  %s/ and %s (%d exercises, %d files)'
                  % (os.path.relpath(dest, ROOT), os.path.relpath(tarball, ROOT), n, len(files)))
        else:
            dest = gradescope(spec=spec)
            print('  ZIP      %s (upload it as the autograder of a Gradescope assignment)'
                  % os.path.relpath(dest, ROOT))
    except MarkerError as e:
        print('grade_release: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
