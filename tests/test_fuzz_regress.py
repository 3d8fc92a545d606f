"""The fuzz targets' saved inputs, replayed (tests/fuzz/, make fuzz).

Every input in tests/fuzz/corpus/TARGET/ (what the fuzzer kept for coverage)
and tests/fuzz/regress/TARGET/ (every input that once crashed TARGET or broke
its contract) goes through build/fuzz/replay-TARGET: the target's code built
with ASan and UBSan but without libFuzzer.  A bug the fuzzer found and that
was fixed stays fixed.
"""
import os
import subprocess

from helpers import TOP

FUZZ = os.path.join(TOP, 'tests', 'fuzz')
BUILD = os.path.join(TOP, 'build', 'fuzz')


def targets():
    found = set()
    for kind in ('corpus', 'regress'):
        d = os.path.join(FUZZ, kind)
        if os.path.isdir(d):
            found.update(os.listdir(d))
    return sorted(found)


def replay(target, paths):
    binary = os.path.join(BUILD, 'replay-' + target)
    assert os.path.exists(binary), '%s is missing: run make test' % binary
    env = dict(os.environ, UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1')
    p = subprocess.run([binary] + paths, capture_output=True, text=True, timeout=300,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def test_every_target_has_saved_inputs():
    names = targets()
    for t in ('mat_read', 'mask', 'cli-ch02-attention', 'cli-ch04-masking'):
        assert t in names, 'no corpus for fuzz target %s in tests/fuzz/corpus/' % t
        assert os.listdir(os.path.join(FUZZ, 'corpus', t)), 'tests/fuzz/corpus/%s is empty' % t


def test_saved_inputs_replay_cleanly():
    failures = []
    for t in targets():
        dirs = [os.path.join(FUZZ, kind, t) for kind in ('corpus', 'regress')]
        rc, out, err = replay(t, [d for d in dirs if os.path.isdir(d)])
        if rc != 0 or 'replayed' not in out:
            last = [l for l in err.split('\n') if l.startswith('replay: ')][-1:]
            problem = [l for l in err.split('\n') if 'ERROR' in l or '***' in l or
                       'runtime error' in l][:3]
            failures.append('%s: status %d on %s: %s' % (
                t, rc, last[0][8:] if last else '?', ' / '.join(problem)))
    assert not failures, 'fuzz inputs that fail again:\n  ' + '\n  '.join(failures)


def test_cli_harness_catches_a_broken_contract():
    # tests/fuzz/selftest.c breaks the contract on purpose: the harness that
    # fuzzes the chapter programs must fail on it, and pass its good runs.
    import tempfile
    cases = [('--stdout', 'output on stdout'), ('--two-lines', 'exactly one line'),
             ('--status', 'neither 0 nor 2'), ('--bad', None), ('', None)]
    with tempfile.TemporaryDirectory() as tmp:
        for args, problem in cases:
            path = os.path.join(tmp, 'input')
            with open(path, 'w') as f:
                f.write(args)
            rc, out, err = replay('cli-selftest', [path])
            if problem:
                assert rc != 0 and problem in err, \
                    'selftest %s: the harness did not notice (%d): %s' % (args, rc, err[-300:])
            else:
                assert rc == 0, 'selftest %r: a good run failed: %s' % (args, err[-300:])
