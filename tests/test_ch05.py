"""Chapter 5's program, build/bin/ch05-feed-forward: the feed-forward network,
LayerNorm and the residual wrapper against NumPy and PyTorch, the demo's
claims, and bad input."""
import math
import os
import subprocess

from helpers import (TOP, TempDir, expect_bad_inputs, matrix_text, numpy,
                     parse_matrices, run, run_demo, torch, verbatim_block)

PROG = 'ch05-feed-forward'
EPS = 1e-5


def ffn_files(d, rng, n, dm, dff, bias=0.5):
    """Random X, W1, b1, W2, b2 written to files in d; returns (paths, arrays)."""
    arrays = [rng.standard_normal((n, dm)), rng.standard_normal((dm, dff)) / math.sqrt(dm),
              bias * rng.standard_normal((1, dff)),
              rng.standard_normal((dff, dm)) / math.sqrt(dff),
              bias * rng.standard_normal((1, dm))]
    names = ['X.txt', 'W1.txt', 'B1.txt', 'W2.txt', 'B2.txt']
    paths = [d.write(nm, matrix_text(a)) for nm, a in zip(names, arrays)]
    return paths, arrays


def ffn_args(paths):
    return ['--x', paths[0], '--w1', paths[1], '--b1', paths[2], '--w2', paths[3],
            '--b2', paths[4]]


def np_layernorm(np, x):
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)     # biased
    return (x - mu) / np.sqrt(var + EPS)


def np_ffn(np, x, w1, b1, w2, b2):
    return np.maximum(0.0, x @ w1 + b1) @ w2 + b2


def close(np, got, want, what, tol=1e-7):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, '%s: shape %s, expected %s' % (what, got.shape, want.shape)
    err = np.max(np.abs(got - want) / (1.0 + np.abs(want)))
    assert err < tol, '%s: max relative difference %g (tolerance %g)' % (what, err, tol)


def test_ffn_matches_numpy_on_random_shapes():
    np = numpy()
    rng = np.random.default_rng(50)
    for n, dm, dff in [(1, 1, 1), (6, 8, 32), (5, 3, 7), (17, 12, 48), (2, 64, 256)]:
        with TempDir() as d:
            paths, (x, w1, b1, w2, b2) = ffn_files(d, rng, n, dm, dff)
            rc, out, err = run(PROG, ffn_args(paths))
            assert rc == 0, err
            (y,) = parse_matrices(out)
            close(np, y, np_ffn(np, x, w1, b1, w2, b2), 'FFN %dx%d, d_ff %d' % (n, dm, dff))


def test_residual_wrapper_post_and_pre_match_numpy():
    np = numpy()
    rng = np.random.default_rng(51)
    for n, dm, dff in [(4, 6, 10), (9, 16, 40)]:
        with TempDir() as d:
            paths, (x, w1, b1, w2, b2) = ffn_files(d, rng, n, dm, dff)
            want = {'post': np_layernorm(np, x + np_ffn(np, x, w1, b1, w2, b2)),
                    'pre': x + np_ffn(np, np_layernorm(np, x), w1, b1, w2, b2)}
            for where in ('post', 'pre'):
                rc, out, err = run(PROG, ffn_args(paths) + ['--residual', where])
                assert rc == 0, err
                close(np, parse_matrices(out)[0], want[where], '--residual ' + where)


def test_layernorm_matches_torch():
    t = torch()
    np = numpy()
    rng = np.random.default_rng(52)
    for n, dm in [(1, 2), (3, 7), (10, 64), (4, 513)]:
        x = rng.standard_normal((n, dm)) * rng.uniform(0.01, 100) + rng.uniform(-5, 5)
        with TempDir() as d:
            rc, out, err = run(PROG, ['--layernorm', '--x', d.write('X.txt', matrix_text(x))])
            assert rc == 0, err
            want = t.nn.functional.layer_norm(t.tensor(x, dtype=t.float64), (dm,), eps=EPS)
            close(np, parse_matrices(out)[0], want.numpy(), 'LayerNorm %dx%d' % (n, dm))


def test_layernorm_of_a_constant_row_is_zero_not_nan():
    with TempDir() as d:
        rc, out, err = run(PROG, ['--layernorm', '--x', d.write('X.txt', '2 3\n4 4 4\n-1 -1 -1\n')])
        assert rc == 0, err
        assert parse_matrices(out)[0] == [[0.0] * 3, [0.0] * 3], out


def test_ffn_gradients_match_torch_autograd():
    t = torch()
    np = numpy()
    rng = np.random.default_rng(53)
    for n, dm, dff in [(3, 4, 5), (7, 10, 24)]:
        with TempDir() as d:
            paths, arrays = ffn_files(d, rng, n, dm, dff)
            dy = rng.standard_normal((n, dm))
            rc, out, err = run(PROG, ffn_args(paths) + ['--dy', d.write('DY.txt', matrix_text(dy))])
            assert rc == 0, err
            got = parse_matrices(out)
            ts = [t.tensor(a, dtype=t.float64, requires_grad=True) for a in arrays]
            x, w1, b1, w2, b2 = ts
            y = t.relu(x @ w1 + b1) @ w2 + b2
            (y * t.tensor(dy)).sum().backward()
            assert len(got) == 5, 'expected 5 gradient matrices, got %d' % len(got)
            for g, tt, name in zip(got, ts, ['dX', 'dW1', 'db1', 'dW2', 'db2']):
                close(np, g, tt.grad.numpy(), 'FFN %s (%dx%d, d_ff %d)' % (name, n, dm, dff))


def test_layernorm_gradients_match_torch_autograd():
    t = torch()
    np = numpy()
    rng = np.random.default_rng(54)
    for n, dm in [(2, 3), (6, 17)]:
        x = rng.standard_normal((n, dm)) * 3
        dy = rng.standard_normal((n, dm))
        with TempDir() as d:
            rc, out, err = run(PROG, ['--layernorm', '--x', d.write('X.txt', matrix_text(x)),
                                      '--dy', d.write('DY.txt', matrix_text(dy))])
            assert rc == 0, err
        got = parse_matrices(out)
        tx = t.tensor(x, requires_grad=True)
        g = t.ones(dm, dtype=t.float64, requires_grad=True)
        b = t.zeros(dm, dtype=t.float64, requires_grad=True)
        y = t.nn.functional.layer_norm(tx, (dm,), g, b, eps=EPS)
        (y * t.tensor(dy)).sum().backward()
        for m, tt, name in zip(got, (tx, g, b), ('dX', 'dgamma', 'dbeta')):
            close(np, np.array(m).reshape(tt.grad.shape), tt.grad.numpy(),
                  'LayerNorm %s (%dx%d)' % (name, n, dm))


def test_demo_is_fast_and_shows_what_the_text_says():
    out = run_demo(PROG)
    assert 'one row at a time: max |diff| = 0\n' in out, out
    assert 'changes the outputs at: 3\n' in out, out
    assert 'reaches positions: 2 3 4\n' in out, out
    # hand-derived counts: 2*512*2048 + 2048 + 512 and 4*512^2 + 4*512
    assert '= 2099712\n' in out and '= 1050624;' in out, out
    assert 'equal at s = 1024 keys' in out, out          # d_ff - 2 d_model
    defect = [l for l in out.split('\n') if l.startswith('affine defect')][0]
    without, with_relu = [float(w.rstrip(',')) for w in defect.split()[-4::3]]
    assert without < 1e-12 < 0.1 < with_relu, defect


def test_depth_sweep_post_norm_stays_at_one_and_pre_norm_grows_by_a_half():
    rc, out, err = run(PROG, ['--depth', '24'])
    assert rc == 0, err
    rows = [list(map(float, l.split())) for l in out.split('\n') if l and l[0] != '#']
    assert len(rows) == 25, 'expected layers 0..24'
    ms0 = rows[0][2]
    for layer, post, pre, pred in rows[1:]:
        assert abs(post - 1.0) < 1e-4, 'post-norm at layer %d: %g' % (layer, post)
        assert abs(pred - (ms0 + layer / 2)) < 1e-5, 'prediction column at layer %d' % layer
        # the mean of 16 stacks: allow 10 % around the hand-derived ms0 + l/2
        assert abs(pre - (ms0 + layer / 2)) < 0.1 * (ms0 + layer / 2), \
            'pre-norm at layer %d: %g, expected about %g' % (layer, pre, ms0 + layer / 2)


def test_help_is_bilingual():
    rc, out, err = run(PROG, ['--help'])
    assert rc == 0 and 'usage:' in out and 'eps = 1e-5' in out
    assert '前馈网络' in run(PROG, ['--help', '--lang', 'zh'])[1]  # Chinese help: --lang zh (Appendix D)


def test_bad_input_exits_2_with_one_line():
    np = numpy()
    rng = np.random.default_rng(55)
    with TempDir() as d:
        paths, _ = ffn_files(d, rng, 4, 6, 10)
        x, w1, b1, w2, b2 = paths
        bad_b1 = d.write('bad_b1.txt', '1 9\n' + ' '.join(['1'] * 9) + '\n')
        two_row_b2 = d.write('b2x2.txt', matrix_text([[0.0] * 6, [0.0] * 6]))
        bad_dy = d.write('dy.txt', matrix_text([[0.0] * 5] * 4))
        not_a_number = d.write('nan.txt', '1 6\n1 2 3 x 5 6\n')
        cases = [
            (['--bogus'], ['unknown option']),
            (['--x'], ['needs a value']),
            (['extra'], ['unexpected argument']),
            (['--x', x], ['missing --w1']),
            (['--x', x, '--w1', w1, '--b1', b1, '--w2', w2], ['missing --b2']),
            (['--w1', w1], ['--x X.txt is required']),
            (['--x', x, '--w1', w2, '--b1', b1, '--w2', w2, '--b2', b2], ['W1 must have 6 rows']),
            (['--x', x, '--w1', w1, '--b1', bad_b1, '--w2', w2, '--b2', b2], ['bad_b1.txt', '1 x 10']),
            (['--x', x, '--w1', w1, '--b1', b1, '--w2', w1, '--b2', b2], ['W2', '10 x 6']),
            (['--x', x, '--w1', w1, '--b1', b1, '--w2', w2, '--b2', two_row_b2], ['b2', '1 x 6']),
            (['--x', x, '--w1', w1, '--b1', b1, '--w2', w2, '--b2', b2, '--dy', bad_dy],
             ['dy.txt', '4 x 6']),
            (['--x', x, '--w1', w1, '--b1', b1, '--w2', w2, '--b2', b2, '--residual', 'mid'],
             ["'mid' is not"]),
            (['--x', x, '--w1', w1, '--b1', b1, '--w2', w2, '--b2', b2, '--residual', 'pre',
              '--dy', x], ['bare network']),
            (['--layernorm', '--x', x, '--w1', w1], ['--layernorm takes only']),
            (['--layernorm', '--x', not_a_number], ['nan.txt:2:', 'not a number']),
            (['--layernorm', '--x', d.path + '/missing.txt'], ['missing.txt', 'cannot open']),
            (['--depth', '0'], ['out of range']),
            (['--depth', 'ten'], ['not a whole number']),
            (['--depth', '5', '--x', x], ['--depth takes no other option']),
            (['--seed', '3'], ['--seed works with --depth only']),
        ]
        expect_bad_inputs(PROG, cases)


def test_sanitizer_build_runs_the_demo_and_data_mode_cleanly():
    np = numpy()
    rng = np.random.default_rng(56)
    rc, out, err = run(PROG, debug=True)
    assert rc == 0 and err == '', err[:500]
    with TempDir() as d:
        paths, _ = ffn_files(d, rng, 5, 4, 9)
        dy = d.write('DY.txt', matrix_text(rng.standard_normal((5, 4))))
        for extra in ([], ['--residual', 'pre'], ['--dy', dy]):
            rc, out, err = run(PROG, ffn_args(paths) + extra, debug=True)
            assert rc == 0 and err == '', err[:500]
        rc, out, err = run(PROG, ['--layernorm', '--x', paths[0], '--dy', dy], debug=True)
        assert rc == 0 and err == '', err[:500]


def test_the_recipe_printed_in_the_chapter_runs():
    """The commands of the chapter's verbatim recipe, run as printed."""
    recipe = verbatim_block('05-feed-forward.nw', 'appA-matrix --random 6 8')
    commands = recipe.replace('\\\n', ' ').strip().split('\n')
    with TempDir() as d:
        outputs = []
        for c in commands:
            c = c.replace('build/bin/', os.path.join(TOP, 'build', 'bin') + '/')
            p = subprocess.run(c, shell=True, cwd=d.path, capture_output=True, text=True)
            assert p.returncode == 0, '%s: %s' % (c, p.stderr)
            outputs.append(p.stdout)
    ffn_out, ln_out = outputs[-2], outputs[-1]
    assert len(parse_matrices(ffn_out)[0]) == 6 and len(parse_matrices(ln_out)[0]) == 6
