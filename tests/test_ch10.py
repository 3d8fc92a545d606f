"""Chapter 10: fast attention (build/bin/ch10-fast-attention).

The float kernels are checked against an independent double reference
(NumPy, from the same float32-rounded inputs) and against PyTorch, within the
chapter's error bound (fast-tol), computed here from its formula:
    |o_hat - o| <= (expm1(2E) + (2 s_K + 8) u) max|v|,
    E = (d_K + 1) u kappa max_ij sum_t |q_it k_jt|,  u = 2^-24.
Inputs: random, scores near +-1e4, rows fully masked by the causal mask
(s_Q > s_K), s = 1, lengths no multiple of the tiles, d_K != d_V, several
heads.  1 and 2 threads must give bit-identical output; the sanitizer build
runs the same cases.  No test looks at a time.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from helpers import (TOP, run, run_demo, TempDir, matrix_text, parse_matrices,  # noqa: E402
                     expect_bad_inputs, numpy, torch, Skip)

PROG = 'ch10-fast-attention'
U = 2.0 ** -24


def reference(np, q, k, v, causal, heads=1, kappa=None):
    """Equation (1) with Chapter 4's causal mask, in double, head by head;
    a query that sees no key gets zeros."""
    s_q, s_k = q.shape[0], k.shape[0]
    d_k, d_v = q.shape[1] // heads, v.shape[1] // heads
    kappa = 1 / np.sqrt(d_k) if kappa is None else kappa
    out = np.zeros((s_q, heads * d_v))
    for h in range(heads):
        qh, kh = q[:, h * d_k:(h + 1) * d_k], k[:, h * d_k:(h + 1) * d_k]
        vh = v[:, h * d_v:(h + 1) * d_v]
        s = kappa * qh @ kh.T
        for i in range(s_q):
            seen = s_k if not causal else max(0, min(s_k, i + s_k - s_q + 1))
            if seen:
                e = np.exp(s[i, :seen] - s[i, :seen].max())
                out[i, h * d_v:(h + 1) * d_v] = (e / e.sum()) @ vh[:seen]
    return out


def bound(np, q, k, v, heads=1):
    d_k = q.shape[1] // heads
    kappa = 1 / np.sqrt(d_k)
    worst = max((np.abs(q[:, h * d_k:(h + 1) * d_k]) @ np.abs(k[:, h * d_k:(h + 1) * d_k]).T).max()
                for h in range(heads))
    e = (d_k + 1) * U * kappa * worst
    return (np.expm1(2 * e) + (2 * k.shape[0] + 8) * U) * np.abs(v).max()


def run_kernel(np, q, k, v, causal=False, heads=1, kernel='stream', threads=1,
               debug=False):
    with TempDir() as tmp:
        args = ['--q', tmp.write('q.txt', matrix_text(q)),
                '--k', tmp.write('k.txt', matrix_text(k)),
                '--v', tmp.write('v.txt', matrix_text(v)),
                '--kernel', kernel, '--threads', str(threads), '--heads', str(heads)]
        if causal:
            args.append('--causal')
        rc, out, err = run(PROG, args, debug=debug)
    assert rc == 0, 'exit %d: %s' % (rc, err)
    (m,) = parse_matrices(out)
    return np.array(m), out


def f32(np, x):
    return x.astype(np.float32).astype(np.float64)


CASES = [  # s_q, s_k, d_k, d_v, causal, heads
    (5, 7, 3, 2, False, 1), (1, 1, 4, 4, False, 1), (1, 1, 4, 4, True, 1),
    (33, 65, 8, 5, True, 1), (100, 100, 64, 64, True, 1), (70, 200, 16, 24, False, 1),
    (40, 100, 16, 16, True, 1), (200, 130, 16, 8, True, 1), (97, 97, 16, 20, True, 3),
]


def check_case(np, rng, case, kernels, scale=1.0, debug=False):
    s_q, s_k, d_k, d_v, causal, heads = case
    q = f32(np, scale * rng.normal(size=(s_q, heads * d_k)))
    k = f32(np, scale * rng.normal(size=(s_k, heads * d_k)))
    v = f32(np, rng.normal(size=(s_k, heads * d_v)))
    want = reference(np, q, k, v, causal, heads)
    tol = bound(np, q, k, v, heads)
    for kernel in kernels:
        if heads > 1 and kernel in ('blas', 'naive'):
            continue
        got, _ = run_kernel(np, q, k, v, causal, heads, kernel, debug=debug)
        assert np.all(np.isfinite(got)), '%s %s: not finite' % (kernel, case)
        err = np.abs(got - want).max()
        assert err <= tol, '%s %s: max error %.3g exceeds the bound %.3g' % (
            kernel, case, err, tol)
    return q, k, v, want


def test_against_numpy():
    np = numpy()
    rng = np.random.default_rng(10)
    for case in CASES:
        check_case(np, rng, case, ('stream', 'stream-base', 'blas', 'naive'))


def test_fully_masked_rows_are_zero():
    """s_Q > s_K with the causal mask aligned at the bottom right: the first
    s_Q - s_K queries see no key and get exact zeros (Chapter 4's rule)."""
    np = numpy()
    rng = np.random.default_rng(11)
    q, k, v = (f32(np, rng.normal(size=(n, 8))) for n in (50, 20, 20))
    for kernel in ('stream', 'stream-base', 'blas', 'naive'):
        got, _ = run_kernel(np, q, k, v, True, 1, kernel)
        assert (got[:30] == 0).all(), '%s: rows 0..29 should be exactly 0' % kernel
        assert (np.abs(got[30:]).sum(axis=1) > 0).all(), '%s: rows 30.. are empty' % kernel


def test_huge_logits():
    """Scores near +-1e4: nothing overflows, and the error stays within the
    bound, which widens with E as the chapter explains."""
    np = numpy()
    rng = np.random.default_rng(12)
    d = 16
    for sign in (1, -1):
        q = f32(np, 25.0 * np.ones((40, d)) + rng.normal(size=(40, d)))
        k = f32(np, sign * 25.0 * np.ones((90, d)) + rng.normal(size=(90, d)))
        v = f32(np, rng.normal(size=(90, 6)))
        kappa_scores = (q @ k.T) / np.sqrt(d)
        assert np.abs(kappa_scores).min() > 2000, 'the scores should be huge'
        want = reference(np, q, k, v, True)
        for kernel in ('stream', 'stream-base', 'blas'):
            got, _ = run_kernel(np, q, k, v, True, 1, kernel)
            assert np.all(np.isfinite(got)), kernel
            err = np.abs(got - want).max()
            assert err <= bound(np, q, k, v), '%s: error %.3g' % (kernel, err)


def test_against_torch():
    np, t = numpy(), torch()
    rng = np.random.default_rng(13)
    for s_q, s_k, d_k, d_v, causal in ((65, 65, 32, 48, True), (30, 129, 64, 16, False),
                                       (80, 40, 8, 8, True)):
        q, k, v = (f32(np, rng.normal(size=shape)) for shape in
                   ((s_q, d_k), (s_k, d_k), (s_k, d_v)))
        tq, tk, tv = (t.tensor(x, dtype=t.float64) for x in (q, k, v))
        scores = tq @ tk.T / d_k ** 0.5
        if causal:
            allowed = t.ones(s_q, s_k).tril(s_k - s_q).bool()
            scores = scores.masked_fill(~allowed, float('-inf'))
        want = (t.softmax(scores, -1) @ tv).numpy()
        want = np.nan_to_num(want, nan=0.0)   # PyTorch gives NaN where Chapter 4 gives 0
        got, _ = run_kernel(np, q, k, v, causal)
        err = np.abs(got - want).max()
        assert err <= bound(np, q, k, v), 'against PyTorch: error %.3g' % err


def test_threads_are_bit_identical():
    np = numpy()
    rng = np.random.default_rng(14)
    q, k, v = (f32(np, rng.normal(size=(150, 2 * 16))) for _ in range(3))
    for causal in (False, True):
        _, one = run_kernel(np, q, k, v, causal, 2, 'stream', 1)
        _, two = run_kernel(np, q, k, v, causal, 2, 'stream', 2)
        assert one == two, '1 and 2 threads differ (causal=%s)' % causal


def test_sanitizer_build():
    np = numpy()
    rng = np.random.default_rng(15)
    for case in ((33, 65, 8, 5, True, 1), (200, 130, 16, 8, True, 1), (20, 20, 4, 6, False, 2)):
        check_case(np, rng, case, ('stream', 'stream-base', 'blas', 'naive'), debug=True)
    q, k, v = (f32(np, rng.normal(size=(70, 8))) for _ in range(3))
    got, _ = run_kernel(np, q, k, v, True, 1, 'stream', 2, debug=True)


def test_demo():
    out = run_demo(PROG)
    for section in ('online softmax accuracy', 'tiles', 'against the book attention',
                    'key-value cache', 'threads', 'kernel'):
        assert '## ' + section in out, 'the demo lacks the section %r' % section
    assert 'bit-identical: yes' in out
    block = out.split("## against the book attention\n")[1].split('\n\n')[0]
    rows = [l.split() for l in block.split('\n')[1:]]
    assert len(rows) == 5
    for r in rows:
        assert float(r[5]) <= float(r[6]), 'error above the bound: %s' % r
    assert rows[3][:2] == ['200', '130'] and rows[3][7] == '70', rows[3]


def test_report_replays_the_record():
    """--report and --plot read the committed record; a bad record is refused
    with the file and line."""
    path = os.path.join(TOP, 'data', 'ch10-measured.dat')
    if not os.path.exists(path):
        raise Skip('data/ch10-measured.dat is not recorded (make bench-attention RECORD=1)')
    rc, out, err = run(PROG, ['--report', 'data/ch10-measured.dat'])
    assert rc == 0 and err == '', err
    for section in ('## machine', '## table', '## goals'):
        assert section in out
    with open(path) as f:
        runs = [l for l in f if l.startswith('run ')]
    table = out.split('## table\n')[1].split('\n\n')[0].strip().split('\n')[1:]
    assert len(table) == len(runs), 'the table should have one row per record'
    with TempDir() as tmp:
        bad = tmp.write('bad.dat', 'peak 1 100\nrun stream 4096\n')
        expect_bad_inputs(PROG, [(['--report', bad], (bad + ':2',))])


def test_bad_input():
    with TempDir() as tmp:
        a = tmp.write('a.txt', matrix_text([[1, 2], [3, 4]]))
        b = tmp.write('b.txt', matrix_text([[1, 2, 3]]))
        expect_bad_inputs(PROG, [
            (['--q', a, '--k', a], ('--v',)),
            (['--q', a, '--k', b, '--v', b], (b,)),
            (['--q', a, '--k', a, '--v', b], (b,)),
            (['--q', a, '--k', a, '--v', a, '--heads', '3'], ('--heads',)),
            (['--q', a, '--k', a, '--v', a, '--threads', '0'], ('--threads',)),
            (['--q', a, '--k', a, '--v', a, '--kernel', 'fast'], ('--kernel',)),
            (['--bench', 'stream'], ('--seq',)),
            (['--bench', 'stream', '--seq', '0'], ('--seq',)),
            (['--report', 'x', '--q', a], ('choose one',)),
            (['--frobnicate'], ('--frobnicate',)),
        ])


def test_report_speaks_chinese():
    """Under a Chinese locale the report is in Chinese, line for line, with
    the record's numbers unchanged."""
    if not os.path.exists(os.path.join(TOP, 'data', 'ch10-measured.dat')):
        raise Skip('data/ch10-measured.dat is not recorded (make bench-attention RECORD=1)')
    from helpers import both_languages, display_width
    en, zh = both_languages(PROG, ['--report', 'data/ch10-measured.dat'])
    for heading in ('## 机器', '## 表', '## 目标'):
        assert heading in zh, heading
    assert '达到' in zh and ' met ' not in zh and '处理器：' in zh
    # the table's header and rows line up by display width
    table = zh.split('## 表\n')[1].split('\n\n')[0].split('\n')
    head = table[0]
    for row in table[1:]:
        assert display_width(row) == display_width(head), (head, row)
