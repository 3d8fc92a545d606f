"""Chapter 2: scaled dot-product attention (build/bin/ch02-attention).

Numbers are checked against NumPy (an independent implementation of
equation (1)) and against values worked by hand; the worked example is rebuilt
from an independent Python copy of the core's random number generator."""
import functools
import math
import os
import re

import helpers
from helpers import (TempDir, assert_transcripts, expect_bad_input, matrix_text,
                     numpy, parse_matrices, run)

PROG = 'ch02-attention'


def np_attention(np, q, k, v, kappa):
    """Equation (1) in NumPy: (output, weights)."""
    s = kappa * (q @ k.T)
    s = s - s.max(axis=1, keepdims=True)
    w = np.exp(s)
    w /= w.sum(axis=1, keepdims=True)
    return w @ v, w


# Single-head attention is held to tighter tolerances than the later chapters.
assert_close = functools.partial(helpers.assert_close, rtol=1e-6, atol=1e-12)


def run_data(d, q, k, v, extra=(), debug=False):
    """Run data mode on the three matrices; return (output, weights)."""
    args = ['--q', d.write('Q.txt', matrix_text(q)), '--k', d.write('K.txt', matrix_text(k)),
            '--v', d.write('V.txt', matrix_text(v))] + list(extra)
    got = []
    for more in ([], ['--weights']):
        rc, out, err = run(PROG, args + more, debug=debug)
        assert rc == 0 and err == '', 'exit %d, stderr %r' % (rc, err)
        mats = parse_matrices(out)
        assert len(mats) == 1, 'expected one matrix, got %d' % len(mats)
        got.append(mats[0])
    return got


SHAPES = [  # s_Q, s_K, d_K, d_V
    (1, 1, 1, 1), (3, 5, 4, 2), (7, 2, 3, 6), (16, 9, 8, 8), (5, 33, 1, 4),
    (40, 17, 12, 3), (2, 64, 64, 1),
]


def test_random_shapes_against_numpy():
    np = numpy()
    rng = np.random.default_rng(2)
    with TempDir() as d:
        for n, (sq, sk, dk, dv) in enumerate(SHAPES):
            size = rng.uniform(0.1, 3.0)
            q, k = rng.normal(0, size, (sq, dk)), rng.normal(0, size, (sk, dk))
            v = rng.normal(0, 1, (sk, dv))
            out, w = run_data(d, q, k, v, debug=(n % 3 == 0))
            want_out, want_w = np_attention(np, q, k, v, 1 / math.sqrt(dk))
            what = 's_Q=%d s_K=%d d_K=%d d_V=%d' % (sq, sk, dk, dv)
            assert_close(np, out, want_out, what + ' output')
            assert_close(np, w, want_w, what + ' weights')


def test_scale_option():
    np = numpy()
    rng = np.random.default_rng(3)
    q, k, v = rng.normal(size=(4, 3)), rng.normal(size=(6, 3)), rng.normal(size=(6, 5))
    with TempDir() as d:
        for scale in (0.3, 1.0, 2.5, 1e-3):
            out, w = run_data(d, q, k, v, ['--scale', repr(scale)])
            want_out, want_w = np_attention(np, q, k, v, scale)
            assert_close(np, out, want_out, '--scale %g output' % scale)
            assert_close(np, w, want_w, '--scale %g weights' % scale)
        # the default must be 1/sqrt(d_K), not 1 and not 1/d_K
        out, _ = run_data(d, q, k, v)
        assert_close(np, out, np_attention(np, q, k, v, 1 / math.sqrt(3))[0], 'default scale')


def test_extreme_scores_stay_finite():
    """Scores of +-1e4 (and 50, -50): the stable softmax gives exact weights."""
    np = numpy()
    q = [[100.0], [-100.0], [0.5]]
    k = [[100.0], [-100.0], [0.0]]
    v = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    for debug in (False, True):
        with TempDir() as d:
            out, w = run_data(d, q, k, v, ['--scale', '1'], debug=debug)
        w = np.array(w)
        assert np.isfinite(w).all() and np.isfinite(out).all(), 'not finite: %r %r' % (w, out)
        assert abs(w.sum(axis=1) - 1).max() < 1e-12, 'rows do not sum to 1: %r' % w
        # worked by hand: e^(1e4) dominates, e^(-2e4) and e^(-1e4) vanish
        assert w[0].tolist() == [1.0, 0.0, 0.0], w[0]
        assert w[1].tolist() == [0.0, 1.0, 0.0], w[1]
        want = np.exp([0.0, -100.0, -50.0]) / np.exp([0.0, -100.0, -50.0]).sum()
        assert_close(np, w[2], want, 'scores 50, -50, 0')
        assert_close(np, out, [[1, 2], [3, 4], (want @ np.array(v)).tolist()], 'output')


def test_hand_worked_example():
    """q = (1, 1), keys (1,0), (0,1), (1,1), values 1, 2, 4, kappa = 1/sqrt(2)."""
    e1, e2 = math.exp(1 / math.sqrt(2)), math.exp(2 / math.sqrt(2))
    w = [e1 / (2 * e1 + e2), e1 / (2 * e1 + e2), e2 / (2 * e1 + e2)]
    with TempDir() as d:
        out, weights = run_data(d, [[1, 1]], [[1, 0], [0, 1], [1, 1]], [[1], [2], [4]])
    for got, want in zip(weights[0], w):
        assert abs(got - want) < 1e-8, 'weights %r, by hand %r' % (weights[0], w)
    want_out = w[0] + 2 * w[1] + 4 * w[2]
    assert abs(out[0][0] - want_out) < 1e-8, 'output %r, by hand %r' % (out, want_out)


def test_weights_do_not_depend_on_values():
    np = numpy()
    rng = np.random.default_rng(5)
    q, k = rng.normal(size=(3, 4)), rng.normal(size=(5, 4))
    with TempDir() as d:
        _, w1 = run_data(d, q, k, rng.normal(size=(5, 2)))
        _, w2 = run_data(d, q, k, 100 * rng.normal(size=(5, 7)))
    assert w1 == w2, 'the weights changed with V'


def test_standard_input():
    np = numpy()
    rng = np.random.default_rng(6)
    q, k, v = rng.normal(size=(2, 3)), rng.normal(size=(4, 3)), rng.normal(size=(4, 2))
    with TempDir() as d:
        rc, out, err = run(PROG, ['--q', '-', '--k', d.write('K.txt', matrix_text(k)),
                                  '--v', d.write('V.txt', matrix_text(v))],
                           stdin=matrix_text(q, comment='Q from stdin'))
    assert rc == 0, err
    assert_close(np, parse_matrices(out)[0], np_attention(np, q, k, v, 1 / math.sqrt(3))[0],
                 'Q from standard input')


def demo_output():
    rc, out, err = run(PROG)
    assert rc == 0 and err == '', 'demo: exit %d, stderr %r' % (rc, err)
    return out, None


def test_demo_is_deterministic():
    # (how long it takes is measured by `make bench-demos`, not here)
    out1, _ = demo_output()
    out2, _ = demo_output()
    assert out1 == out2, 'two runs of the demo printed different output'
    assert 'max |eq(1) - eq(2)|' in out1
    rc, dbg, err = run(PROG, debug=True)
    assert rc == 0 and dbg == out1, 'the sanitizer build prints another demo: %r' % err[:300]


def test_demo_equation_1_equals_equation_2():
    out, _ = demo_output()
    m = re.search(r'max \|eq\(1\) - eq\(2\)\|: weights (\S+), outputs (\S+)', out)
    assert m, 'no eq(1) vs eq(2) line in the demo'
    assert float(m.group(1)) < 1e-12 and float(m.group(2)) < 1e-12, m.group(0)
    m = re.search(r'random s_Q = 7, s_K = 11, d_K = 5, d_V = 3: max \|eq\(1\) - eq\(2\)\| = (\S+)', out)
    assert m and float(m.group(1)) < 1e-12, 'random shapes: %r' % (m and m.group(0))


def test_demo_softmax_table():
    """The stable columns match NumPy on the same scores; the naive ones are
    NaN exactly where the exponentials overflow or underflow."""
    np = numpy()
    out, _ = demo_output()
    rows = [l.split() for l in out.split('\n')
            if re.match(r'^\s+-?\d+\s+-?\d+\s+-?\d+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+$', l)]
    assert len(rows) == 4, 'expected 4 rows in the softmax table, got %d' % len(rows)
    for r in rows:
        x = np.array([float(t) for t in r[:3]])
        naive, stable = r[3:6], [float(t) for t in r[6:9]]
        with np.errstate(all='ignore'):
            want_naive = np.exp(x) / np.exp(x).sum()
        want_stable = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
        assert np.allclose(stable, want_stable, atol=6e-5), '%s: stable %r' % (x, stable)
        for got, want in zip(naive, want_naive):
            assert (got == 'nan') == bool(np.isnan(want)), '%s: naive %r' % (x, naive)
    assert any('nan' in r[3:6] for r in rows), 'the naive softmax never failed'


def test_chapter_transcripts_are_the_demo_output():
    """Each verbatim block marked '% transcript: ch02-attention' in the chapter
    is a run of consecutive lines of the demo's output, character for character."""
    out, _ = demo_output()
    assert_transcripts('02-attention.nw', PROG, out, at_least=4)


def splitmix_normals():
    """An independent Python copy of the core's SplitMix64 and Box-Muller."""
    mask = (1 << 64) - 1
    state = [0]

    def seed(s):
        state[0] = s

    def next64():
        state[0] = (state[0] + 0x9E3779B97F4A7C15) & mask
        z = state[0]
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    def normals(n, std=1.0):
        out = []
        while len(out) < n:
            u1 = 1.0 - (next64() >> 11) * 2.0 ** -53
            u2 = (next64() >> 11) * 2.0 ** -53
            r, a = math.sqrt(-2 * math.log(u1)), 2 * math.pi * u2
            out += [r * math.cos(a), r * math.sin(a)]
        return out

    return seed, normals


def test_heatmap_is_the_example_rebuilt_independently():
    np = numpy()
    seed, normals = splitmix_normals()
    seed(2)
    # every fill here has an even count, so no spare normal carries over
    emb = np.array(normals(5 * 8)).reshape(5, 8)
    wq = np.array(normals(8 * 4)).reshape(8, 4) / math.sqrt(8)
    wk = np.array(normals(8 * 4)).reshape(8, 4) / math.sqrt(8)
    wv = np.array(normals(8 * 4)).reshape(8, 4) / math.sqrt(8)
    x = emb[[0, 1, 2, 3, 0, 4]]
    _, want = np_attention(np, x @ wq, x @ wk, x @ wv, 0.5)
    rc, out, err = run(PROG, ['--figure', 'heatmap'])
    assert rc == 0, err
    got = np.zeros((6, 6))
    words = {}
    for line in out.split('\n'):
        if line and not line.startswith('#'):
            j, i, w, key, query = line.split()
            got[int(i), int(j)] = float(w)
            words[int(j)] = key
    assert [words[j] for j in range(6)] == 'the cat sat on the mat'.split(), words
    assert_close(np, got, want, 'heatmap weights', rtol=1e-7)
    assert (got[0] == got[4]).all() and (got[:, 0] == got[:, 4]).all(), \
        'the two "the"s differ'


def test_saturation_figure_data():
    rc, out, err = run(PROG, ['--figure', 'saturation'])
    assert rc == 0, err
    rows = [[float(t) for t in l.split()] for l in out.split('\n') if l and l[0] != '#']
    assert [int(r[0]) for r in rows] == [2 ** i for i in range(11)], 'd_K column'
    assert rows[0][1] == rows[0][2], 'at d_K = 1, kappa = 1 and 1/sqrt(d_K) agree'
    # ||J||_F <= ||diag p||_F + ||p^T p||_F < 2; uniform weights over 16 keys give 0.24
    for r in rows:
        assert 0 < r[1] < 2 and 0.2 < r[2] < 0.4, 'implausible norms %r' % r
    unscaled = [r[1] for r in rows]
    assert unscaled[-1] < 0.25 * unscaled[3], 'no saturation without kappa: %r' % unscaled
    assert rows[-1][3] > 0.9 and rows[-1][4] < 0.5, 'max weights %r' % rows[-1]


def test_cost_figure_data():
    rc, out, err = run(PROG, ['--figure', 'cost'])
    assert rc == 0, err
    rows = [[float(t) for t in l.split()] for l in out.split('\n') if l and l[0] != '#']
    assert [int(r[0]) for r in rows] == [16, 32, 64, 128, 256], rows
    assert all(r[1] > 0 and r[2] > 0 for r in rows), rows
    # The times themselves (additive slower; both slopes near 2, as the text
    # says) depend on the machine and its load: `make bench-demos` checks them.


def trace_data():
    """--figure trace as {name: [number, ...]}, the numbers as printed."""
    rc, out, err = run(PROG, ['--figure', 'trace'])
    assert rc == 0 and err == '', (rc, err)
    data = {}
    for line in out.split('\n'):
        if line and not line.startswith('#'):
            name, *numbers = line.split()
            assert name not in data, 'two lines %r' % name
            data[name] = numbers
    return data


def test_trace_figure_is_equation_2_recomputed_independently():
    """Figure 2.3's numbers, step by step, against NumPy: each printed number
    is the true one rounded to the four decimals the figure shows."""
    np = numpy()
    data = trace_data()
    q = np.array([float(t) for t in data['q']])
    keys = sorted(n for n in data if re.fullmatch(r'k\d+', n))
    k = np.array([[float(t) for t in data[n]] for n in keys])
    v = np.array([float(data['v%d' % (j + 1)][0]) for j in range(len(keys))])
    assert q.shape == (2,) and k.shape == (3, 2), 'd_K = 2 and three keys'
    # Exercise 1's numbers are the reader's to work out: not these.
    assert not (list(q) == [1, 1] or k.tolist() == [[1, 0], [0, 1], [1, 1]]
                or v.tolist() == [1, 2, 4]), 'the trace gives away exercise 1'
    kappa = 1 / math.sqrt(len(q))
    score = k @ q
    x = kappa * score
    m = x.max()
    e = np.exp(x - m)
    z = e.sum()
    w = e / z
    want = {'kappa': kappa, 'max': m, 'sum': z, 'wsum': w.sum(), 'output': w @ v}
    for j in range(3):
        want.update({'score%d' % (j + 1): score[j], 'scaled%d' % (j + 1): x[j],
                     'shifted%d' % (j + 1): x[j] - m, 'exp%d' % (j + 1): e[j],
                     'weight%d' % (j + 1): w[j], 'product%d' % (j + 1): w[j] * v[j]})
    assert set(data) == set(want) | {'q'} | set(keys) | {'v1', 'v2', 'v3'}, sorted(data)
    for name, value in want.items():
        [got] = data[name]
        if name.startswith('score'):
            assert float(got) == value, '%s: %s, want %g' % (name, got, value)
        else:
            assert re.fullmatch(r'-?\d+\.\d{4}', got), '%s: %r is not to 4 decimals' % (name, got)
            assert abs(float(got) - value) <= 0.5e-4 + 1e-12, '%s: %s, want %.6f' % (name, got, value)
    assert 0 < w.min() and abs(w.sum() - 1) < 1e-12


def test_trace_figure_shows_the_programs_numbers():
    """The diagram in each edition has every number the program printed and
    no \\figdata left: the build put them there (tools/tikzfig.py)."""
    data = trace_data()
    for edition in ('zh', 'en', 'bilingual'):
        path = os.path.join(helpers.TOP, 'build', 'fig', 'ch02-trace-%s.tex' % edition)
        tex = open(path, encoding='utf-8').read()
        if '\\includegraphics' in tex:    # typeset once: the picture is beside it
            path = path[:-len('.tex')] + '-pic.tex'
            tex = open(path, encoding='utf-8').read()
        assert '\\figdata' not in tex, path
        for name, numbers in data.items():
            assert ', '.join(numbers) in tex, '%s: %s = %s is missing' % (path, name, numbers)


def test_help():
    rc, out, err = run(PROG, ['--help'])
    assert rc == 0 and err == '', (rc, err)
    for s in ('usage:', '--q', '--k', '--v', '--scale', '--weights', '--figure'):
        assert s in out, '--help does not mention %r' % s
    # One language per run (Appendix D): Chinese with --lang zh or a zh_* locale.
    assert re.search(r'[\u4e00-\u9fff]', run(PROG, ['--help', '--lang', 'zh'])[1]), '--lang zh: no Chinese help'


def bad_cases(d):
    good_q = d.write('Q.txt', '2 3\n1 2 3\n4 5 6\n')
    good_k = d.write('K.txt', '4 3\n' + '1 0 1\n' * 4)
    good_v = d.write('V.txt', '4 2\n' + '1 2\n' * 4)

    def files(q=good_q, k=good_k, v=good_v):
        return ['--q', q, '--k', k, '--v', v]

    def bad(name, text):
        return d.write(name, text)

    return [
        (files(q=os.path.join(d.path, 'missing.txt')), ['missing.txt']),
        (files(q=bad('count.txt', '2 3\n1 2 3\n4 5\n')), ['count.txt:3']),
        (files(k=bad('word.txt', '4 3\n1 0 1\n1 x 1\n1 0 1\n1 0 1\n')), ['word.txt:3']),
        (files(v=bad('nan.txt', '4 2\n1 2\nnan 2\n1 2\n1 2\n')), ['nan.txt:3']),
        (files(q=bad('inf.txt', '2 3\n1 2 inf\n4 5 6\n')), ['inf.txt:2']),
        (files(q=bad('neginf.txt', '2 3\n1 2 3\n-Infinity 5 6\n')), ['neginf.txt:3']),
        (files(q=bad('zero.txt', '0 3\n')), ['zero.txt:1']),
        (files(q=bad('empty.txt', '# nothing here\n')), ['empty.txt']),
        (files(q=bad('short.txt', '3 3\n1 2 3\n')), ['short.txt']),
        (files(q=bad('long.txt', '1 3\n1 2 3\n4 5 6\n')), ['long.txt:3']),
        (files(q=bad('huge.txt', '99999999 99999999\n1\n')), ['huge.txt:1']),
        (files(q=bad('q2.txt', '2 2\n1 2\n3 4\n')), ['q2.txt', 'K.txt', 'd_K']),
        (files(v=bad('v3.txt', '3 2\n1 2\n1 2\n1 2\n')), ['K.txt', 'v3.txt', 's_K']),
        (files(q=bad('big.txt', '1 1\n1e200\n'), k=bad('bigk.txt', '1 1\n1e200\n'),
               v=bad('v1.txt', '1 1\n1\n')), ['big.txt', 'overflow']),
        (files() + ['--scale', '0'], ['--scale']),
        (files() + ['--scale', '-1'], ['--scale']),
        (files() + ['--scale', 'abc'], ['--scale']),
        (files() + ['--scale', 'nan'], ['--scale']),
        (files() + ['--scale', 'inf'], ['--scale']),
        (files() + ['--scale', '1e999'], ['--scale']),
        (files() + ['--scale', ''], ['--scale']),
        (files() + ['--scale'], ['--scale']),
        (['--q'], ['--q']),
        (files() + ['--bogus'], ['--bogus']),
        (['-x'], ['-x']),
        (files() + ['extra'], ['extra']),
        (['--q', good_q], ['--k']),
        (['--weights'], ['--q']),
        (['--scale', '2'], ['--q']),
        (['--figure', 'nope'], ['nope']),
        (['--figure', 'heatmap', '--q', good_q], ['--figure']),
        (['--figure', 'trace', '--q', good_q], ['--figure']),
        (['--figure', 'traces'], ['traces']),
    ]


def test_bad_input():
    with TempDir() as d:
        for args, mention in bad_cases(d):
            expect_bad_input(PROG, args, must_mention=mention)


def test_bad_input_sanitizer_build():
    with TempDir() as d:
        for args, mention in bad_cases(d):
            expect_bad_input(PROG, args, must_mention=mention, debug=True)
