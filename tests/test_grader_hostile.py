"""The grader against hostile submissions (exercises/_hostile/): each fails
for the reason its expect.json names, with the lint and without it; nothing
it starts outlives the grading; symbolic links are refused."""
import concurrent.futures
import os
import tempfile

from helpers import TOP
from grader_common import (HOSTILE_BUILD, check_outcome, grade, hostile_cases, need_cc,
                           recheck_background, run_hostile, sandbox_processes, tree_state)


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
    problems, background = [], []
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(2) as pool:
        futs = []
        for k, j in enumerate(jobs):
            os.makedirs(os.path.join(scratch, str(k)))
            futs.append((j, os.path.join(scratch, str(k)),
                         pool.submit(run_hostile, j[0], j[1], j[2], os.path.join(scratch, str(k)))))
        for (case, expect, lint, reasons), d, fut in futs:
            rc, data, first = fut.result()
            mode = 'lint' if lint else 'no lint'
            if rc == 0:
                problems.append('%s (%s): exit status 0' % (case, mode))
            problems += check_outcome(case, expect, data, reasons, mode)
            if expect.get('background'):
                background.append(('%s (%s)' % (case, mode), os.path.join(d, 'results.json'), first))
        # one wait for all the background cases, not one each
        problems += recheck_background(background)
    left = sandbox_processes(HOSTILE_BUILD)
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
