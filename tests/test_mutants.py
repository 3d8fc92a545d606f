"""Feedback that names the student's bug (issue 18).

Each programming exercise keeps its common wrong solutions ("mutants") in
exercises/ID/mutants/NAME.c, each a whole student file with one plausible
mistake, listed in exercise.json under "mutants" with the check that catches
it and the mistake in both languages.  When a submission fails a check, the
grader runs the mutants itself (the instructor's code, outside the sandbox,
like the solution) on that check; if the submission's values are a mutant's
values, the feedback names that mutant's mistake instead of the check's
general hint.

  - every mutant is listed, with its mistake in English and Chinese; the
    exercises the issue names have at least three, every other programming
    exercise at least one;
  - every mutant, graded through the real grader (sandboxed, one mutant of
    each exercise per grader run), fails the check its manifest names, and
    the feedback of that check names its mistake, and only its mistake;
  - no mutant reaches the student release or the Gradescope autograder: they
    ship the mistakes and the mutants' values (visible checks only in the
    student release), never the mutants' code or which check catches them.
The correct solutions keep full marks (tests/test_grader.py grades them with
the mutants in place).
"""
import json
import os
import re
import shutil
import tempfile

from helpers import TOP, need_full
from grader_common import by_name, exercise, exercises, grade, grade_release, need_cc

# the exercises issue 18 names: backward passes, softmax and log-softmax,
# masks, online softmax
AT_LEAST_THREE = {
    'ch02-attention-backward', 'ch05-residual-backward', 'ch07-scores-backward',
    'ch05-gelu-ffn', 'ch02-log-softmax', 'ch02-online-attention', 'ch04-batch-mask',
    'ch04-sliding-window', 'ch04-biased-attention', 'ch10-causal-tiles',
    'ch10-merge-normalised',
}
CJK = re.compile(r'[\u4e00-\u9fff]')


def programming_exercises(everything=False):
    # a find-and-fix exercise ships its one mistake itself (tests/test_fix_exercises.py)
    return [(d, m) for d, m in exercises(everything) if m.get('kind', 'code') not in ('answers', 'fix')]


def mutant_source(d, mutant):
    return os.path.join(d, 'mutants', mutant['name'] + '.c')


def test_every_mutant_is_listed_with_its_mistake_in_both_languages():
    problems = []
    for d, meta in programming_exercises(everything=True):
        ex, mutants = meta['id'], meta.get('mutants', [])
        want = 3 if ex in AT_LEAST_THREE else 1
        if len(mutants) < want:
            problems.append('%s: %d mutants, at least %d wanted' % (ex, len(mutants), want))
        checks = {c['name'] for c in meta['checks']}
        names = [m['name'] for m in mutants]
        if len(set(names)) != len(names):
            problems.append('%s: two mutants share a name' % ex)
        on_disk = set()
        if os.path.isdir(os.path.join(d, 'mutants')):
            on_disk = {f[:-2] for f in os.listdir(os.path.join(d, 'mutants')) if f.endswith('.c')}
        if on_disk != set(names):
            problems.append('%s: mutants/ holds %s, exercise.json lists %s'
                            % (ex, sorted(on_disk), sorted(names)))
        for m in mutants:
            if m.get('caught_by') not in checks:
                problems.append('%s/%s: caught_by %r is not a check' % (ex, m['name'], m.get('caught_by')))
            en, zh = m.get('mistake', {}).get('en', ''), m.get('mistake', {}).get('zh', '')
            if len(en) < 20 or not zh or not CJK.search(zh) or CJK.search(en):
                problems.append('%s/%s: the mistake needs English and Chinese text' % (ex, m['name']))
            # a mistake names a bug, never a check's inputs: no check names in it
            for c in checks:
                if c in en or c in zh:
                    problems.append('%s/%s: the mistake names the check %s' % (ex, m['name'], c))
            # a mutant differs from the solution, which it is a whole copy of otherwise
            src = exercise.read(mutant_source(d, m)) if m['name'] in on_disk else ''
            for f in meta['student_files']:
                if 'BEGIN SOLUTION' in src or 'END SOLUTION' in src:
                    problems.append('%s/%s: a mutant carries solution markers' % (ex, m['name']))
    assert not problems, '\n'.join(problems)


def test_the_first_mutant_of_each_exercise_fails_its_check_with_a_hint_that_names_its_mistake():
    """Round 0: the first mutant of every exercise that has mutants."""
    grade_mutant_rounds(range(1))


def test_every_other_mutant_fails_its_check_with_a_hint_that_names_its_mistake():
    """Rounds 1 and on (make test-all; make grade-mutants prints the same
    sweep's counts)."""
    need_full('the second and later mutants of each exercise')
    grade_mutant_rounds(range(1, 1000))


def grade_mutant_rounds(which):
    """Round r grades mutant r of every exercise that has one, in one grader
    run (student file names are unique across exercises), on the check that
    should catch it (--check ID/NAME,...).  The first round asks for both
    languages, the others for English."""
    need_cc()
    progs = [(d, m) for d, m in programming_exercises() if m.get('mutants')]
    rounds = max(len(m['mutants']) for _, m in progs)
    problems, named, total = [], {}, {}
    for r in [r for r in which if r < rounds]:
        with tempfile.TemporaryDirectory() as sub:
            batch = []
            for d, meta in progs:
                if r < len(meta['mutants']):
                    mutant = meta['mutants'][r]
                    shutil.copy(mutant_source(d, mutant), os.path.join(sub, meta['student_files'][0]))
                    batch.append((meta, mutant))
            lang = ['--lang', 'both'] if r == 0 else []
            rc, data, out, _ = grade(['--ex', ','.join(m['id'] for m, _ in batch),
                                      '--check', ','.join('%s/%s' % (m['id'], x['caught_by'])
                                                          for m, x in batch),
                                      '--submission', sub] + lang, timeout=900)
        assert rc == 1, 'round %d: the grader exited %d:\n%s' % (r, rc, out[-2000:])
        tests = by_name(data)
        for meta, mutant in batch:
            ex, name = meta['id'], mutant['name']
            total[ex] = total.get(ex, 0) + 1
            t = tests.get((ex, mutant['caught_by']))
            if t is None:
                problems.append('%s/%s: no result for %s' % (ex, name, mutant['caught_by']))
                continue
            seen = t['extra_data'].get('diagnoses')
            if t['score'] != 0:
                problems.append('%s/%s passes %s' % (ex, name, mutant['caught_by']))
            elif seen != [name]:
                failed = ['%s (%s, %s)' % (k[1], v['extra_data']['reason'],
                                           v['extra_data'].get('diagnoses'))
                          for k, v in tests.items() if k[0] == ex and v['score'] == 0]
                problems.append('%s/%s: %s names %s; failed: %s'
                                % (ex, name, mutant['caught_by'], seen, ', '.join(failed)))
            elif mutant['mistake']['en'] not in t['output'] or (
                    r == 0 and mutant['mistake']['zh'] not in t['output']):
                problems.append('%s/%s: the feedback does not show the mistake:\n%s'
                                % (ex, name, t['output']))
            else:
                named[ex] = named.get(ex, 0) + 1
            # the check's general hint gives way to the named mistake, unless
            # the match is only that every value is nan (weak evidence: 0/0
            # and inf - inf give nan too), when both are shown
            hint = next(c for c in meta['checks'] if c['name'] == mutant['caught_by']).get('hint')
            weak = 'your values are all nan' in t['output']
            if seen == [name] and hint and not weak and ('hint: ' + hint['en']) in t['output']:
                problems.append('%s/%s: the general hint is shown beside the mistake' % (ex, name))
            if seen == [name] and hint and weak and ('hint: ' + hint['en']) not in t['output']:
                problems.append('%s/%s: all nan, but the general hint is not shown' % (ex, name))
    summary = ', '.join('%s %d/%d' % (ex, named.get(ex, 0), n) for ex, n in sorted(total.items()))
    print('mutants with a hint that names their bug: %d of %d (%s)'
          % (sum(named.values()), sum(total.values()), summary))
    assert not problems, '\n'.join(problems)


def test_mutants_stay_out_of_the_releases():
    """The student release and the Gradescope autograder carry the mistakes
    and the mutants' values on their checks (the student release: visible
    checks only), never a mutant's code nor which check catches it."""
    need_cc()
    ex = 'ch02-attention-backward'
    d, meta = next((d, m) for d, m in exercises() if m['id'] == ex)
    hidden = {c['name'] for c in meta['checks'] if c.get('hidden')}
    visible = {c['name'] for c in meta['checks']} - hidden
    # lines that only a mutant has: none may reach a release
    solution = set(l.strip() for l in exercise.read(os.path.join(d, meta['student_files'][0]))
                   .splitlines())
    mutant_lines = set()
    for m in meta['mutants']:
        mutant_lines |= {l.strip() for l in exercise.read(mutant_source(d, m)).splitlines()
                         if len(l.strip()) > 12 and l.strip() not in solution}
    assert mutant_lines
    for hidden_checks in (False, True):
        files = grade_release.release_files(TOP, ex, hidden=hidden_checks)
        where = 'gradescope' if hidden_checks else 'student release'
        for path, text in files.items():
            assert '/mutants/' not in path and not path.startswith('mutants/'), (where, path)
            for line in mutant_lines:
                assert line not in text, '%s: %s holds the mutant line %r' % (where, path, line)
        shipped = json.loads(files['exercises/%s/exercise.json' % ex])
        assert shipped['mutants'], where
        assert all(set(m) == {'name', 'mistake'} for m in shipped['mutants']), where
        diagnoses = json.loads(files['exercises/%s/expected.json' % ex])['diagnoses']
        assert set(diagnoses) <= (visible | hidden if hidden_checks else visible), where
        assert set(diagnoses) & visible, where
        if hidden_checks:
            assert set(diagnoses) & hidden, where


SAME_MISTAKE = os.path.join(TOP, 'exercises', '_same_mistake')


def test_the_same_mistake_written_another_way_gets_the_same_hint():
    """The hint is chosen by the values, not by the code: a submission with a
    mutant's bug, written differently (exercises/_same_mistake/), is told the
    mutant's mistake."""
    need_cc()
    cases = sorted(os.listdir(SAME_MISTAKE))
    assert len(cases) >= 3
    metas = {m['id']: m for _, m in exercises()}
    problems = []
    with tempfile.TemporaryDirectory() as sub:
        want = []
        for case in cases:
            with open(os.path.join(SAME_MISTAKE, case, 'expect.json'), encoding='utf-8') as f:
                expect = json.load(f)
            meta = metas[expect['ex']]
            assert expect['mistake_of'] in [m['name'] for m in meta['mutants']], case
            assert len({e['ex'] for e in want} | {expect['ex']}) == len(want) + 1, \
                'one case an exercise: they are graded in one run'
            f = meta['student_files'][0]
            shutil.copy(os.path.join(SAME_MISTAKE, case, f), os.path.join(sub, f))
            want.append(dict(expect, case=case))
        rc, data, out, _ = grade(['--ex', ','.join(e['ex'] for e in want),
                                  '--check', ','.join('%s/%s' % (e['ex'], e['check']) for e in want),
                                  '--submission', sub])
    tests = by_name(data)
    for e in want:
        t = tests[(e['ex'], e['check'])]
        if t['score'] != 0 or t['extra_data'].get('diagnoses') != [e['mistake_of']]:
            problems.append('%s: %s scored %s, named %s:\n%s' % (e['case'], e['check'], t['score'],
                                                                 t['extra_data'].get('diagnoses'),
                                                                 t['output']))
    assert not problems, '\n'.join(problems)
