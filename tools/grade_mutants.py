#!/usr/bin/python3
"""Grade every known wrong solution (exercises/ID/mutants/NAME.c) through the
real grader, sandboxed, on the check its manifest says catches it, and print
per exercise how many mutants are told their own mistake.

    tools/grade_mutants.py [--ex IDS] [--verbose]     (make grade-mutants)

Round r grades mutant r of every exercise in one grader run (student file
names are unique across exercises).  Exit status 0 when every mutant fails
its check with its own mistake named."""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))
import exercise  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--ex', default=os.environ.get('EX', ''))
    ap.add_argument('--build', default=os.path.join(ROOT, 'build', 'grade'))
    ap.add_argument('--lang', default='both', choices=('zh', 'en', 'both'))
    ap.add_argument('--verbose', action='store_true', help="print each mutant's feedback")
    args = ap.parse_args(argv)
    progs = [m for _, m in exercise.exercises(ROOT, args.ex) if m.get('mutants')]
    if not progs:
        raise SystemExit('grade_mutants: no exercise with mutants')
    total, named, lines = collections.Counter(), collections.Counter(), []
    for r in range(max(len(m['mutants']) for m in progs)):
        batch = [(m, m['mutants'][r]) for m in progs if r < len(m['mutants'])]
        with tempfile.TemporaryDirectory() as sub:
            for m, x in batch:
                shutil.copy(os.path.join(ROOT, 'exercises', m['id'], 'mutants', x['name'] + '.c'),
                            os.path.join(sub, m['student_files'][0]))
            results = os.path.join(sub, 'results.json')
            p = subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'grade.py'),
                                '--build', args.build, '--results', results, '--lang', args.lang,
                                '--ex', ','.join(m['id'] for m, _ in batch),
                                '--check', ','.join('%s/%s' % (m['id'], x['caught_by'])
                                                    for m, x in batch),
                                '--submission', sub], capture_output=True, text=True)
            if p.returncode not in (0, 1):
                raise SystemExit('grade_mutants: the grader failed:\n' + p.stderr[-2000:])
            with open(results, encoding='utf-8') as f:
                tests = {(t['extra_data']['exercise'], t['extra_data']['check']): t
                         for t in json.load(f)['tests']}
        for m, x in batch:
            t = tests[(m['id'], x['caught_by'])]
            ok = t['score'] == 0 and t['extra_data'].get('diagnoses') == [x['name']]
            total[m['id']] += 1
            named[m['id']] += ok
            if args.verbose or not ok:
                lines.append('%s %s/%s: %s' % ('named' if ok else 'NOT NAMED', m['id'], x['name'],
                                               x['caught_by']))
                lines += ['    ' + l for l in t['output'].splitlines()]
    print('\n'.join(lines))
    print('%-28s %8s %s' % ('exercise', 'mutants', 'told their own mistake'))
    for ex in sorted(total):
        print('%-28s %8d %d' % (ex, total[ex], named[ex]))
    print('%-28s %8d %d' % ('all', sum(total.values()), sum(named.values())))
    return 0 if total == named else 1


if __name__ == '__main__':
    sys.exit(main())
