"""Chapter 4: masking (build/bin/ch04-masking).

Masked attention is checked against NumPy (scores set to -inf where masked,
a softmax over the allowed keys only) and against torch.softmax with
masked_fill; causal masks are built independently with numpy.tril, aligned at
the end (query i sees keys j <= i + s_K - s_Q).  The book's rule for a query
whose keys are all masked (zero weights, zero output) is checked by hand.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import (TOP, run, TempDir, matrix_text, parse_matrices,  # noqa: E402
                     expect_bad_inputs, numpy, torch, assert_close as close,
                     assert_transcripts, verbatim_block)
from test_ch03 import mha_numpy  # noqa: E402

PROG = 'ch04-masking'


def masked_numpy(np, q, k, v, mask, kappa):
    s = kappa * q @ k.T
    w = np.zeros_like(s)
    for i in range(s.shape[0]):
        allowed = np.ones(s.shape[1], bool) if mask is None else mask[i] == 1
        if allowed.any():                     # else: the book's rule, zeros
            e = np.exp(s[i][allowed] - s[i][allowed].max())
            w[i][allowed] = e / e.sum()
    return w @ v, w


def causal(np, s_q, s_k):
    return np.tril(np.ones((s_q, s_k), int), k=s_k - s_q)


def run_case(np, q, k, v, mask=None, key_padding=None, scale=None, debug=False):
    with TempDir() as tmp:
        args = []
        for name, x in (('q', q), ('k', k), ('v', v)):
            args += ['--' + name, tmp.write(name + '.txt', matrix_text(x))]
        if isinstance(mask, str):
            args += ['--mask', mask]
        elif mask is not None:
            args += ['--mask', tmp.write('m.txt', matrix_text(mask))]
        if key_padding is not None:
            args += ['--key-padding', tmp.write('p.txt', matrix_text([key_padding]))]
        if scale is not None:
            args += ['--scale', repr(scale)]
        res = []
        for extra in ([], ['--weights']):
            rc, out, err = run(PROG, args + extra, debug=debug)
            assert rc == 0, 'exit %d: %s' % (rc, err)
            (m,) = parse_matrices(out)
            res.append(np.array(m))
    return res


def test_against_numpy():
    np = numpy()
    rng = np.random.default_rng(41)
    cases = [  # s_q, s_k, d_k, d_v, mask kind, key padding, scale
        (4, 4, 3, 2, 'causal', False, None), (3, 7, 5, 4, 'causal', False, None),
        (6, 5, 2, 3, 'random', False, 0.3), (5, 6, 4, 4, None, True, None),
        (4, 6, 3, 5, 'causal', True, None), (1, 1, 1, 1, 'causal', False, None),
        (7, 3, 2, 2, 'random', True, 2.0), (2, 9, 6, 1, None, False, None),
    ]
    for n, (s_q, s_k, d_k, d_v, kind, pad, scale) in enumerate(cases):
        q, k, v = rng.normal(size=(s_q, d_k)), rng.normal(size=(s_k, d_k)), \
            rng.normal(size=(s_k, d_v))
        mask = None
        if kind == 'causal':
            mask = causal(np, s_q, s_k)
        elif kind == 'random':
            mask = (rng.random((s_q, s_k)) < 0.5).astype(int)
        valid = None
        full = mask
        if pad:
            valid = [1] * (s_k - 2) + [0, 0] if s_k > 2 else [1] * s_k
            padm = np.tile(np.array(valid), (s_q, 1))
            full = padm if mask is None else mask * padm
        got, got_w = run_case(np, q, k, v, 'causal' if kind == 'causal' else mask, valid, scale)
        want, want_w = masked_numpy(np, q, k, v, full, scale or d_k ** -0.5)
        what = 'case %d (s_Q=%d, s_K=%d, mask=%s, padding=%s)' % (n, s_q, s_k, kind, pad)
        close(np, got, want, what + ' output')
        close(np, got_w, want_w, what + ' weights')
        if full is not None:
            assert not got_w[full == 0].any(), what + ': masked weights must be exactly 0'


def test_against_torch_softmax_and_sanitizer_build():
    np, t = numpy(), torch()
    rng = np.random.default_rng(42)
    s_q, s_k, d = 3, 8, 4
    q, k, v = rng.normal(size=(s_q, d)), rng.normal(size=(s_k, d)), rng.normal(size=(s_k, d))
    mask = causal(np, s_q, s_k)
    tq, tk, tv = (t.tensor(x) for x in (q, k, v))
    scores = (tq @ tk.T / d ** 0.5).masked_fill(t.tensor(mask == 0), float('-inf'))
    w = t.softmax(scores, dim=-1)
    for debug in (False, True):
        got, got_w = run_case(np, q, k, v, 'causal', debug=debug)
        close(np, got, (w @ tv).numpy(), 'output vs torch (debug=%s)' % debug)
        close(np, got_w, w.numpy(), 'weights vs torch (debug=%s)' % debug)


def test_causal_alignment_at_the_end():
    # The last queries alone give the last rows of the whole sequence.
    np = numpy()
    rng = np.random.default_rng(43)
    s, d = 7, 3
    q, k, v = rng.normal(size=(s, d)), rng.normal(size=(s, d)), rng.normal(size=(s, d))
    full, full_w = run_case(np, q, k, v, 'causal')
    last, last_w = run_case(np, q[-3:], k, v, 'causal')
    assert np.array_equal(last, full[-3:]) and np.array_equal(last_w, full_w[-3:])
    assert np.array_equal(last_w != 0, causal(np, 3, s) == 1)


def test_fully_masked_rows_are_zero_not_nan():
    np = numpy()
    rng = np.random.default_rng(44)
    q, k, v = rng.normal(size=(4, 3)), rng.normal(size=(5, 3)), rng.normal(size=(5, 2))
    mask = (rng.random((4, 5)) < 0.7).astype(int)
    mask[1] = 0
    mask[3] = 0
    mask[0, 0] = 1
    mask[2, 4] = 1
    got, got_w = run_case(np, q, k, v, mask)
    want, want_w = masked_numpy(np, q, k, v, mask, 3 ** -0.5)
    close(np, got, want, 'output')
    assert not got[1].any() and not got[3].any() and not got_w[1].any(), got
    close(np, got_w.sum(axis=1), [1, 0, 1, 0], 'row sums: 1, or 0 when all masked')
    # All keys padding: every row is fully masked.
    got, got_w = run_case(np, q, k, v, None, [0] * 5)
    assert not got.any() and not got_w.any()


def test_the_three_uses_recipe_runs_as_printed():
    # The chapter's command lines, taken from the .nw file and run by bash in a
    # scratch directory, against NumPy's multi-head attention stage by stage.
    np = numpy()
    recipe = verbatim_block('04-masking.nw', 'ENC.txt')
    with TempDir() as tmp:
        os.symlink(os.path.join(TOP, 'build'), os.path.join(tmp.path, 'build'))
        p = subprocess.run(['bash', '-euo', 'pipefail', '-c', recipe], cwd=tmp.path,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0 and p.stderr == '', 'the recipe failed: %s' % p.stderr

        def load(name):
            with open(os.path.join(tmp.path, name)) as f:
                return np.array(parse_matrices(f.read())[0])
        src, tgt, enc, dec = load('SRC.txt'), load('TGT.txt'), load('ENC.txt'), load('DEC.txt')
        w, b = [load('W%d.txt' % n) for n in (1, 2, 3, 4)], [None] * 4
    valid = np.array([1, 1, 1, 1, 1, 1, 0, 0])
    close(np, enc, mha_numpy(np, src, src, src, w, b, 2, np.tile(valid, (8, 1)))[0],
          'encoder self-attention')
    close(np, dec, mha_numpy(np, tgt, tgt, tgt, w, b, 2, causal(np, 6, 6))[0],
          'masked decoder self-attention')
    (cross,) = parse_matrices(p.stdout)
    close(np, cross, mha_numpy(np, dec, enc, enc, w, b, 2, np.tile(valid, (6, 1)))[0],
          'cross-attention')


def test_backward_against_torch_and_by_hand():
    # Against torch autograd where every row has a key to see; for a fully
    # masked row the gradients are 0 by the book's rule (its output is 0).
    np, t = numpy(), torch()
    rng = np.random.default_rng(46)
    for n, (s_q, s_k, d_k, d_v, kind) in enumerate([(4, 4, 3, 2, 'causal'),
                                                     (3, 6, 2, 4, 'causal'),
                                                     (5, 5, 4, 3, 'random')]):
        q, k, v = rng.normal(size=(s_q, d_k)), rng.normal(size=(s_k, d_k)), \
            rng.normal(size=(s_k, d_v))
        mask = causal(np, s_q, s_k) if kind == 'causal' else \
            (rng.random((s_q, s_k)) < 0.6).astype(int)
        if kind == 'random':
            mask[np.arange(s_q), rng.integers(0, s_k, s_q)] = 1
        dout = rng.normal(size=(s_q, d_v))
        with TempDir() as tmp:
            args = ['--q', tmp.write('q.txt', matrix_text(q)),
                    '--k', tmp.write('k.txt', matrix_text(k)),
                    '--v', tmp.write('v.txt', matrix_text(v)),
                    '--mask', 'causal' if kind == 'causal' else tmp.write('m.txt', matrix_text(mask)),
                    '--grad', tmp.write('d.txt', matrix_text(dout))]
            rc, out, err = run(PROG, args)
            assert rc == 0, err
        dq, dk, dv = (np.array(m) for m in parse_matrices(out))
        tq, tk, tv = (t.tensor(x).requires_grad_() for x in (q, k, v))
        s = (tq @ tk.T / d_k ** 0.5).masked_fill(t.tensor(mask == 0), float('-inf'))
        (t.softmax(s, dim=-1) @ tv * t.tensor(dout)).sum().backward()
        for name, got, x in (('dQ', dq, tq), ('dK', dk, tk), ('dV', dv, tv)):
            close(np, got, x.grad.numpy(), 'case %d %s' % (n, name))
    # A fully masked row contributes nothing, and receives nothing.
    q, k, v = rng.normal(size=(2, 2)), rng.normal(size=(3, 2)), rng.normal(size=(3, 2))
    with TempDir() as tmp:
        args = ['--q', tmp.write('q.txt', matrix_text(q)), '--k', tmp.write('k.txt', matrix_text(k)),
                '--v', tmp.write('v.txt', matrix_text(v)),
                '--mask', tmp.write('m.txt', matrix_text([[0, 0, 0], [1, 1, 0]])),
                '--grad', tmp.write('d.txt', matrix_text([[5.0, -3.0], [1.0, 2.0]]))]
        rc, out, err = run(PROG, args)
        assert rc == 0, err
    dq, dk, dv = (np.array(m) for m in parse_matrices(out))
    assert not dq[0].any() and not dk[2].any() and not dv[2].any(), out


def demo_output():
    rc, out, err = run(PROG)
    assert rc == 0 and err == '', 'demo: exit %d, stderr %r' % (rc, err)
    return out


def test_demo_numbers_quoted_in_the_text():
    out = demo_output()
    for s in ['row sums (zeroed after the softmax): 0.120 0.482 0.328 0.747 0.580 1.000',
              '  -inf before the softmax:  0\n  zeroed after the softmax: 0.444',
              'zeroed, renormalised (0/0):  NaN NaN', '-inf before the softmax:     1 0',
              '-inf, then the stable softmax:       NaN NaN NaN NaN',
              '-DBL_MAX, then the stable softmax:   0.25 0.25 0.25 0.25',
              'attention_masked, weights:           0 0 0 0',
              'attention_masked, output:            0',
              'mask rows: 111110 / 111111', 'outputs 0, weights 0',
              "max weight on a padding key: 0; above the decoder's diagonal: 0",
              'max change of the 6 real encoder outputs: 0']:
        assert s in out, 'the demo should print %r:\n%s' % (s, out)


def test_chapter_transcripts_are_the_demo_output():
    """Each verbatim block marked '% transcript: ch04-masking' in the chapter
    is a run of consecutive lines of the demo's output, character for character."""
    assert_transcripts('04-masking.nw', PROG, demo_output(), at_least=5)


def test_figure_data_by_algebra():
    # Zeroing after the softmax divides by the sum over all keys instead of
    # the allowed ones, so on the allowed keys the zeroed row is the right row
    # times its own sum: wz_i = w_i * sum_j wz_ij.
    np = numpy()
    rc, out, err = run(PROG, ['--figure'])
    assert rc == 0, err
    assert out.startswith('# tokens: the cat sat on the mat\n')
    m, w, wz = [np.array([[float(x) for x in l.split()] for l in b.strip().split('\n')
                          if not l.startswith('#')]) for b in out.split('\n\n\n')]
    assert np.array_equal(m, causal(np, 6, 6))
    close(np, w.sum(axis=1), np.ones(6), 'right weights sum to 1')
    assert not w[m == 0].any() and not wz[m == 0].any()
    close(np, wz, w * wz.sum(axis=1, keepdims=True), 'zeroed = right * row sum')
    sums = ' '.join('%.3f' % x for x in wz.sum(axis=1))
    assert sums == '0.120 0.482 0.328 0.747 0.580 1.000', sums


def test_help_and_demo():
    # (how long the demo takes is measured by `make bench-demos`, not here)
    rc, out, err = run(PROG, ['--help'])
    assert rc == 0 and 'usage: ch04-masking' in out and err == ''
    assert '掩码' in run(PROG, ['--help', '--lang', 'zh'])[1]  # Chinese help: --lang zh (Appendix D)
    demo_output()


def bad_cases(tmp, np):
    rng = np.random.default_rng(45)
    f = lambda name, x: tmp.write(name, matrix_text(x))   # noqa: E731
    q, k, v = f('q.txt', rng.normal(size=(3, 2))), f('k.txt', rng.normal(size=(4, 2))), \
        f('v.txt', rng.normal(size=(4, 3)))
    base = ['--q', q, '--k', k, '--v', v]
    return [
        (base + ['--mask', f('m.txt', np.ones((4, 3)))], ['--mask', '4 x 3', '3 x 4']),
        (base + ['--mask', f('mh.txt', [[1, 1, 0.5, 1]] * 3)], ['row 1, column 3', '0.5']),
        (base + ['--mask', f('mn.txt', [[1, 1, -1, 1]] * 3)], ['-1']),
        (['--q', k, '--k', q, '--v', f('v3.txt', rng.normal(size=(3, 2))), '--mask',
          'causal'], ['causal', 's_Q = 4 > s_K = 3']),
        (base + ['--key-padding', 'causal'], ['--key-padding', 'causal']),
        (base + ['--key-padding', f('p.txt', [[1, 1, 0]])], ['--key-padding', '1 x 3',
                                                            '1 x 4']),
        (base + ['--key-padding', f('p2.txt', [[1, 1, 0, 3]])], ['--key-padding', '3']),
        (base + ['--scale', '0'], ['--scale']), (base + ['--scale', 'big'], ['--scale']),
        (base + ['--scale', 'nan'], ['--scale']), (base + ['--scale'], ['needs a value']),
        (['--q', q, '--k', k], ['--v is missing']), (['--weights'], ['--q is missing']),
        (['--q', q, '--k', f('k3.txt', rng.normal(size=(4, 3))), '--v', v], ['d_K']),
        (['--q', q, '--k', k, '--v', f('v5.txt', rng.normal(size=(5, 3)))],
         ['V has 5 rows but K has 4']),
        (base + ['--mask', os.path.join(tmp.path, 'none.txt')], ['none.txt', 'cannot open']),
        (base + ['--mask', tmp.write('bad.txt', '3 4\n1 1 1 1\n1 1 1\n1 1 1 1\n')],
         ['bad.txt:3:', 'expected 4 numbers, found 3']),
        (base + ['--bogus'], ['unknown option', '--bogus']),
        (base + ['stray'], ['unexpected argument', 'stray']),
        (base + ['--mask', 'causal', '--key-padding', f('p4.txt', [[1, 0.5, 1, 1]])],
         ['--key-padding', '0.5']),
        (['--q', tmp.write('inf.txt', '3 2\n1 2\n3 inf\n5 6\n'), '--k', k, '--v', v],
         ['inf.txt:3:', 'infinity']),
        (['--q', q, '--k', tmp.write('huge.txt', '99999 99999\n'), '--v', v],
         ['huge.txt:1:', 'too large']),
        (['--q', q, '--k', k, '--v', tmp.write('zero.txt', '0 3\n')], ['zero.txt:1:']),
        (base + ['--grad', f('g.txt', rng.normal(size=(3, 2)))], ['--grad', '3 x 2', '3 x 3']),
        (base + ['--grad', f('g2.txt', rng.normal(size=(3, 3))), '--weights'], ['--grad']),
        (['--figure', '--q', q], ['--figure']),
    ]


def test_bad_input_on_both_builds():
    np = numpy()
    with TempDir() as tmp:
        expect_bad_inputs(PROG, bad_cases(tmp, np))


def test_sanitizer_build_demo():
    rc, out, err = run(PROG, debug=True)
    assert rc == 0 and err == '', 'debug demo: exit %d, stderr %r' % (rc, err[:500])
    assert out == demo_output()
