"""Chapter 7's program, build/bin/ch07-saturation: the variance study, the
saturation study, the softmax and its Jacobian, and its bad input.

Every check compares with an independent computation: exact values worked by
hand (Var(q.k) = d_K, its fourth moment 3 d^2 + 6 d), NumPy (its own random
draws, its own softmax, finite differences, numerical integration) or
PyTorch's autograd.
"""
import math
import os
import re

from helpers import (TOP, TempDir, expect_bad_inputs, matrix_text, numpy,
                     parse_matrices, run, torch)

PROG = 'ch07-saturation'


def tables(out):
    """The numeric rows of each table in the output (tables are separated by
    two blank lines), as lists of lists of floats."""
    result = []
    for block in re.split(r'\n\s*\n\s*\n', out.strip('\n')):
        rows = [[float(x) for x in l.split()] for l in block.split('\n')
                if l.strip() and not l.startswith('#')]
        result.append(rows)
    return result


def one_table(args):
    rc, out, err = run(PROG, args)
    assert rc == 0 and err == '', '%s %s: status %d, %r' % (PROG, args, rc, err)
    (rows,) = tables(out)
    return rows


def test_demo_prints_three_tables_up_to_dk_256():
    # (how long it takes is measured by `make bench-demos`, not here)
    rc, out, err = run(PROG)
    assert rc == 0 and err == '', err
    t = tables(out)
    assert [len(x) for x in t] == [9, 9, 97], \
        'expected tables of 9, 9 and 97 rows (d_K = 1 .. 256), got %s' % [len(x) for x in t]
    assert [r[0] for r in t[0]] == [2 ** i for i in range(9)], [r[0] for r in t[0]]


def test_each_table_alone_matches_the_demo():
    """--table NAME prints the full table (to d_K = 1024); the demo's rows are
    its first rows, digit for digit (each row has its own random stream)."""
    rc, out, _ = run(PROG)
    demo = tables(out)
    for i, name in enumerate(['variance', 'saturation', 'temperature']):
        full = one_table(['--table', name])
        assert len(full) == {'temperature': 97}.get(name, 11), (name, len(full))
        assert full[:len(demo[i])] == demo[i], \
            '--table %s differs from the demo\'s table' % name


def test_rows_do_not_depend_on_dk_max():
    full = one_table(['--table', 'variance', '--samples', '300'])
    short = one_table(['--table', 'variance', '--samples', '300', '--dk-max', '64'])
    assert short == full[:7], 'the first rows changed with --dk-max'


def dot_moments(d):
    """E X^2, E X^4, E X^6, E X^8 for X = q.k, q and k in R^d with independent
    N(0, 1) components: X is a sum of d independent Y = q_c k_c, whose even
    moments are the products of the normal's: 1, 3*3, 15*15, 105*105."""
    y2, y4, y6, y8 = 1, 9, 225, 11025
    d1, d2, d3, d4 = d, d * (d - 1), d * (d - 1) * (d - 2), d * (d - 1) * (d - 2) * (d - 3)
    x2 = d1 * y2
    x4 = d1 * y4 + 3 * d2 * y2 * y2
    x6 = d1 * y6 + 15 * d2 * y4 * y2 + 15 * d3 * y2 ** 3
    x8 = d1 * y8 + 28 * d2 * y6 * y2 + 35 * d2 * y4 * y4 + 210 * d3 * y4 * y2 * y2 \
        + 105 * d4 * y2 ** 4
    return x2, x4, x6, x8


def test_dot_moments_by_hand():
    assert dot_moments(1) == (1, 9, 225, 11025)
    assert dot_moments(2)[1] == 3 * 4 + 6 * 2 and dot_moments(2)[3] == 40320
    for d in (64, 1024):   # nearly normal: E X^8 -> 105 d^4
        assert abs(dot_moments(d)[3] / (105 * d ** 4) - 1) < 0.2


def test_variance_is_dk_within_its_standard_errors():
    # Var(q.k) = d exactly; the sample variance's standard error is
    # sqrt((mu4 - sigma^4 (N-3)/(N-1)) / N) with mu4 = 3 d^2 + 6 d.
    # 4.5 standard errors: a false alarm has probability ~7e-6 per row.
    for seed, n in [('1', 2000), ('2', 2000), ('7', 500), ('123', 5000)]:
        rows = one_table(['--table', 'variance', '--seed', seed, '--samples', str(n)])
        assert [r[0] for r in rows] == [2.0 ** i for i in range(11)], 'd_K column'
        for r in rows:
            d, mean, var, se, lo, hi, vs, los, his = r[:9]
            exact_se = math.sqrt((3 * d * d + 6 * d - d * d * (n - 3) / (n - 1)) / n)
            assert abs(var - d) < 4.5 * exact_se, \
                'seed %s, d_K %g: variance %g is %.1f standard errors from %g' % (
                    seed, d, var, abs(var - d) / exact_se, d)
            # The estimated se comes from m4 - s^4, whose own standard
            # deviation follows (delta method) from the moments up to the 8th.
            x2, x4, x6, x8 = dot_moments(int(d))
            spread = math.sqrt((x8 - x4 * x4) - 4 * x2 * (x6 - x4 * x2)
                               + 4 * x2 * x2 * (x4 - x2 * x2)) / math.sqrt(n)
            rel = 0.5 * spread / (x4 - x2 * x2)     # relative sd of se
            assert abs(se / exact_se - 1) < 4.5 * rel, \
                'seed %s, d_K %g: estimated se %g, exact %g (allowed %.0f%%)' % (
                    seed, d, se, exact_se, 450 * rel)
            assert abs(mean) < 4.5 * math.sqrt(d / n), 'd_K %g: mean %g' % (d, mean)
            assert abs(lo - (var - 1.96 * se)) < 1e-3 * d + 1e-3 and \
                abs(hi - (var + 1.96 * se)) < 1e-3 * d + 1e-3, 'interval columns'
            assert abs(vs - var / d) < 1e-3 and abs(los - lo / d) < 1e-3 \
                and abs(his - hi / d) < 1e-3, 'scaled columns must be the unscaled / d_K'


def test_interval_covers_dk_about_95_percent_of_the_time():
    # 10 seeds x 11 rows = 110 intervals; with 95% coverage the number that
    # miss is Binomial(110, 0.05): mean 5.5, P(miss > 15) ~ 1e-4.
    misses = 0
    for seed in range(10, 20):
        for r in one_table(['--table', 'variance', '--seed', str(seed), '--samples', '400']):
            misses += not (r[4] <= r[0] <= r[5])
    assert misses <= 15, '%d of 110 intervals miss d_K' % misses


def test_additive_score_variance_stays_bounded():
    # Each u_i ~ N(0, |Wq_i|^2 + |Wk_i|^2) ~ N(0, 2); with |w_i| = 1/sqrt(h)
    # Var(s) ~ E tanh^2(sqrt(2) Z), up to the cross terms of one network.
    np = numpy()
    z = np.linspace(-12, 12, 200001)
    phi = np.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    limit = float(np.sum(np.tanh(math.sqrt(2) * z) ** 2 * phi) * (z[1] - z[0]))
    assert abs(limit - 0.52) < 0.01, 'quadrature %g' % limit
    rows = one_table(['--table', 'variance'])
    for r in rows:
        d, va = r[0], r[9]
        assert abs(va - limit) < 0.35 * limit, \
            'd_K %g: additive variance %g, expected near %g' % (d, va, limit)
    assert rows[-1][2] > 1000 * rows[-1][9], 'the dot product should dwarf it at 1024'


def numpy_saturation(np, rng, d, n_keys, trials, kappa):
    """The saturation study's quantities, drawn by NumPy."""
    q = rng.standard_normal((trials, 1, d))
    k = rng.standard_normal((trials, n_keys, d))
    g = rng.standard_normal((trials, n_keys))
    x = kappa * (q @ k.transpose(0, 2, 1))[:, 0, :]
    x -= x.max(axis=1, keepdims=True)
    p = np.exp(x)
    p /= p.sum(axis=1, keepdims=True)
    maxp = p.max(axis=1)
    with np.errstate(divide='ignore', invalid='ignore'):
        h = -np.where(p > 0, p * np.log(p), 0.0).sum(axis=1)
    jac = p[:, :, None] * np.eye(n_keys)[None] - p[:, :, None] * p[:, None, :]
    jf = np.sqrt((jac ** 2).sum(axis=(1, 2)))
    jg = np.sqrt(((jac @ g[:, :, None])[:, :, 0] ** 2).sum(axis=1))
    return maxp, h, jf, jg


def test_saturation_agrees_with_numpy_draws():
    np = numpy()
    rng = np.random.default_rng(2024)
    trials = 500
    rows = {r[0]: r for r in one_table(['--table', 'saturation', '--dk-max', '256'])}
    for d in (1, 4, 16, 64, 256):
        r = rows[d]
        for a, kappa in ((0, 1.0), (1, 1 / math.sqrt(d))):
            maxp, h, jf, jg = numpy_saturation(np, rng, d, 16, 4000, kappa)
            base = 1 + 8 * a
            mine = {'max p': r[base], 'entropy': r[base + 1], '|J|_F': r[base + 2],
                    '|Jg|': r[base + 7]}
            theirs = {'max p': maxp, 'entropy': h, '|J|_F': jf, '|Jg|': jg}
            for name, v in mine.items():
                x = theirs[name]
                se = math.sqrt(x.var() / trials + x.var() / x.size)
                assert abs(v - x.mean()) < 4.5 * se + 1e-12, \
                    'd_K %d, kappa %g, %s: program %g, NumPy %g (se %g)' % (
                        d, kappa, name, v, x.mean(), se)
            # The program's median of 500 draws: its rank among NumPy's draws
            # is within 4.5 standard deviations (0.5/sqrt(500)) of one half.
            lo, hi = np.quantile(jf, [0.5 - 2.25 / math.sqrt(trials),
                                      0.5 + 2.25 / math.sqrt(trials)])
            assert lo <= r[base + 4] <= hi, 'd_K %d median |J|_F %g outside [%g, %g]' % (
                d, r[base + 4], lo, hi)
            assert r[base + 5] <= r[base + 4] <= r[base + 6], "median outside its interval"


def test_unscaled_saturates_and_scaled_stays():
    rows = one_table(['--table', 'saturation'])
    first, last = rows[0], rows[-1]
    assert first[1:9] == first[9:17], 'at d_K = 1 both scalings are the same'
    assert last[1] > 0.9 and last[2] < 0.2, 'unscaled at 1024: max p %g, H %g' % (last[1], last[2])
    assert last[5] < 1e-3 * first[5], 'unscaled median |J|_F should collapse'
    maxp_u = [r[1] for r in rows]
    assert all(b > a for a, b in zip(maxp_u, maxp_u[1:])), 'unscaled max p must rise'
    for r in rows:
        assert 0.18 < r[9] < 0.3 and 2.2 < r[10] < 2.5 and 0.27 < r[11] < 0.33, \
            'scaled row %s left its band' % r
        assert r[2] <= math.log(16) + 1e-9 and r[10] <= math.log(16) + 1e-9, 'H <= ln 16'
    # E |Jg|^2 = |J|_F^2 and Jensen: the mean |Jg| cannot exceed sqrt(mean |J|^2);
    # loosely, it stays below the mean |J|_F plus noise.
    for r in rows:
        for a in (0, 8):
            assert r[8 + a] < 1.15 * r[3 + a] + 1e-9, 'mean |Jg| above mean |J|_F: %s' % r


def test_temperature_table_is_the_softmax_of_x_over_t():
    np = numpy()
    rc, out, _ = run(PROG, ['--table', 'temperature'])
    m = re.search(r'logits x = ([-0-9. ]+)\n', out)
    x = np.array([float(v) for v in m.group(1).split()])
    rows = np.array(tables(out)[0])
    assert abs(rows[0, 0] - 1 / 64) < 1e-9 and abs(rows[-1, 0] - 64) < 1e-6
    for i, r in enumerate(rows):
        t = 2.0 ** ((i - 48) / 8)              # the printed T is rounded to 6 digits
        assert abs(r[0] / t - 1) < 1e-5, 'row %d: T = %g, expected %g' % (i, r[0], t)
        z = x / t
        p = np.exp(z - z.max())
        p /= p.sum()
        assert np.allclose(r[1:7], p, rtol=1e-5, atol=1e-12), 'T = %g' % r[0]
        h = -sum(v * math.log(v) for v in p if v > 0)
        assert abs(r[7] - h) < 1e-5 * max(1, h), 'entropy at T = %g' % r[0]


def jacobian_of(path):
    rc, out, err = run(PROG, ['--jacobian', path])
    assert rc == 0, err
    return parse_matrices(out)[0]


def test_jacobian_matches_finite_differences_and_numpy():
    np = numpy()
    rng = np.random.default_rng(7)
    with TempDir() as d:
        for n, scale in [(1, 1), (2, 1), (3, 0.1), (5, 1), (8, 3), (16, 1), (33, 5)]:
            x = scale * rng.standard_normal(n)
            jac = np.array(jacobian_of(d.write('x.txt', matrix_text([x]))))

            def softmax(v):
                e = np.exp(v - v.max())
                return e / e.sum()
            p = softmax(x)
            exact = np.diag(p) - np.outer(p, p)
            assert np.allclose(jac, exact, rtol=1e-7, atol=1e-9), 'n = %d vs NumPy' % n
            h = 1e-6
            fd = np.empty((n, n))
            for m in range(n):
                e = np.zeros(n)
                e[m] = h
                fd[:, m] = (softmax(x + e) - softmax(x - e)) / (2 * h)
            assert np.allclose(jac, fd, rtol=1e-5, atol=1e-8), \
                'n = %d: max |J - finite differences| = %g' % (n, abs(jac - fd).max())
            assert np.allclose(jac.sum(axis=1), 0, atol=1e-8), 'rows must sum to 0'
            assert np.allclose(jac, jac.T, atol=1e-12), 'J must be symmetric'


def test_jacobian_matches_pytorch_autograd():
    t = torch()
    np = numpy()
    rng = np.random.default_rng(11)
    with TempDir() as d:
        for n in (2, 4, 7, 12):
            x = 2 * rng.standard_normal(n)
            jac = np.array(jacobian_of(d.write('x.txt', matrix_text([x]))))
            ref = t.autograd.functional.jacobian(
                lambda v: t.softmax(v, dim=0), t.tensor(x, dtype=t.float64)).numpy()
            assert np.allclose(jac, ref, rtol=1e-7, atol=1e-9), \
                'n = %d: max |J - autograd| = %g' % (n, abs(jac - ref).max())


def test_softmax_rows_sum_to_one_even_for_huge_scores():
    np = numpy()
    rng = np.random.default_rng(3)
    with TempDir() as d:
        for rows, cols, scale in [(1, 1, 1), (3, 4, 1), (5, 9, 100), (2, 30, 1e4), (7, 2, 1e4)]:
            x = scale * rng.standard_normal((rows, cols))
            if cols > 1:
                x[0, 0], x[0, 1] = 1e4, -1e4
            rc, out, err = run(PROG, ['--softmax', d.write('x.txt', matrix_text(x))])
            assert rc == 0, err
            p = np.array(parse_matrices(out)[0])
            assert p.shape == (rows, cols)
            assert np.all(np.isfinite(p)), 'non-finite weights for scale %g' % scale
            assert np.allclose(p.sum(axis=1), 1, atol=1e-8), 'rows must sum to 1'
            e = np.exp(x - x.max(axis=1, keepdims=True))
            assert np.allclose(p, e / e.sum(axis=1, keepdims=True), rtol=1e-7, atol=1e-12)


def test_numbers_quoted_in_the_chapter_come_from_the_program():
    with open(os.path.join(TOP, 'chapters', '07-saturation.nw'), encoding='utf-8') as f:
        text = f.read()
    tokens = set()
    for name in ('variance', 'saturation', 'temperature'):
        rc, out, _ = run(PROG, ['--table', name])
        assert rc == 0
        tokens |= set(out.split())
    quoted = ['1.0077', '0.88238', '1.1331', '1024.6', '960.54', '1088.7', '32.69',
              '1.0006', '0.9380', '1.0632', '0.205533', '2.436026', '0.963948',
              '0.087589', '0.244373', '2.366796', '0.4809', '0.6178', '0.447284',
              '0.981947', '0.017985']
    for q in quoted:
        assert q in text, '%s is not quoted in the chapter any more: update this list' % q
        assert q in tokens, 'the chapter quotes %s but the program no longer prints it' % q
    # numbers printed as 1.2345e-02 and quoted as 0.012345 or 1.2345 x 10^-2
    sci = {'0.28595': '2.8595e-01', '0.32277': '3.2277e-01', '0.090285': '9.0285e-02',
           '0.048931': '4.8931e-02', '2.9407': '2.9407e-03', '2.5112': '2.5112e-05',
           '0.30434': '3.0434e-01', '0.30391': '3.0391e-01', '1.8306': '1.8306e-03',
           '6.5929': '6.5929e-03', '0.49297': '4.9297e-06', '7.4062': '7.4062e-05',
           '0.036643': '3.6643e-02', '0.28624': '2.8624e-01',
           # Exercise 7.4's key: the mean |J g| at d_K = 64, scaled and unscaled
           '0.28192': '2.8192e-01', '0.15310': '1.5310e-01'}
    for q, printed in sci.items():
        assert q in text, '%s is not quoted in the chapter any more' % q
        assert printed in tokens, 'the chapter quotes %s but %s is not printed' % (q, printed)


def test_help_is_english_and_chinese():
    rc, out, err = run(PROG, ['--help'])
    assert rc == 0 and err == ''
    assert '--samples' in out and '--jacobian' in out
    assert '饱和' in run(PROG, ['--help', '--lang', 'zh'])[1]  # Chinese help: --lang zh (Appendix D)


def test_bad_input_exits_2_with_one_line():
    with TempDir() as d:
        row23 = d.write('m.txt', '2 3\n1 2 3\n4 5 6\n')
        row = d.write('r.txt', '1 3\n1 2 3\n')
        bad = d.write('bad.txt', '1 3\n1 x 3\n')
        nan = d.write('nan.txt', '1 2\n1 nan\n')
        big = d.write('big.txt', '1 5000\n' + ' '.join(['0'] * 5000) + '\n')
        cases = [
            (['--samples', '0'], ['--samples', 'out of range']),
            (['--samples', '1'], ['--samples']),
            (['--samples', '-5'], ['--samples']),
            (['--samples', 'many'], ['--samples', 'not a whole number']),
            (['--trials', '1'], ['--trials']),
            (['--keys', '1'], ['--keys']),
            (['--dk-max', '0'], ['--dk-max']),
            (['--dk-max', '100'], ['--dk-max', 'power of two']),
            (['--dk-max', '2.5'], ['--dk-max']),
            (['--seed', '-1'], ['--seed']),
            (['--table', 'bogus'], ['--table', 'bogus']),
            (['--samples'], ['--samples', 'needs a value']),
            (['--bogus'], ['unknown option', '--bogus']),
            (['stray'], ['unexpected argument', 'stray']),
            (['--jacobian', row23], [row23, '1 x n', '2 x 3']),
            (['--jacobian', big], [big, '4096']),
            (['--softmax', bad], [bad + ':2:', 'not a number']),
            (['--softmax', nan], [nan + ':2:', 'NaN']),
            (['--softmax', d.path + '/missing.txt'], ['missing.txt', 'cannot open']),
            (['--softmax', row, '--jacobian', row], ['choose one']),
            (['--softmax', row, '--samples', '10'], ['--softmax']),
            (['--jacobian', row, '--table', 'variance'], ['--jacobian']),
            (['--table', 'variance', '--softmax', row23], ['--softmax']),
        ]
        expect_bad_inputs(PROG, cases)


def test_sanitizer_build_runs_the_study_and_the_files_cleanly():
    with TempDir() as d:
        row = d.write('r.txt', '1 4\n1 -2 3e3 0.5\n')
        for args in (['--samples', '50', '--trials', '20', '--dk-max', '64', '--keys', '5'],
                     ['--jacobian', row], ['--softmax', row], ['--table', 'temperature']):
            rc, out, err = run(PROG, args, debug=True)
            assert rc == 0 and err == '', '%s under ASan/UBSan: %r' % (args, err[:500])
            assert run(PROG, args)[1] == out, 'debug and release builds differ on %s' % args
