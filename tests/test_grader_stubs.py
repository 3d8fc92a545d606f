"""The generated stubs fail every check (tests/test_grader.py has the other
checks of the checker).  A module of its own so that pytest-xdist, which hands
out whole modules, can grade the stubs on one core while the solutions are
graded on the other."""
import os
import tempfile

from grader_common import exercise, exercises, grade, need_cc


def test_stubs_fail_every_check_hidden_ones_too():
    """Each check can fail: the generated stubs, graded with all the checks
    (visible and hidden), score zero on every one.  (The broken files of the
    find-and-fix exercises pass some checks on purpose: see
    tests/test_fix_exercises.py.)"""
    need_cc()
    stubbed = [(d, m) for d, m in exercises() if m.get('kind') != 'fix']
    with tempfile.TemporaryDirectory() as sub:
        for d, meta in stubbed:
            for f in meta['student_files']:
                with open(os.path.join(sub, f), 'w', encoding='utf-8') as out:
                    out.write(exercise.make_stub(exercise.read(os.path.join(d, f))))
        rc, data, out, seconds = grade(['--submission', sub,
                                        '--ex', ','.join(m['id'] for _, m in stubbed)])
    assert rc != 0
    n = sum(len(m['checks']) for _, m in stubbed)
    assert len(data['tests']) == n, 'expected %d checks, got %d' % (n, len(data['tests']))
    scored = ['%s (%s)' % (t['name'], t['visibility']) for t in data['tests'] if t['score'] != 0]
    assert not scored, 'the stubs pass: %s' % ', '.join(scored)
    reasons = {t['extra_data']['reason'] for t in data['tests']}
    assert reasons <= {'wrong'}, 'stubs should fail on their answers, not for %s' % reasons
