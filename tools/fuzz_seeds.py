#!/usr/bin/env python3
"""Seed inputs for a fuzz target whose corpus is empty.

    tools/fuzz_seeds.py TARGET DIR [BIN]

cli-PROGRAM: each usage line of `BIN --help` becomes an argument list (one
argument per line) with every placeholder (ROWS, FILE, Q, ...) replaced by a
fixture (tests/fuzz/fixtures/x, a 4 x 4 matrix) or a small number, and every
option alone; mat_read: the fixtures; mask: a few masks by hand.
"""
import hashlib
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(TOP, 'tests', 'fuzz', 'fixtures')


def cli_seeds(binary):
    text = subprocess.run([binary, '--help'], capture_output=True, text=True).stdout
    name = os.path.basename(binary)
    seeds, options = [], set(re.findall(r'--[a-z][a-z0-9-]*', text))
    for line in text.split('\n'):
        m = re.search(r'(?:^|\s)%s((?: \S+)*)' % re.escape(name), line)
        if not m:                           # its words, up to two spaces
            continue
        words = m.group(1).replace('[', ' ').replace(']', ' ').split()
        args = []
        for w in words:
            if w.startswith('(') or w == '...':
                break
            w = w.split('|')[0]
            if re.fullmatch(r'[A-Z][A-Z0-9_]*(\.\.\.)?', w):
                args.append('4' if w in ('ROWS', 'COLS', 'N', 'D', 'K', 'L', 'R', 'S', 'T',
                                         'S_K') and not args[-1:] == ['--x'] else 'x')
            else:
                args.append(w)
        seeds.append(args)
    seeds += [[o] for o in sorted(options)] + [[o, '1'] for o in sorted(options)]
    return ['\n'.join(a).encode() for a in seeds if a]


def main():
    target, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if target.startswith('cli-'):
        seeds = cli_seeds(sys.argv[3])
    elif target == 'mat_read':
        seeds = [open(os.path.join(FIXTURES, f), 'rb').read()
                 for f in sorted(os.listdir(FIXTURES)) if f != 'README']
    elif target == 'mask':
        m = open(os.path.join(FIXTURES, 'm'), 'rb').read()
        p = open(os.path.join(FIXTURES, 'p'), 'rb').read()
        seeds = [bytes([1, 3, 3]), bytes([1, 5, 2]), bytes([2, 3, 3]) + m,
                 bytes([2 | 3 << 2, 3, 3]) + m + b'\0' + p, bytes([3 << 2, 3, 3]) + b'\0' + p,
                 bytes([1 | 3 << 2, 3, 3]) + b'\0' + p, bytes([1 << 2, 3, 3])]
    else:
        sys.exit('fuzz_seeds.py: unknown target ' + target)
    for s in seeds:
        with open(os.path.join(out, hashlib.sha1(s).hexdigest()), 'wb') as f:
            f.write(s)


if __name__ == '__main__':
    main()
