"""Chapter 3: multi-head attention (build/bin/ch03-multi-head).

The numbers are checked against two independent implementations: PyTorch's
nn.MultiheadAttention (Debian's python3-torch, float64), with the book's
matrices handed over through the correspondence the chapter states
(in_proj_weight = [W_Q^T; W_K^T; W_V^T], out_proj.weight = W_O^T), and a
NumPy loop over heads written from equation (3).  Agreement: every entry
within 1e-5 relative (plus 1e-9 absolute for entries near zero).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import (run, TempDir, matrix_text, parse_matrices,  # noqa: E402
                     expect_bad_inputs, numpy, torch, assert_close as close,
                     assert_transcripts)

PROG = 'ch03-multi-head'


def mha_numpy(np, q, k, v, w, b, h, mask):
    """Equation (3) head by head, from the chapter's convention: head i uses
    columns i*d_k .. (i+1)*d_k - 1 of X W + b.  A query whose keys are all
    masked gets zero weights (the book's rule)."""
    d = q.shape[1]
    d_k = d // h
    proj = [x @ w[n] + (b[n] if b[n] is not None else 0.0) for n, x in enumerate((q, k, v))]
    heads, weights = [], []
    for i in range(h):
        cols = slice(i * d_k, (i + 1) * d_k)
        s = proj[0][:, cols] @ proj[1][:, cols].T / np.sqrt(d_k)
        wt = np.zeros_like(s)
        for r in range(s.shape[0]):
            allowed = np.ones(s.shape[1], bool) if mask is None else mask[r] == 1
            if allowed.any():
                e = np.where(allowed, np.exp(s[r] - s[r][allowed].max()), 0.0)
                wt[r] = e / e.sum()
        heads.append(wt @ proj[2][:, cols])
        weights.append(wt)
    out = np.concatenate(heads, axis=1) @ w[3] + (b[3] if b[3] is not None else 0.0)
    return out, weights


def torch_mha(t, np, w, b, h):
    """torch.nn.MultiheadAttention holding the book's weights and biases, by
    the correspondence the chapter states (PyTorch stores the transposes)."""
    d = w[0].shape[0]
    bias = b[0] is not None
    m = t.nn.MultiheadAttention(d, h, bias=bias, batch_first=True, dtype=t.float64)
    with t.no_grad():
        m.in_proj_weight.copy_(t.tensor(np.concatenate([w[0].T, w[1].T, w[2].T])))
        m.out_proj.weight.copy_(t.tensor(w[3].T))
        if bias:
            m.in_proj_bias.copy_(t.tensor(np.concatenate([b[0], b[1], b[2]])))
            m.out_proj.bias.copy_(t.tensor(b[3]))
    return m


def mha_torch(t, np, q, k, v, w, b, h, mask):
    """The same through torch.nn.MultiheadAttention."""
    m = torch_mha(t, np, w, b, h)
    attn_mask = None if mask is None else t.tensor(mask == 0)   # True: masked
    with t.no_grad():
        out, wts = m(*(t.tensor(x)[None] for x in (q, k, v)), attn_mask=attn_mask,
                     need_weights=True, average_attn_weights=False)
    return out[0].numpy(), [wts[0, i].numpy() for i in range(h)]


def write_case(tmp, np, q, k, v, w, b, mask=None):
    """Write a case's matrices; return the program's arguments (without --heads)."""
    args = []
    for name, x in (('q', q), ('k', k), ('v', v)):
        args += ['--' + name, tmp.write(name + '.txt', matrix_text(x))]
    for n, name in enumerate(('wq', 'wk', 'wv', 'wo')):
        args += ['--' + name, tmp.write(name + '.txt', matrix_text(w[n]))]
        if b[n] is not None:
            bname = 'b' + name[1]
            args += ['--' + bname, tmp.write(bname + '.txt', matrix_text([b[n]]))]
    if isinstance(mask, str):
        args += ['--mask', mask]
    elif mask is not None:
        args += ['--mask', tmp.write('mask.txt', matrix_text(mask))]
    return args


def random_case(np, rng, h, d_k, s_q, s_k, bias, mask_kind):
    d = h * d_k
    q, k, v = rng.normal(size=(s_q, d)), rng.normal(size=(s_k, d)), rng.normal(size=(s_k, d))
    w = [rng.normal(scale=d ** -0.5, size=(d, d)) for _ in range(4)]
    b = [rng.normal(size=d) if bias else None for _ in range(4)]
    mask = None
    if mask_kind == 'random':
        mask = (rng.random((s_q, s_k)) < 0.6).astype(int)
        mask[np.arange(s_q), rng.integers(0, s_k, s_q)] = 1     # no fully masked row
    elif mask_kind == 'causal':
        mask = np.tril(np.ones((s_q, s_k), int), k=s_k - s_q)
    return q, k, v, w, b, mask


def run_case(np, q, k, v, w, b, h, mask, causal=False, debug=False):
    with TempDir() as tmp:
        args = write_case(tmp, np, q, k, v, w, b, 'causal' if causal else mask)
        args += ['--heads', str(h)]
        rc, out, err = run(PROG, args, debug=debug)
        assert rc == 0, 'exit %d: %s' % (rc, err)
        rc, wout, err = run(PROG, args + ['--weights'], debug=debug)
        assert rc == 0, 'exit %d: %s' % (rc, err)
    (o,) = parse_matrices(out)
    heads = parse_matrices(wout)
    assert len(heads) == h, '--weights printed %d matrices for %d heads' % (len(heads), h)
    assert wout.count('# head ') == h
    return np.array(o), [np.array(x) for x in heads]


CASES = [  # h, d_k, s_q, s_k, biases, mask
    (1, 4, 3, 5, False, None), (2, 3, 4, 4, True, None), (3, 2, 5, 7, True, 'random'),
    (4, 2, 6, 6, False, 'causal'), (6, 1, 2, 9, True, 'causal'), (2, 5, 7, 3, True, 'random'),
    (8, 2, 1, 4, False, None), (3, 3, 4, 6, False, 'random'),
]


def test_against_pytorch_multihead_attention():
    np, t = numpy(), torch()
    rng = np.random.default_rng(31)
    for n, (h, d_k, s_q, s_k, bias, kind) in enumerate(CASES):
        q, k, v, w, b, mask = random_case(np, rng, h, d_k, s_q, s_k, bias, kind)
        got, got_w = run_case(np, q, k, v, w, b, h, mask, causal=(kind == 'causal'))
        want, want_w = mha_torch(t, np, q, k, v, w, b, h, mask)
        what = 'case %d (h=%d, d_model=%d, s_Q=%d, s_K=%d, biases=%s, mask=%s)' % (
            n, h, h * d_k, s_q, s_k, bias, kind)
        close(np, got, want, what + ' output')
        for i in range(h):
            close(np, got_w[i], want_w[i], what + ' weights of head %d' % (i + 1))


def test_against_numpy_with_some_biases():
    # Each bias is optional on its own; PyTorch has all or none, so NumPy checks this.
    np = numpy()
    rng = np.random.default_rng(32)
    for n, (h, d_k, s_q, s_k) in enumerate([(2, 2, 3, 5), (4, 3, 6, 2), (1, 6, 4, 4)]):
        q, k, v, w, b, mask = random_case(np, rng, h, d_k, s_q, s_k, True, 'random')
        b[n % 4] = None
        b[(n + 2) % 4] = None
        got, got_w = run_case(np, q, k, v, w, b, h, mask)
        want, want_w = mha_numpy(np, q, k, v, w, b, h, mask)
        close(np, got, want, 'case %d output' % n)
        for i in range(h):
            close(np, got_w[i], want_w[i], 'case %d head %d weights' % (n, i + 1))


def test_sanitizer_build_agrees():
    np = numpy()
    rng = np.random.default_rng(33)
    q, k, v, w, b, mask = random_case(np, rng, 3, 2, 4, 6, True, 'causal')
    got, got_w = run_case(np, q, k, v, w, b, 3, mask, causal=True, debug=True)
    want, want_w = mha_numpy(np, q, k, v, w, b, 3, mask)
    close(np, got, want, 'debug build output')


def test_fully_masked_row_gives_the_output_bias():
    # The book's rule: zero weights, zero head outputs, so the row is exactly b_O.
    np = numpy()
    rng = np.random.default_rng(34)
    q, k, v, w, b, mask = random_case(np, rng, 2, 3, 4, 5, True, 'random')
    mask[2] = 0
    got, got_w = run_case(np, q, k, v, w, b, 2, mask)
    want, _ = mha_numpy(np, q, k, v, w, b, 2, mask)
    close(np, got, want, 'output with a fully masked row')
    assert np.array_equal(got[2], np.array([float('%.9g' % x) for x in b[3]])), \
        'the fully masked row should be b_O: %s vs %s' % (got[2], b[3])
    for i in range(2):
        assert not got_w[i][2].any(), 'head %d: weights of the masked row %s' % (i + 1, got_w[i][2])
    b = [x for x in b[:3]] + [None]
    got, _ = run_case(np, q, k, v, w, b, 2, mask)
    assert not got[2].any(), 'without b_O the fully masked row should be 0: %s' % got[2]


def test_pytorch_gives_nan_on_a_fully_masked_row():
    # The chapter says PyTorch 1.13's nn.MultiheadAttention returns NaN there.
    np, t = numpy(), torch()
    rng = np.random.default_rng(35)
    q, k, v, w, b, mask = random_case(np, rng, 2, 2, 3, 3, True, 'random')
    mask[1] = 0
    out, wts = mha_torch(t, np, q, k, v, w, b, 2, mask)
    assert np.isnan(out[1]).all() and np.isnan(wts[0][1]).all(), out[1]
    assert np.isfinite(out[0]).all()


def run_grad(np, q, k, v, w, b, h, mask, dout):
    with TempDir() as tmp:
        args = write_case(tmp, np, q, k, v, w, b, mask) + ['--heads', str(h)]
        args += ['--grad', tmp.write('dout.txt', matrix_text(dout))]
        rc, out, err = run(PROG, args)
        assert rc == 0, 'exit %d: %s' % (rc, err)
    names = re.findall(r'^# (dL/d\S+)$', out, re.M)
    return dict(zip(names, (np.array(m) for m in parse_matrices(out))))


def test_backward_against_pytorch_autograd():
    # L = sum(dout * out); PyTorch differentiates its own forward in float64.
    np, t = numpy(), torch()
    rng = np.random.default_rng(37)
    for n, (h, d_k, s_q, s_k, bias, kind) in enumerate(CASES[:6]):
        q, k, v, w, b, mask = random_case(np, rng, h, d_k, s_q, s_k, bias, kind)
        dout = rng.normal(size=(s_q, h * d_k))
        got = run_grad(np, q, k, v, w, b, h, mask, dout)
        d = h * d_k
        m = torch_mha(t, np, w, b, h)
        tq, tk, tv = (t.tensor(x)[None].requires_grad_() for x in (q, k, v))
        attn_mask = None if mask is None else t.tensor(mask == 0)
        out, _ = m(tq, tk, tv, attn_mask=attn_mask, need_weights=False)
        (out[0] * t.tensor(dout)).sum().backward()
        what = 'case %d (h=%d, s_Q=%d, s_K=%d, biases=%s, mask=%s)' % (n, h, s_q, s_k,
                                                                        bias, kind)
        for name, x in (('dL/dQ', tq), ('dL/dK', tk), ('dL/dV', tv)):
            close(np, got[name], x.grad[0].numpy(), what + ' ' + name)
        wg = m.in_proj_weight.grad.numpy()
        for i, name in enumerate(('dL/dW_Q', 'dL/dW_K', 'dL/dW_V')):
            close(np, got[name], wg[i * d:(i + 1) * d].T, what + ' ' + name)
        close(np, got['dL/dW_O'], m.out_proj.weight.grad.numpy().T, what + ' dL/dW_O')
        if bias:
            bg = m.in_proj_bias.grad.numpy()
            for i, name in enumerate(('dL/db_Q', 'dL/db_K', 'dL/db_V')):
                close(np, got[name][0], bg[i * d:(i + 1) * d], what + ' ' + name)
            close(np, got['dL/db_O'][0], m.out_proj.bias.grad.numpy(), what + ' dL/db_O')
        else:
            assert not any(k.startswith('dL/db') for k in got), sorted(got)


def test_backward_of_a_fully_masked_row_reaches_b_o_only():
    # Finite differences of L = sum(dout * out) in NumPy, for a mask with a
    # fully masked row, against the program's analytic gradients.
    np = numpy()
    rng = np.random.default_rng(38)
    h, d_k, s_q, s_k = 2, 2, 3, 4
    q, k, v, w, b, mask = random_case(np, rng, h, d_k, s_q, s_k, True, 'random')
    mask[1] = 0
    dout = rng.normal(size=(s_q, h * d_k))
    got = run_grad(np, q, k, v, w, b, h, mask, dout)
    loss = lambda q_: (mha_numpy(np, q_, k, v, w, b, h, mask)[0] * dout).sum()  # noqa: E731
    num = np.zeros_like(q)
    for i in range(s_q):
        for c in range(h * d_k):
            e = np.zeros_like(q)
            e[i, c] = 1e-6
            num[i, c] = (loss(q + e) - loss(q - e)) / 2e-6
    assert np.abs(got['dL/dQ'] - num).max() < 1e-6, (got['dL/dQ'], num)
    assert not got['dL/dQ'][1].any(), 'the masked row\'s query gets no gradient'
    close(np, got['dL/db_O'][0], dout.sum(axis=0), 'dL/db_O')


def demo_output():
    rc, out, err = run(PROG)
    assert rc == 0 and err == '', 'demo: exit %d, stderr %r' % (rc, err)
    return out


def test_demo_two_implementations_agree():
    out = demo_output()
    rows = re.findall(r'^(no biases, no mask|biases|biases, causal mask)\s+(\S+)\s+(\S+)$',
                      out, re.M)
    assert len(rows) == 3, 'expected three comparison lines:\n' + out[:600]
    for name, outputs, weights in rows:
        assert float(outputs) < 1e-14, '%s: outputs differ by %s' % (name, outputs)
        assert float(weights) == 0.0, '%s: weights differ by %s (the text says 0)' % (
            name, weights)


def test_demo_costs_by_hand():
    # 4 d^2 + 4 d parameters and 2 (s_Q + s_K) d^2 + 2 s_Q s_K d multiply-adds,
    # worked by hand, whatever h is; h s_Q s_K weights.
    out = demo_output()
    d, s = 512, 100
    assert 4 * d * d + 4 * d == 1050624
    for h in (1, 2, 4, 8, 16):
        want = '%4d %5d %12s %15s %19s' % (h, d // h, '{:,}'.format(4 * d * d + 4 * d),
                                           '{:,}'.format(2 * (s + s) * d * d + 2 * s * s * d),
                                           '{:,}'.format(h * s * s))
        assert want in out, 'missing cost line %r in:\n%s' % (want, out)
    assert 'without biases: 1,048,576 parameters' in out


def test_demo_sentence_numbers_quoted_in_the_text():
    out = demo_output()
    head = {}
    for block in out.split('head ')[1:]:
        lines = block.strip().split('\n')
        m = re.match(r'(\d) \(', lines[0])
        if m and len(lines) >= 8:
            head[int(m.group(1))] = [[float(x) for x in l.split()[1:]] for l in lines[2:8]]
    assert sorted(head) == [1, 2, 3, 4], 'four heads expected'
    assert '%.3f' % head[1][4][0] == '0.496' and head[1][4][0] == head[1][4][4]
    assert '%.3f' % head[2][2][1] == '0.957' and '%.3f' % head[2][1][0] == '0.978'
    assert '%.3f' % head[2][0][0] == '0.999'
    assert all('%.3f' % r[1] == '0.498' and '%.3f' % r[5] == '0.498' for r in head[3])
    assert all(x == 0.167 for r in head[4] for x in r)


def test_chapter_transcripts_are_the_demo_output():
    """Each verbatim block marked '% transcript: ch03-multi-head' in the chapter
    is a run of consecutive lines of the demo's output, character for character."""
    assert_transcripts('03-multi-head.nw', PROG, demo_output(), at_least=4)


def test_figure_data():
    np = numpy()
    rc, out, err = run(PROG, ['--figure'])
    assert rc == 0, err
    assert out.startswith('# tokens: the cat sat on the mat\n')
    blocks = [b for b in out.split('\n\n\n')]
    assert len(blocks) == 4, '%d blocks' % len(blocks)
    w = [np.array([[float(x) for x in l.split()] for l in b.strip().split('\n')
                   if not l.startswith('#')]) for b in blocks]
    for i, m in enumerate(w):
        assert m.shape == (6, 6), m.shape
        close(np, m.sum(axis=1), np.ones(6), 'head %d row sums' % (i + 1))
    assert np.allclose(w[3], 1 / 6, rtol=0, atol=1e-9), 'head 4 is uniform'
    assert np.allclose(w[2], w[2][0], atol=1e-12), 'head 3: all rows alike'
    assert np.allclose(w[0][0], w[0][4]), 'head 1: the two "the" rows alike'
    assert np.argmax(w[1][3]) == 2 and w[1][2][3] < 0.01, 'head 2 is not symmetric'


def test_help_and_demo():
    # (how long the demo takes is measured by `make bench-demos`, not here)
    rc, out, err = run(PROG, ['--help'])
    assert rc == 0 and 'usage: ch03-multi-head' in out and err == ''
    assert '多头注意力' in run(PROG, ['--help', '--lang', 'zh'])[1]  # Chinese help: --lang zh (Appendix D)
    demo_output()


def bad_cases(tmp, np):
    rng = np.random.default_rng(36)
    q, k, v, w, b, mask = random_case(np, rng, 2, 3, 3, 4, True, None)
    base = write_case(tmp, np, q, k, v, w, b)
    f = lambda name, x: tmp.write(name, matrix_text(x))   # noqa: E731

    def with_opt(opt, path):
        a = list(base)
        a[a.index(opt) + 1] = path
        return a
    return [
        (base + ['--heads', '4'], ['divide', 'd_model = 6']),
        (base + ['--heads', '0'], ['--heads']),
        (base + ['--heads', 'two'], ['--heads', 'two']),
        (base + ['--heads'], ['--heads', 'needs a value']),
        (with_opt('--wk', f('wk5.txt', rng.normal(size=(6, 5)))) + ['--heads', '2'],
         ['--wk', '6 x 5', '6 x 6']),
        (with_opt('--wo', f('wo7.txt', rng.normal(size=(7, 6)))) + ['--heads', '2'],
         ['--wo']),
        (with_opt('--bv', f('bv2.txt', rng.normal(size=(2, 6)))) + ['--heads', '2'],
         ['--bv', '1 x 6']),
        (with_opt('--k', f('k5.txt', rng.normal(size=(4, 5)))) + ['--heads', '2'],
         ['d_model wide']),
        (with_opt('--v', f('v3.txt', rng.normal(size=(3, 6)))) + ['--heads', '2'],
         ['V has 3 rows but K has 4']),
        (base + ['--heads', '2', '--mask', f('m.txt', np.ones((4, 3)))],
         ['--mask', '4 x 3', '3 x 4']),
        (base + ['--heads', '2', '--mask', f('m5.txt', [[1, 0.5, 1, 1]] * 3)],
         ['--mask', 'row 1, column 2', '0.5']),
        (base + ['--heads', '2', '--mask', f('m2.txt', [[1, 2, 1, 1]] * 3)],
         ['--mask', '2']),
        (with_opt('--q', f('q5.txt', rng.normal(size=(5, 6)))) + ['--heads', '2', '--mask',
                                                                  'causal'],
         ['causal', 's_Q = 5 > s_K = 4']),
        (base[:base.index('--wo')] + ['--heads', '2'], ['--wo is missing']),
        (['--heads', '2'], ['--q is missing']),
        (['--weights'], ['missing']),
        (base + ['--heads', '2', '--frobnicate'], ['unknown option', '--frobnicate']),
        (base + ['--heads', '2', 'extra.txt'], ['unexpected argument', 'extra.txt']),
        (with_opt('--q', os.path.join(tmp.path, 'nonexistent.txt')) + ['--heads', '2'],
         ['nonexistent.txt', 'cannot open']),
        (with_opt('--wq', tmp.write('bad.txt', '2 2\n1 2\n3 x\n')) + ['--heads', '2'],
         ['bad.txt:3:', "'x'"]),
        (base + ['--heads', '2', '--key-padding', f('p.txt', [[1, 1, 0]])],
         ['--key-padding', '1 x 3', '1 x 4']),
        (base + ['--heads', '2', '--key-padding', 'causal'], ['--key-padding', 'causal']),
        (base + ['--heads', '2', '--mask', 'causal', '--key-padding',
                 f('p3.txt', [[1, 1, 0, 2]])], ['--key-padding', '2']),
        (with_opt('--k', tmp.write('nan.txt', '4 6\n' + '1 2 3 4 5 nan\n' * 4)) + ['--heads', '2'],
         ['nan.txt:2:', 'NaN']),
        (with_opt('--wq', tmp.write('huge.txt', '99999 99999\n')) + ['--heads', '2'],
         ['huge.txt:1:', 'too large']),
        (with_opt('--q', tmp.write('zero.txt', '0 6\n')) + ['--heads', '2'],
         ['zero.txt:1:', 'positive']),
        (base + ['--heads', '2', '--grad', f('g.txt', rng.normal(size=(3, 5)))],
         ['--grad', '3 x 5', '3 x 6']),
        (base + ['--heads', '2', '--grad', f('g2.txt', rng.normal(size=(3, 6))),
                 '--weights'], ['--grad', '--weights']),
        (['--figure', '--weights'], ['--figure']),
    ]


def test_bad_input_on_both_builds():
    np = numpy()
    with TempDir() as tmp:
        expect_bad_inputs(PROG, bad_cases(tmp, np))


def test_sanitizer_build_demo():
    rc, out, err = run(PROG, debug=True)
    assert rc == 0 and err == '', 'debug demo: exit %d, stderr %r' % (rc, err[:500])
    assert out == demo_output(), 'the sanitizer build prints something else'
