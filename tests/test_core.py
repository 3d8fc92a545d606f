"""Appendix A's program, build/bin/appA-matrix: its output and its bad input."""
import math

from helpers import (TempDir, expect_bad_input, matrix_text, numpy,
                     parse_matrices, run)


def test_random_matrix_has_the_asked_shape_and_is_reproducible():
    rc, out, err = run('appA-matrix', ['--random', '5', '7', '--seed', '3'])
    assert rc == 0 and err == '', err
    (m,) = parse_matrices(out)
    assert len(m) == 5 and all(len(r) == 7 for r in m), 'expected a 5 x 7 matrix'
    assert run('appA-matrix', ['--random', '5', '7', '--seed', '3'])[1] == out, \
        'the same seed must give the same matrix'
    assert run('appA-matrix', ['--random', '5', '7', '--seed', '4'])[1] != out, \
        'another seed must give another matrix'


def test_random_draws_have_the_asked_standard_deviation():
    np = numpy()
    rc, out, _ = run('appA-matrix', ['--random', '400', '250', '--std', '3', '--seed', '9'])
    x = np.array(parse_matrices(out)[0])
    n = x.size                     # 100000 draws: standard errors 3/sqrt(n), 9*sqrt(2/n)
    assert abs(x.mean()) < 5 * 3 / math.sqrt(n), 'mean %g' % x.mean()
    assert abs(x.var() - 9) < 5 * 9 * math.sqrt(2 / n), 'variance %g' % x.var()


def test_histogram_matches_the_normal_density():
    rc, out, _ = run('appA-matrix', ['--histogram'])
    assert rc == 0
    rows = [list(map(float, l.split())) for l in out.split('\n')
            if l and not l.startswith('#')]
    assert len(rows) == 60, 'expected 60 bins, got %d' % len(rows)
    for centre, empirical, density in rows:
        exact = math.exp(-centre * centre / 2) / math.sqrt(2 * math.pi)
        assert abs(density - exact) < 1e-6, 'density column wrong at %g' % centre
        # 200000 draws, bin width 0.1: count ~ Binomial; 5 standard errors
        p = exact * 0.1
        se = math.sqrt(p * (1 - p) / 200000) / 0.1
        assert abs(empirical - exact) < 5 * se + 0.002 * exact, \
            'bin at %g: empirical %g vs %g' % (centre, empirical, exact)


def test_check_reports_each_file_and_round_trips_numpy_values():
    np = numpy()
    rng = np.random.default_rng(1)
    with TempDir() as d:
        a = rng.standard_normal((3, 4))
        pa = d.write('a.txt', matrix_text(a, comment='from NumPy'))
        rc, out, err = run('appA-matrix', ['--check', pa, pa])
        assert rc == 0, err
        assert out.count('3 x 4, ok') == 2, out


def test_bad_files_give_one_line_with_file_and_line():
    cases = [
        ('2 2\n1 2\n3\n', ':3:', 'expected 2 numbers, found 1'),
        ('1 2\n1 zz\n', ':2:', 'not a number'),
        ('1 2\n1 nan\n', ':2:', 'NaN'),
        ('1 2\ninf 2\n', ':2:', 'NaN'),
        ('0 2\n', ':1:', 'positive'),
        ('99999999 99999999\n', ':1:', 'too large'),
        ('', ':1:', 'empty'),
    ]
    with TempDir() as d:
        good = d.write('good.txt', '1 1\n5\n')
        for i, (text, line, words) in enumerate(cases):
            path = d.write('bad%d.txt' % i, text)
            for debug in (False, True):
                expect_bad_input('appA-matrix', ['--check', good, path],
                                 must_mention=[path + line, words], debug=debug)
        for debug in (False, True):
            expect_bad_input('appA-matrix', ['--check', d.path + '/missing.txt'],
                             must_mention=['missing.txt', 'cannot open'], debug=debug)


def test_bad_options_exit_2_with_one_line():
    for args, words in [
        (['--bogus'], 'unknown option'),
        (['--random', '3'], 'needs ROWS and COLS'),
        (['--random', 'x', '3'], 'not a whole number'),
        (['--random', '3', '0'], 'out of range'),
        (['--std', '-1'], 'out of range'),
        (['--seed'], 'needs a value'),
        (['--check'], 'at least one FILE'),
        (['extra'], 'unexpected argument'),
    ]:
        for debug in (False, True):
            expect_bad_input('appA-matrix', args, must_mention=[words], debug=debug)


def test_help_and_demo():
    rc, out, err = run('appA-matrix', ['--help'])
    assert rc == 0 and 'usage:' in out
    assert '矩阵' in run('appA-matrix', ['--help', '--lang', 'zh'])[1], 'no Chinese help with --lang zh'
    rc, out, err = run('appA-matrix', [])
    assert rc == 0 and len(parse_matrices(out)[0]) == 3
