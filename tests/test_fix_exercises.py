"""The find-and-fix exercises ("kind": "fix"): the student receives a
compiling, subtly broken kernel and must find and fix the fault.

  - one source: the student's file holds the fix and, after /* BROKEN */,
    the broken lines (`//~ `); the release ships the broken version, with no
    trace of the fix or of the markers, and the fix is a small change;
  - the shipped broken file compiles and fails exactly the checks its
    exercise.json names in "broken_fails" (a visible one among them, so the
    student sees the symptom, and it passes others: the bug is subtle), for
    a wrong answer, never for a crash or a refused build;
  - the solution passes every check (tests/test_grader.py grades every
    exercise's solution);
  - every chapter 1-10 has at least one, and its text in both languages
    names its grading command.
"""
import os
import re
import tempfile

from helpers import TOP
from grader_common import by_name, exercise, exercises, grade, grade_release, need_cc

CHAPTERS = os.path.join(TOP, 'chapters')


def fix_exercises():
    return [(d, m) for d, m in exercises(everything=True) if m.get('kind') == 'fix']


def test_every_chapter_has_a_find_and_fix_exercise_in_both_languages():
    have = {}
    for d, meta in fix_exercises():
        have.setdefault(meta['chapter'], []).append(meta['id'])
    missing = [str(c) for c in range(1, 11) if str(c) not in have]
    assert not missing, 'chapters without a find-and-fix exercise: %s' % ', '.join(missing)
    texts = {}
    for name in os.listdir(CHAPTERS):
        m = re.match(r'(\d\d)-.*\.nw$', name)
        if m:
            texts[str(int(m.group(1)))] = exercise.read(os.path.join(CHAPTERS, name))
    for chapter, ids in have.items():
        text = texts[chapter]
        for ex in ids:
            command = '[[make grade EX=%s]]' % ex
            mine = [e for e in re.findall(r'\\begin\{exercise\}(.*?)\\end\{exercise\}', text, re.S)
                    if command in e]
            assert len(mine) == 1, 'chapter %s: %d exercises name %s' % (chapter, len(mine), command)
            for lang, title in (('zh', '找错并修正'), ('en', 'Find and fix')):
                blocks = re.findall(r'\\begin\{%s\}\n(.*?)\\end\{%s\}' % (lang, lang), mine[0], re.S)
                assert any(command in b for b in blocks) and title in blocks[0], \
                    'chapter %s, %s: the %s text lacks %r or the command' % (chapter, ex, lang, title)


def test_the_release_file_is_the_broken_version_and_the_fix_is_small():
    for d, meta in fix_exercises():
        for f in meta['student_files']:
            path = os.path.join(d, f)
            source = exercise.read(path)
            shipped = exercise.make_stub(source, path)
            for marker in ('BEGIN FIX', 'END FIX', '/* BROKEN */', exercise.BROKEN_PREFIX,
                           'BEGIN SOLUTION', 'YOUR CODE HERE'):
                assert marker not in shipped, '%s: %r in the shipped file' % (path, marker)
            broken = [l[l.index('//~') + 4:].strip() for l in source.split('\n')
                      if l.lstrip().startswith('//~') and l.strip() != '//~']
            for line in broken:
                assert line in shipped, '%s: the broken line %r is not shipped' % (path, line)
            fixes = exercise.solution_lines(source)
            assert fixes, '%s: no line of the fix differs from the shipped file' % path
            for line in fixes:
                assert line.strip() not in shipped, '%s: the fix %r is shipped' % (path, line)
            # the fix is a small change: few lines differ between the two versions
            assert len(fixes) + len(broken) <= 8, '%s: the fix changes %d lines' % (
                path, len(fixes) + len(broken))
            assert re.search(r'find and fix', shipped, re.I) and '找出' in shipped, path
        names = {c['name'] for c in meta['checks']}
        visible = {c['name'] for c in meta['checks'] if not c.get('hidden')}
        fails = set(meta.get('broken_fails', ()))
        assert fails and fails <= names, '%s: broken_fails %s' % (meta['id'], fails - names)
        assert fails & visible, '%s: the broken file must fail a visible check' % meta['id']
        assert visible - fails, '%s: the broken file should pass some visible check' % meta['id']
        assert meta.get('forbidden'), '%s: forbid the book functions that solve it' % meta['id']


def test_markers_of_a_fix_are_checked():
    ok = 'a;\n/* BEGIN FIX */\nb = 1;\n/* BROKEN */\n    //~ b = 2;  /* c */\n/* END FIX */\n'
    assert exercise.make_stub(ok) == 'a;\n    b = 2;  /* c */\n'
    assert exercise.solution_lines(ok) == ['b = 1;']
    for bad in ('/* BEGIN FIX */\nb;\n/* BROKEN */\nc;\n/* END FIX */\n',   # no //~
                '/* BEGIN FIX */\nb;\n/* END FIX */\n',                    # no BROKEN
                '/* BROKEN */\n//~ c;\n/* END FIX */\n',                   # no BEGIN
                '/* BEGIN FIX */\nb;\n/* BROKEN */\n//~ c;\n',              # never closed
                'x; /* BEGIN FIX */\nb;\n/* BROKEN */\n//~ c;\n/* END FIX */\n'):
        try:
            exercise.make_stub(bad, 'bad.c')
        except exercise.MarkerError:
            continue
        raise AssertionError('make_stub accepted %r' % bad)


def test_the_broken_files_fail_exactly_the_expected_checks():
    """Grade the shipped (broken) files with every check, hidden ones too.
    (The solutions get full marks: tests/test_grader.py grades them all.)"""
    need_cc()
    fixes = [(d, m) for d, m in exercises() if m.get('kind') == 'fix']
    spec = ','.join(m['id'] for _, m in fixes)
    with tempfile.TemporaryDirectory() as sub:
        for d, meta in fixes:
            for f in meta['student_files']:
                with open(os.path.join(sub, f), 'w', encoding='utf-8') as out:
                    out.write(exercise.make_stub(exercise.read(os.path.join(d, f))))
        rc, data, out, _ = grade(['--ex', spec, '--submission', sub])
    results = by_name(data)
    problems = []
    for d, meta in fixes:
        want = set(meta['broken_fails'])
        for c in meta['checks']:
            t = results.get((meta['id'], c['name']))
            if t is None:
                problems.append('%s/%s: not graded' % (meta['id'], c['name']))
                continue
            failed = t['score'] != t['max_score']
            if failed != (c['name'] in want):
                problems.append('%s/%s: the broken file %s (expected to %s)\n%s' % (
                    meta['id'], c['name'], 'failed' if failed else 'passed',
                    'fail' if c['name'] in want else 'pass', t['output'][:400]))
            elif failed and t['extra_data']['reason'] != 'wrong':
                problems.append('%s/%s: failed for %r, not for a wrong answer:\n%s' % (
                    meta['id'], c['name'], t['extra_data']['reason'], t['output'][:400]))
    assert rc != 0
    assert not problems, '\n'.join(problems)
    # the visible failures show the hint written for the bug
    for d, meta in fixes:
        first = [c for c in meta['checks'] if c['name'] in meta['broken_fails']
                 and not c.get('hidden')][0]
        assert first['hint']['en'] in results[(meta['id'], first['name'])]['output']


def test_the_student_release_ships_the_broken_files():
    need_cc()
    spec = ' '.join(m['id'] for _, m in exercises() if m.get('kind') == 'fix')
    with tempfile.TemporaryDirectory() as tmp:
        dest, tarball, files = grade_release.student(TOP, spec=spec,
                                                     dest=os.path.join(tmp, 'student'))
    for d, meta in fix_exercises():
        ex = 'exercises/%s/' % meta['id']
        if ex + 'exercise.json' not in files:
            continue
        assert 'broken_fails' not in files[ex + 'exercise.json'], \
            '%s: the release says which (hidden) checks the broken file fails' % meta['id']
        for f in meta['student_files']:
            source = exercise.read(os.path.join(d, f))
            assert files[ex + f] == exercise.make_stub(source), '%s%s' % (ex, f)
            assert files[ex + f] != source
