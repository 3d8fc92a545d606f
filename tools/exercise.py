#!/usr/bin/python3
"""The exercises, read once: one loader of exercises/ID/exercise.json and one
scanner of the markers in an exercise's files, for the grader
(tools/grade.py), the release maker (tools/grade_release.py) and every other
reader (tools/course.py, tools/grade_mutants.py, tools/bench.py, the tests).
It ships in both releases with the grader, so no marker is spelled out whole
here: the releases hold none.

    tools/exercise.py list      one line per exercise: id, number, title, files

Markers (each alone on its line, inside a C comment; the names below are
what follows BEGIN and END):

    SOLUTION    the reference solution; the stub has /* YOUR CODE HERE */
    STUB        opened by a comment `/* BEGIN STUB` and closed by `END STUB */`:
                code for the stub only, a comment in the solution
    FIX         BEGIN FIX, then BROKEN, then END FIX: the lines before BROKEN
                are the fix (the solution); each line after it starts with
                `//~` and is the broken code the student receives
    HIDDEN      in checks.c: the hidden checks, left out of the student
                release and built apart from the visible ones

Check names and which are hidden: checks.c says, once.  Each CHECK(name) of
checks.c is a check (the checks program's `--list` gives the same names: the
grader compares them when it runs the solution); a check between the HIDDEN
markers is hidden.  exercise.json gives each check, by name and in the same
order, its points and its hints; it does not say which are hidden.  The
loader reads both and refuses an exercise where they disagree; the checks it
returns carry "hidden": true for the hidden ones.
"""
import fnmatch
import json
import os
import re
import sys

B, E = 'BEGIN ', 'END '                 # never joined to a marker's name here
SOLUTION = (B + 'SOLUTION', E + 'SOLUTION')
STUB = (B + 'STUB', E + 'STUB')
HIDDEN = (B + 'HIDDEN', E + 'HIDDEN')
FIX = (B + 'FIX', 'BROKEN', E + 'FIX')
BROKEN_PREFIX = '//~'
CHECK = re.compile(r'\s*CHECK\((\w+)\)')


class MarkerError(ValueError):
    """A file whose markers are missing, misplaced or malformed."""


class ExerciseError(ValueError):
    """An exercise whose exercise.json is incomplete or disagrees with checks.c."""


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


# ---------------------------------------------------------------- markers
def _blocks(lines, begin, end, path):
    """Check that BEGIN/END markers of one kind pair up, unnested."""
    depth_open = None
    for i, line in enumerate(lines):
        has_b, has_e = begin in line, end in line
        if has_b and has_e:
            raise MarkerError('%s:%d: %s and %s on one line' % (path, i + 1, begin, end))
        if has_b:
            if depth_open is not None:
                raise MarkerError('%s:%d: %s inside another (opened at line %d)'
                                  % (path, i + 1, begin, depth_open + 1))
            depth_open = i
        elif has_e:
            if depth_open is None:
                raise MarkerError('%s:%d: %s without %s' % (path, i + 1, end, begin))
            depth_open = None
    if depth_open is not None:
        raise MarkerError('%s:%d: %s is never closed' % (path, depth_open + 1, begin))


def _fix_blocks(lines, path):
    """Check the FIX markers: BEGIN FIX, BROKEN, END FIX, each alone on its
    line, in that order, not nested."""
    state = None
    for i, line in enumerate(lines):
        for word, before, after in ((FIX[0], None, 'fix'), (FIX[1], 'fix', 'broken'),
                                    (FIX[2], 'broken', None)):
            if re.search(r'/\*\s*%s\s*\*/' % word, line) or \
                    (word != FIX[1] and word in line):
                if line.strip() != '/* %s */' % word:
                    raise MarkerError('%s:%d: write the marker alone: /* %s */' % (path, i + 1, word))
                if state != before:
                    raise MarkerError('%s:%d: /* %s */ out of order (%s)'
                                      % (path, i + 1, word, ', '.join(FIX)))
                state = after
    if state is not None:
        raise MarkerError('%s: a FIX block is never closed' % path)


def _broken_line(line, path, i):
    """A `//~ code` line of a BROKEN block as shipped: the prefix (and the
    one space after it) removed, the indentation kept."""
    indent = line[:len(line) - len(line.lstrip())]
    rest = line.lstrip()
    if not rest.startswith(BROKEN_PREFIX):
        raise MarkerError('%s:%d: every line after /* %s */ starts with %s'
                          % (path, i + 1, FIX[1], BROKEN_PREFIX))
    rest = rest[len(BROKEN_PREFIX):]
    return (indent + rest[1:] if rest.startswith(' ') else indent + rest).rstrip()


def scan(text, path='<file>', hidden=True):
    """The one marker scanner: every line of TEXT as (region, line), region
    'code' (outside every block), 'solution', 'stub', 'fix', 'broken' (the
    `//~` prefix removed), 'hidden', or the marker itself for a marker line
    (SOLUTION[0], FIX[1], ...).  Raises MarkerError for a marker missing,
    nested, out of order or not alone on its line; also for HIDDEN markers
    unless HIDDEN (they belong in checks.c alone)."""
    lines = text.split('\n')
    _blocks(lines, SOLUTION[0], SOLUTION[1], path)
    _fix_blocks(lines, path)
    _blocks(lines, STUB[0], STUB[1], path)
    if not hidden and HIDDEN[0] in text:
        raise MarkerError('%s: hidden checks belong in checks.c' % path)
    _blocks(lines, HIDDEN[0], HIDDEN[1], path)
    out, mode = [], None
    for i, line in enumerate(lines):
        s = line.strip()
        if s == '/* %s */' % FIX[0]:
            mode = 'fix'
            out.append((FIX[0], line))
        elif s == '/* %s */' % FIX[1] and mode == 'fix':
            mode = 'broken'
            out.append((FIX[1], line))
        elif s == '/* %s */' % FIX[2]:
            mode = None
            out.append((FIX[2], line))
        elif mode == 'fix':
            out.append(('fix', line))
        elif mode == 'broken':
            out.append(('broken', _broken_line(line, path, i)))
        elif SOLUTION[0] in line:
            if s != '/* %s */' % SOLUTION[0]:
                raise MarkerError('%s:%d: write the marker alone: /* %s */'
                                  % (path, i + 1, SOLUTION[0]))
            mode = 'solution'
            out.append((SOLUTION[0], line))
        elif SOLUTION[1] in line:
            mode = None
            out.append((SOLUTION[1], line))
        elif STUB[0] in line:
            if s != '/* ' + STUB[0]:
                raise MarkerError('%s:%d: write the marker alone: /* %s' % (path, i + 1, STUB[0]))
            mode = 'stub'
            out.append((STUB[0], line))
        elif STUB[1] in line:
            if s != STUB[1] + ' */':
                raise MarkerError('%s:%d: write the marker alone: %s */' % (path, i + 1, STUB[1]))
            mode = None
            out.append((STUB[1], line))
        elif mode == 'stub':
            if '*/' in line or '/*' in line:
                raise MarkerError('%s:%d: no comments inside a STUB block' % (path, i + 1))
            out.append(('stub', line))
        elif HIDDEN[0] in line:
            mode = 'hidden'
            out.append((HIDDEN[0], line))
        elif HIDDEN[1] in line:
            mode = None
            out.append((HIDDEN[1], line))
        else:
            out.append((mode or 'code', line))
    return out


def make_stub(text, path='<file>'):
    """The student's version of an exercise file: solutions out, stubs in;
    in a find-and-fix exercise, the fix out and the broken lines in."""
    out = []
    for region, line in scan(text, path, hidden=False):
        if region in ('code', 'stub', 'broken'):
            out.append(line)
        elif region == SOLUTION[0]:
            out.append(line[:len(line) - len(line.lstrip())] + '/* YOUR CODE HERE */')
    return '\n'.join(out)


def solution_lines(text, path='<file>'):
    """The lines of the SOLUTION blocks, and the fixes of a find-and-fix
    exercise (to prove none leaks).  A line of a fix that the shipped file
    has anyway (a loop header, a brace) is no secret and is left out."""
    regions = scan(text, path, hidden=False)
    out = [line for region, line in regions if region == 'solution']
    fixes = [line for region, line in regions if region == 'fix']
    if fixes:
        shipped = make_stub(text, path)
        out += [l for l in fixes if l.strip() not in shipped]
    return out


def strip_hidden(text, path='<file>'):
    """checks.c without its hidden checks (nor the HIDDEN markers)."""
    return '\n'.join(line for region, line in scan(text, path) if region == 'code')


def check_names(text, path='<file>'):
    """[(name, hidden)] of the CHECK(name) lines of a checks.c, in order."""
    out = []
    for region, line in scan(text, path):
        m = CHECK.match(line)
        if m and region in ('code', 'hidden'):
            out.append((m.group(1), region == 'hidden'))
    return out


# ---------------------------------------------------------------- loading
REQUIRED = ('id', 'title', 'student_files', 'functions', 'checks', 'tolerance')


def load(d):
    """The metadata of the exercise in directory D, validated: exercise.json
    complete, its checks those of checks.c in the same order, and each check
    "hidden": true where checks.c hides it."""
    path = os.path.join(d, 'exercise.json')
    try:
        meta = json.loads(read(path))
    except ValueError as e:
        raise ExerciseError('%s: %s' % (path, e))
    for key in REQUIRED:
        if key not in meta:
            raise ExerciseError('%s: exercise.json lacks %r' % (d, key))
    if meta['id'] != os.path.basename(d):
        raise ExerciseError('%s: id %r differs from its directory name' % (d, meta['id']))
    ex = meta['id']
    if not (meta['title'].get('en') and meta['title'].get('zh')):
        raise ExerciseError('%s: a title in both languages' % ex)
    in_json = [c['name'] for c in meta['checks']]
    if len(set(in_json)) != len(in_json):
        raise ExerciseError('%s: two checks share a name' % ex)
    for c in meta['checks']:
        if 'hidden' in c:
            raise ExerciseError('%s/%s: say "hidden" in checks.c (between the HIDDEN markers), '
                                'not in exercise.json' % (ex, c['name']))
        if not (isinstance(c.get('points'), int) and c['points'] > 0):
            raise ExerciseError('%s/%s: points' % (ex, c['name']))
        if not (c.get('hint', {}).get('en') and c['hint'].get('zh')):
            raise ExerciseError('%s/%s: a hint in both languages' % (ex, c['name']))
    in_c = check_names(read(os.path.join(d, 'checks.c')), os.path.join(d, 'checks.c'))
    if [n for n, _ in in_c] != in_json:
        raise ExerciseError('%s: checks.c has %s, exercise.json has %s (the same checks, in the '
                            'same order)' % (ex, [n for n, _ in in_c], in_json))
    hidden = {n for n, h in in_c if h}
    for c in meta['checks']:
        needs = c.get('counts_with', [])
        if not isinstance(needs, list) or c['name'] in needs or not set(needs) <= set(in_json):
            raise ExerciseError('%s/%s: "counts_with" lists other checks of the exercise'
                                % (ex, c['name']))
        if needs and set(needs) <= hidden:
            raise ExerciseError('%s/%s: "counts_with" needs a visible check, or a student\'s own '
                                'run (no hidden checks) could not apply it' % (ex, c['name']))
    meta['checks'] = [dict(c, hidden=True) if c['name'] in hidden else c for c in meta['checks']]
    return meta


def missing(root, meta):
    """The headers the exercise "requires" that code/ lacks: its chapter's
    code is not in this tree."""
    return [h for h in meta.get('requires', []) if not os.path.isfile(os.path.join(root, 'code', h))]


def directories(root):
    """exercises/ID/ of every exercise (a directory with an exercise.json, not
    one whose name starts with _ or .), sorted."""
    base = os.path.join(root, 'exercises')
    return [os.path.join(base, n) for n in sorted(os.listdir(base))
            if not n.startswith(('_', '.')) and os.path.isfile(os.path.join(base, n, 'exercise.json'))]


def matching(ids, spec):
    """(the ids SPEC names, the patterns of SPEC that name none).  SPEC: ids
    or globs ('ch02-*'), comma- or space-separated; empty: every id."""
    pats = [p for p in re.split(r'[,\s]+', spec or '') if p]
    if not pats:
        return list(ids), []
    chosen = [i for i in ids if any(fnmatch.fnmatchcase(i, p) for p in pats)]
    return chosen, [p for p in pats if not any(fnmatch.fnmatchcase(i, p) for i in ids)]


def exercises(root, spec='', everything=False):
    """[(directory, metadata)] of the exercises SPEC names (all if empty);
    unless EVERYTHING, only those whose required headers are in code/."""
    out = [(d, load(d)) for d in directories(root)]
    if not everything:
        out = [(d, m) for d, m in out if not missing(root, m)]
    if spec:
        chosen, _ = matching([m['id'] for _, m in out], spec)
        out = [(d, m) for d, m in out if m['id'] in chosen]
        if not out:
            raise SystemExit('grade_release: no exercise matches %r' % spec)
    return out


def shipped_meta(meta):
    """exercise.json as written (checks.c says which checks are hidden): a
    release ships it, less what the release must not hold."""
    m = dict(meta)
    m['checks'] = [{k: v for k, v in c.items() if k != 'hidden'} for c in meta['checks']]
    return m


def main(argv):
    if argv[1:] != ['list']:
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for d, m in exercises(root, everything=True):
        print('%-28s %-5s %s  (%s)' % (m['id'], m.get('exercise', ''), m['title']['en'],
                                       ', '.join(m['student_files'])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
