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
import re
import shutil
import subprocess
import sys
import tempfile

from helpers import TOP, Skip
from grader_common import (ALTERNATIVE, GRADE, HOSTILE, SHARED_BUILD, exercise, exercises,
                           grade, grade_release, load_grade, need_cc)


def test_every_exercise_is_complete_and_consistent():
    seen_files = {}
    for d, meta in exercises(everything=True):
        ex = meta['id']     # its keys, titles, points and hints: checked by the loader
        for f in meta['student_files']:
            assert f not in seen_files, '%s and %s both have a file %s' % (ex, seen_files.get(f), f)
            seen_files[f] = ex
            text = exercise.read(os.path.join(d, f))
            marker = 'BEGIN FIX' if meta.get('kind') == 'fix' else 'BEGIN SOLUTION'
            assert marker in text, '%s/%s has no %s marker' % (ex, f, marker)
        # which checks there are and which are hidden: checks.c alone says
        # (the loader refuses an exercise.json that disagrees or says "hidden")
        written = json.loads(exercise.read(os.path.join(d, 'exercise.json')))
        assert not any('hidden' in c for c in written['checks']), \
            '%s: exercise.json says "hidden"; checks.c decides' % ex
        hidden_json = {c['name'] for c in meta['checks'] if c.get('hidden')}
        assert hidden_json or meta.get('kind') == 'answers', \
            '%s: no hidden check (only numeric-answer exercises may have none)' % ex
        headers = ''.join(exercise.read(h) for h in glob.glob(os.path.join(d, '*.h')))
        for fn in meta['functions']:
            assert fn + '(' in headers, '%s: %s is not declared in its header' % (ex, fn)
        # "No allocation" in the contract is enforced; forbidden names are the book's
        if 'no_alloc' in meta:        # else the grader reads it from the header
            assert bool(meta['no_alloc']) == ('no allocation' in headers.lower()), \
                '%s: no_alloc in exercise.json and "No allocation" in the header disagree' % ex
        for fn in meta.get('forbidden', []):
            assert any(fn + '(' in exercise.read(h)
                       for h in glob.glob(os.path.join(TOP, 'code', '*.h'))), \
                '%s: forbids %s, which is not a function of the book' % (ex, fn)


def test_the_loader_refuses_an_exercise_json_that_disagrees_with_checks_c():
    """checks.c names the checks and hides some; exercise.json gives each,
    in the same order, its points and hints, and never says "hidden"."""
    src = os.path.join(TOP, 'exercises', 'appA-transpose')
    good = json.loads(exercise.read(os.path.join(src, 'exercise.json')))
    meta = exercise.load(src)
    assert [c['name'] for c in meta['checks'] if c.get('hidden')] == \
        ['row_vector', 'large_rectangle'], meta['checks']
    first = good['checks'][0]
    for what, checks in (('"hidden"', [dict(first, hidden=True)] + good['checks'][1:]),
                         ('a check missing', good['checks'][1:]),
                         ('another order', good['checks'][1:] + good['checks'][:1]),
                         ('a check checks.c lacks', good['checks'] + [dict(first, name='extra')]),
                         ('no hint in Chinese', [dict(first, hint={'en': 'x'})] + good['checks'][1:]),
                         ('"counts_with" naming itself',
                          [dict(first, counts_with=[first['name']])] + good['checks'][1:]),
                         ('"counts_with" naming no check', [dict(first, counts_with=['nothing'])] +
                          good['checks'][1:]),
                         ('"counts_with" naming only hidden checks',
                          [dict(first, counts_with=['row_vector', 'large_rectangle'])] +
                          good['checks'][1:])):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, 'appA-transpose')
            shutil.copytree(src, d)
            with open(os.path.join(d, 'exercise.json'), 'w', encoding='utf-8') as f:
                json.dump(dict(good, checks=checks), f)
            try:
                exercise.load(d)
            except exercise.ExerciseError:
                continue
            raise AssertionError('the loader took an exercise.json with %s' % what)


def test_stubs_are_generated_from_the_solutions():
    for d, meta in exercises(everything=True):
        for f in meta['student_files']:
            path = os.path.join(d, f)
            solution = exercise.read(path)
            stub = exercise.make_stub(solution, path)
            if meta.get('kind') != 'fix':   # find-and-fix: tests/test_fix_exercises.py
                assert '/* YOUR CODE HERE */' in stub, path
            for marker in ('BEGIN SOLUTION', 'END SOLUTION', 'BEGIN STUB', 'END STUB'):
                assert marker not in stub, '%s: %s left in the stub' % (path, marker)
            code = [l.strip() for l in exercise.solution_lines(solution)]
            for line in code:
                assert len(line) <= 12 or line not in stub, \
                    '%s: the solution line %r is in the stub' % (path, line)
    bad = '/* BEGIN SOLUTION */\nx;\n'
    try:
        exercise.make_stub(bad, 'unclosed.c')
    except exercise.MarkerError:
        pass
    else:
        raise AssertionError('an unclosed SOLUTION marker must be refused')


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


def test_cached_objects_are_rebuilt_when_the_compiler_is_replaced_in_place():
    """The cache names every object by what went into it; a compiler
    upgraded in place (same path, another binary) must give new names, or
    objects built by the old one would be linked with the new one's runtime."""
    g = load_grade()
    headers = [os.path.join(TOP, 'exercises', 'harness', 'grade.h')]
    with tempfile.TemporaryDirectory() as tmp:
        cc = os.path.join(tmp, 'cc')
        with open(cc, 'w') as f:
            f.write('#!/bin/sh\nexec gcc "$@"\n')
        first = g.Toolchain.header_key(cc, headers)
        assert g.Toolchain.header_key(cc, headers) == first
        with open(cc, 'w') as f:
            f.write('#!/bin/sh\nexec gcc -DNEWER "$@"\n')
        assert g.Toolchain.header_key(cc, headers) != first, 'same key for another compiler'
        os.unlink(cc)
        assert g.Toolchain.header_key(cc, headers) != first


def test_every_library_function_is_a_helper_or_forbidden_unless_allowed():
    """The library's functions are split in the grader: those that compute a
    piece of the model (forbidden in every exercise unless its exercise.json
    lists them under "library"), the helpers any exercise may call, and
    those no exercise may call.  A function the split does not name (a new
    one) fails here, so that nobody solves an exercise with one call to it."""
    need_cc()
    g = load_grade()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        tc = g.Toolchain(TOP, SHARED_BUILD, pool)
    parts = (g.LIBRARY_THAT_COMPUTES, g.LIBRARY_HELPERS, g.DENIED_LIBRARY)
    library = {n for n in tc.library_symbols if not n.startswith('__odr_asan')}
    unplaced = library - set().union(*parts)
    assert not unplaced, 'library functions in neither set of tools/grade.py: %s' % sorted(unplaced)
    assert not (set().union(*parts) - library), 'names no longer in the library'
    assert not (g.LIBRARY_THAT_COMPUTES & g.LIBRARY_HELPERS)
    for ex in g.find_exercises(TOP):
        assert 'attention_masked' in ex.forbidden or ex.id == 'ch06-encoder-stack', ex.id
        assert {'softmax', 'mha_forward', 'online_merge', 'transpose'} <= ex.forbidden, ex.id


def test_the_students_build_of_the_checks_holds_no_hand_worked_answer():
    """The checks' object linked into the student's program (GRADE_EMIT) has
    no debug information, where GCC would keep an optimised-out array of
    expected values: 2.3's hidden check large_scores_overflow_exp expects
    (-100, 0, -1500), and -1500.0's bytes are in the reference build's object
    but not in the student's.  (A third attack round read them from the
    program's own file.)"""
    need_cc()
    import struct
    g = load_grade()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        tc = g.Toolchain(TOP, SHARED_BUILD, pool)
        exs = {ex.id: ex for ex in g.find_exercises(TOP)}
        want = struct.pack('<d', -1500.0)
        emit, _ = tc.checks_objects(exs['ch02-log-softmax'])
        reference, _ = tc.checks_objects(exs['ch02-log-softmax'], emit=False)
        assert want in open(reference, 'rb').read(), 'the search cannot find the value'
        assert want not in open(emit, 'rb').read(), 'the student\'s build holds -1500.0'
        for ex in exs.values():
            for obj in set(tc.checks_objects(ex)):
                rc, out, err = g.run_tool(['readelf', '-S', '-W', obj])
                assert rc == 0 and '.debug_' not in out, '%s: debug sections in %s' % (ex.id, obj)


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


def test_the_instructor_guide_lists_every_exercise_and_its_hidden_checks():
    path, text, current = grade_release.guide_with_table(TOP)
    assert text == current, ('exercises/INSTRUCTOR.md: the exercise table is out of date; '
                             'run tools/grade_release.py table --write')


# Words that make a value's label English prose rather than a name or an
# expression (w[1][0], Attn(q, K, V), schedule_rate(64, 10, 100, 1)): such a
# label needs its Chinese half (|zh:), or a Chinese student reads English.
ENGLISH_WORDS = {'the', 'of', 'at', 'for', 'with', 'and', 'from', 'step', 'layer', 'layers',
                 'sentence', 'started', 'returned', 'position', 'one', 'far', 'above', 'below',
                 'keys', 'uniform', 'rounds', 'ones', 'mask', 'post', 'pre', 'norm'}


def test_value_labels_in_english_words_have_a_chinese_half():
    """Every label in the checks (the first string of expect_*(), of a
    snprintf() that builds one, or a compare() helper's last argument) that
    reads as English words carries |zh: and its Chinese."""
    problems = []
    for checks in sorted(glob.glob(os.path.join(TOP, 'exercises', '*', 'checks.c'))):
        text = open(checks, encoding='utf-8').read()
        labels = re.findall(r'\bexpect_\w+\(\s*"((?:[^"\\]|\\.)*)"', text)
        labels += re.findall(r'\bsnprintf\(\s*what\s*,[^,]+,\s*"((?:[^"\\]|\\.)*)"', text)
        labels += re.findall(r'\bcompare\([^;]*"((?:[^"\\]|\\.)*)"\s*\)\s*;', text)
        for label in labels:
            en = label.split('|zh:')[0]
            # words, not names: no identifier (pair_norm2), no array or call (mask[i])
            words = {m.group().lower() for m in re.finditer(r'[A-Za-z_][A-Za-z_0-9]*', en)
                     if m.group().isalpha() and en[m.end():m.end() + 1] not in ('[', '(')}
            if words & ENGLISH_WORDS and '|zh:' not in label:
                problems.append('%s: %r' % (os.path.relpath(checks, TOP), label))
    assert not problems, 'labels with no Chinese half:\n' + '\n'.join(problems)


def test_a_buffer_overflow_says_which_end_of_the_buffer():
    """ASan says where the bad address lies; the feedback says "before the
    start" for an index below 0 (t - 1 at t = 0) and "past the end" otherwise."""
    g = load_grade()
    head = ('==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020 at pc 0x1\n'
            'READ of size 8 at 0x6020 thread T0\n    #0 0x401 in f /box/src/f.c:6\n')
    for where, side, en, zh in (('to the left of', 'before', 'before the start of a buffer',
                                 '在缓冲区开头之前读写'),
                                ('to the right of', 'after', 'past the end of a buffer',
                                 '越过缓冲区末尾读写')):
        rep = g.sanitizer_report(head + '0x6020 is located 8 bytes %s 48-byte region\n' % where)
        assert rep['kind'] == 'heap-buffer-overflow' and rep['side'] == side, rep
        outcome = dict(rep, status='fail')
        ex = type('Ex', (), {'limits': {}})()
        text = '\n'.join(g.explain(ex, {'name': 'c'}, outcome, None, g.Lang('both')))
        assert en in text and zh in text, text


def test_a_sign_error_is_named_only_when_every_wrong_value_is_flipped():
    """The feedback says 'look for a sign' when each wrong value is the
    expected one negated, and not when some wrong value is something else."""
    g = load_grade()
    ref = [('near', b'out', b'3', b'0 0', b'1 -2 0'), ('end',)]
    def rec(vals):
        return [('near', b'out', b'3', b'0 0', vals.encode()), ('end',)]
    assert g.sign_flipped(rec('-1 2 0'), ref)           # all flipped (0 is its own negative)
    assert g.sign_flipped(rec('1 2 0'), ref)            # the one wrong value is flipped
    assert not g.sign_flipped(rec('-1 4 0'), ref)       # one wrong value is not
    assert not g.sign_flipped(rec('1 -2 0'), ref)       # nothing wrong
