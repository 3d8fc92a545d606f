"""Chapter 1: why attention.  build/bin/ch01-why-attention against closed forms
worked out here, against NumPy, and against the numbers the chapter's text
quotes (so the book cannot drift away from its program)."""
import math
import os
import random
import re

from helpers import (TOP, TempDir, expect_bad_inputs, matrix_text, numpy,
                     parse_matrices, run, run_demo)

PROG = 'ch01-why-attention'
CHAPTER = os.path.join(TOP, 'chapters', '01-why-attention.nw')


def ceil_log(n, k):
    """The least L with k**L >= n, in integers."""
    L, reach = 0, 1
    while reach < n:
        reach *= k
        L += 1
    return L


def connect_rows(text):
    """{n: (k, conv, closed, dilated, closed, rnn, closed, attn, closed)}."""
    rows = {}
    for line in text.split('\n'):
        f = line.split()
        if len(f) == 10 and not line.startswith('#'):
            v = [int(x) for x in f]
            rows[v[0]] = tuple(v[1:])
    return rows


def table1_rows(text):
    """{layer: (per_layer, sequential, max_path)} from --table output."""
    rows = {}
    for line in text.split('\n'):
        f = line.split()
        if len(f) == 4 and not line.startswith('#'):
            rows[f[0]] = (int(f[1]), int(f[2]), float(f[3]))
    return rows


def table1_by_hand(n, d, k, r):
    return {
        'self-attention': (n * n * d, 1, 1.0),
        'recurrent': (n * d * d, n, float(n)),
        'conv-contiguous': (k * n * d * d, 1, n / k),
        'conv-dilated': (k * n * d * d, 1, math.log(n) / math.log(k)),
        'self-attention-local': (r * n * d, 1, n / r),
    }


def chapter_text():
    with open(CHAPTER, encoding='utf-8') as f:
        return f.read()


def table_body(label):
    """The lines of the LaTeX table labelled `label` in the chapter."""
    text = chapter_text()
    end = text.index('\\label{%s}' % label)
    start = text.rindex('\\begin{tabular}', 0, end)
    return text[start:end]


def quoted_blocks(marker):
    """The zh and en blocks right after the line '% quoted: MARKER'."""
    text = chapter_text()
    i = text.index('% quoted: ' + marker)
    m = re.compile(r'\\begin\{zh\}\n(.*?)\\end\{zh\}\n\\begin\{en\}\n(.*?)\\end\{en\}',
                   re.S).match(text, text.index('\n', i) + 1)
    assert m, 'no zh/en blocks after "%% quoted: %s"' % marker
    return m.group(1), m.group(2)


# --- the demo ---------------------------------------------------------------

def test_demo_is_fast_and_deterministic():
    out1 = run_demo(PROG)
    rc, out2, _ = run(PROG)
    assert out1 == out2, 'two runs of the demo printed different output'


def test_demo_under_sanitizers():
    rc, out, err = run(PROG, debug=True)
    assert rc == 0, 'sanitizer build of the demo: rc %d, stderr %r' % (rc, err[:500])
    assert 'ERROR' not in err and 'runtime error' not in err, err[:500]
    assert out == run(PROG)[1], 'the sanitizer build prints other numbers'


def test_help():
    rc, out, err = run(PROG, ['--help'])
    assert rc == 0 and err == '', (rc, err)
    assert out.startswith('usage: ch01-why-attention'), out[:100]
    # One language per run (Appendix D): Chinese with --lang zh or a zh_* locale.
    assert re.search(r'[\u4e00-\u9fff]', run(PROG, ['--help', '--lang', 'zh'])[1]), '--lang zh: no Chinese help'
    for opt in ('--connect', '--table', '--sweep', '--conv', '--rnn',
                '--linear-rnn', '--unrolled', '--self-attention', '--dilation'):
        assert opt in out, '--help does not mention ' + opt


# --- layers to connect position 1 and position n ---------------------------

def test_connect_counts_match_closed_forms():
    rng = random.Random(11)
    cases = [(2, 2), (3, 2), (2, 64), (4096, 64), (1000, 5), (729, 3), (730, 3)]
    cases += [(rng.randint(2, 600), rng.randint(2, 9)) for _ in range(12)]
    for n, k in cases:
        rc, out, err = run(PROG, ['--connect', '--n', str(n), '--k', str(k)])
        assert rc == 0, (n, k, err)
        row = connect_rows(out)[n]
        want = (k, -(-(n - 1) // (k - 1)), -(-(n - 1) // (k - 1)),
                ceil_log(n, k), ceil_log(n, k), n, n, 1, 1)
        assert row == want, 'n=%d k=%d: printed %s, worked by hand %s' % (n, k, row, want)


def test_connect_large_rnn_count():
    # the RNN's parallel rounds at the largest n: n rounds, no shortcut
    rc, out, err = run(PROG, ['--connect', '--n', '4096', '--k', '2'])
    assert rc == 0, err
    row = connect_rows(out)[4096]
    assert row == (2, 4095, 4095, 12, 12, 4096, 4096, 1, 1), row


def test_book_connect_table_matches_program():
    rc, out, _ = run(PROG)
    demo = connect_rows(out)
    body = table_body('tab:why-connect')
    book = {}
    for line in body.split('\n'):
        f = [c.strip().rstrip('\\').strip() for c in line.split('&')]
        if len(f) == 5 and f[0].isdigit():
            book[int(f[0])] = tuple(int(x) for x in f[1:])
    assert sorted(book) == sorted(demo), 'book rows %s, demo rows %s' % (sorted(book), sorted(demo))
    for n, (conv, dil, rnn, attn) in book.items():
        k, c, _, dl, _, r, _, a, _ = demo[n]
        assert (conv, dil, rnn, attn) == (c, dl, r, a), \
            'n=%d: the book says %s, the program %s' % (n, (conv, dil, rnn, attn), (c, dl, r, a))
        assert (conv, dil, rnn, attn) == (-(-(n - 1) // 2), ceil_log(n, 3), n, 1), \
            'n=%d: the book disagrees with the closed forms' % n


def test_connectivity_figure_matches_program():
    """Figure 1.1 (figures/ch01-connectivity.tikz) is drawn for n = 5 and
    k = 3; the path lengths it states in both languages are what the program
    measures for that n and k."""
    path = os.path.join(TOP, 'figures', 'ch01-connectivity.tikz')
    tikz = open(path, encoding='utf-8').read()
    assert '$k = 3$' in tikz and r'\foreach \o in {0, 1, 2}' in tikz, 'not k = 3'
    assert r'\foreach \t in {1, ..., 5}' in tikz, 'not n = 5'
    rc, out, err = run(PROG, ['--connect', '--n', '5', '--k', '3'])
    assert rc == 0, err
    k, conv, _, _, _, rnn, _, attn, _ = connect_rows(out)[5]
    en = re.findall(r'\$x_1\$ to \$[yh]_5\$: (\d+) (layers?|steps?)', tikz)
    zh = re.findall(r'\$x_1\$ 到 \$[yh]_5\$：(\d+) (层|步)', tikz)
    want = [conv, rnn, attn]
    assert [int(c) for c, _ in en] == want and [int(c) for c, _ in zh] == want, \
        '%s: the figure says %s and %s, the program %s' % (path, en, zh, want)


# --- the paper's Table 1 ------------------------------------------------------

def test_table1_matches_hand_formulas():
    rng = random.Random(12)
    cases = [(128, 512, 3, 16), (1, 1, 2, 1), (1000000, 100000, 64, 1000000)]
    cases += [(rng.randint(1, 5000), rng.randint(1, 2048), rng.randint(2, 64), 0)
              for _ in range(8)]
    for n, d, k, r in cases:
        r = r or rng.randint(1, n)
        rc, out, err = run(PROG, ['--table', '--n', str(n), '--d', str(d),
                                  '--k', str(k), '--r', str(r)])
        assert rc == 0, err
        got, want = table1_rows(out), table1_by_hand(n, d, k, r)
        assert sorted(got) == sorted(want), sorted(got)
        for layer, (ops, seq, path) in want.items():
            g = got[layer]
            assert g[:2] == (ops, seq) and abs(g[2] - path) <= 0.005, \
                '%s at n=%d d=%d k=%d r=%d: printed %s, by hand %s' % (
                    layer, n, d, k, r, g, (ops, seq, path))


def test_book_table1_matches_program():
    rc, out, _ = run(PROG, ['--table'])
    got = table1_rows(out)
    want = table1_by_hand(128, 512, 3, 16)
    order = ['self-attention', 'recurrent', 'conv-contiguous', 'conv-dilated',
             'self-attention-local']
    rows = []
    for line in table_body('tab:why-table1').split('\n'):
        f = [c.strip().rstrip('\\').strip() for c in line.split('&')]
        if len(f) == 5 and re.match(r'^[\d\\,]+$', f[2]):
            path = f[4].split('=')[-1].strip(' $')
            rows.append((int(f[2].replace('\\,', '')), int(f[3]), float(path)))
    assert len(rows) == 5, 'expected 5 rows in the book\'s Table 1, found %d' % len(rows)
    for layer, (ops, seq, path) in zip(order, rows):
        assert (ops, seq) == got[layer][:2] == want[layer][:2], \
            '%s: book %s, program %s, by hand %s' % (layer, (ops, seq), got[layer], want[layer])
        assert abs(path - got[layer][2]) <= 0.005 and abs(path - want[layer][2]) <= 0.005, \
            '%s: path length: book %s, program %s' % (layer, path, got[layer][2])


# --- numbers quoted in the text ----------------------------------------------

def test_book_quotes_the_forgetting_numbers_the_demo_prints():
    rc, out, _ = run(PROG)
    m = re.search(r'sequential = (\d+);\n# adding 1 to x_1 changes h_t up to t = (\d+)', out)
    assert m, 'the demo no longer prints the forgetting line'
    rounds, last = m.groups()
    for block in quoted_blocks('forgetting'):
        for number in (rounds, last, str(int(last) + 1)):
            assert re.search(r'(?<![\d.])%s(?![\d.])' % number, block), \
                'the text should quote %s (from the demo): %r' % (number, block[:200])


def test_book_quotes_the_permutation_numbers_the_demo_prints():
    rc, out, _ = run(PROG)
    vals = dict(re.findall(r'^(self-attention|convolution|recurrent)\s+(\S+)$', out, re.M))
    assert float(vals['self-attention']) < 1e-15, vals
    for block in quoted_blocks('permutation'):
        for layer in ('convolution', 'recurrent'):
            assert vals[layer] in block, \
                'the text should quote %s for %s: %r' % (vals[layer], layer, block[:200])


# --- the layers against NumPy -------------------------------------------------

def np_conv(np, x, w, b, dilation):
    n, d_in = x.shape
    k = w.shape[0] // d_in
    y = np.zeros((n, w.shape[1])) + (b if b is not None else 0.0)
    for t in range(n):
        for o in range(k):
            if t - o * dilation >= 0:
                y[t] += x[t - o * dilation] @ w[o * d_in:(o + 1) * d_in]
    return y


def test_conv_against_numpy():
    np = numpy()
    rng = np.random.default_rng(21)
    with TempDir() as tmp:
        for case in range(10):
            n, d_in, d_out = rng.integers(1, 12), rng.integers(1, 5), rng.integers(1, 5)
            k, dilation = rng.integers(1, 5), rng.integers(1, 4)
            x = rng.normal(size=(n, d_in))
            w = rng.normal(size=(k * d_in, d_out))
            b = rng.normal(size=(1, d_out)) if case % 2 else None
            args = ['--conv', tmp.write('x', matrix_text(x)), tmp.write('w', matrix_text(w))]
            if b is not None:
                args.append(tmp.write('b', matrix_text(b)))
            args += ['--dilation', str(dilation)]
            rc, out, err = run(PROG, args)
            assert rc == 0, err
            got = np.array(parse_matrices(out)[0])
            want = np_conv(np, x, w, b, dilation)
            assert got.shape == want.shape and np.allclose(got, want, atol=1e-7), \
                'conv n=%d d_in=%d d_out=%d k=%d dilation=%d: max diff %g' % (
                    n, d_in, d_out, k, dilation, np.abs(got - want).max())


def test_rnn_against_numpy():
    np = numpy()
    rng = np.random.default_rng(22)
    with TempDir() as tmp:
        for _ in range(8):
            n, d_in, d = rng.integers(1, 15), rng.integers(1, 5), rng.integers(1, 6)
            x, w = rng.normal(size=(n, d_in)), rng.normal(size=(d, d)) * 0.6
            u, b = rng.normal(size=(d_in, d)), rng.normal(size=(1, d))
            rc, out, err = run(PROG, ['--rnn'] + [tmp.write(nm, matrix_text(m)) for nm, m in
                                                 (('x', x), ('w', w), ('u', u), ('b', b))])
            assert rc == 0, err
            h, want = np.zeros(d), []
            for t in range(n):
                h = np.tanh(h @ w + x[t] @ u + b[0])
                want.append(h)
            got = np.array(parse_matrices(out)[0])
            assert np.allclose(got, np.array(want), atol=1e-7), np.abs(got - want).max()


def test_linear_rnn_both_forms_against_numpy():
    np = numpy()
    rng = np.random.default_rng(23)
    with TempDir() as tmp:
        for _ in range(6):
            n, d_in, d = rng.integers(1, 30), rng.integers(1, 4), rng.integers(1, 5)
            x = rng.normal(size=(n, d_in))
            a = rng.normal(size=(d, d)) * 0.8 / math.sqrt(d)
            bm = rng.normal(size=(d_in, d))
            files = [tmp.write(nm, matrix_text(m)) for nm, m in (('x', x), ('a', a), ('b', bm))]
            h, want = np.zeros(d), []
            for t in range(n):
                h = h @ a + x[t] @ bm
                want.append(h)
            want = np.array(want)
            # and the unrolled sum, h_t = sum_m x_{t-m} B A^m, computed directly
            unrolled = np.array([sum(x[t - m] @ bm @ np.linalg.matrix_power(a, m)
                                     for m in range(t + 1)) for t in range(n)])
            assert np.allclose(want, unrolled, atol=1e-9)
            for extra in ([], ['--unrolled']):
                rc, out, err = run(PROG, ['--linear-rnn'] + files + extra)
                assert rc == 0, err
                got = np.array(parse_matrices(out)[0])
                assert np.allclose(got, want, atol=1e-7), \
                    'linear RNN %s: max diff %g' % (extra, np.abs(got - want).max())


def np_self_attention(np, x):
    s = x @ x.T / math.sqrt(x.shape[1])
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return (p / p.sum(axis=1, keepdims=True)) @ x


def test_self_attention_against_numpy_and_permutation_equivariance():
    np = numpy()
    rng = np.random.default_rng(24)
    with TempDir() as tmp:
        for _ in range(6):
            n, d = rng.integers(1, 20), rng.integers(1, 8)
            x = rng.normal(size=(n, d)) * 2
            perm = rng.permutation(n)
            rc, out, err = run(PROG, ['--self-attention', tmp.write('x', matrix_text(x))])
            assert rc == 0, err
            y = np.array(parse_matrices(out)[0])
            assert np.allclose(y, np_self_attention(np, x), atol=1e-7), \
                np.abs(y - np_self_attention(np, x)).max()
            rc, out, err = run(PROG, ['--self-attention', tmp.write('px', matrix_text(x[perm]))])
            assert rc == 0, err
            y_px = np.array(parse_matrices(out)[0])
            assert np.allclose(y_px, y[perm], atol=1e-7), \
                'SA(PX) != P SA(X): max diff %g' % np.abs(y_px - y[perm]).max()


def test_conv_and_rnn_see_order():
    # the contrast the chapter draws: reversing the input does not just
    # reverse the convolution's or the RNN's output
    np = numpy()
    rng = np.random.default_rng(25)
    x, w = rng.normal(size=(6, 3)), rng.normal(size=(6, 3))
    u, b = rng.normal(size=(3, 3)), rng.normal(size=(1, 3))
    with TempDir() as tmp:
        fx, fpx = tmp.write('x', matrix_text(x)), tmp.write('px', matrix_text(x[::-1]))
        fw, fu, fb = (tmp.write(nm, matrix_text(m)) for nm, m in (('w', w), ('u', u), ('b', b)))
        for args in (['--conv', '{}', fw], ['--rnn', '{}', fu, fu, fb]):
            y = np.array(parse_matrices(run(PROG, [a.replace('{}', fx) for a in args])[1])[0])
            y_p = np.array(parse_matrices(run(PROG, [a.replace('{}', fpx) for a in args])[1])[0])
            assert np.abs(y_p - y[::-1]).max() > 0.1, args[0] + ' looks order-blind'


# --- the timing sweep ------------------------------------------------------------

def test_sweep_short_counts_and_shape():
    rc, out, err = run(PROG, ['--sweep', 'short'])
    assert rc == 0, err
    rows = [l.split() for l in out.split('\n') if l.strip() and not l.startswith('#')]
    ns = [int(r[0]) for r in rows]
    assert ns == [round(8 * 2 ** (p / 2) + 1e-9) for p in range(13)], ns
    for r in rows:
        n, d = int(r[0]), int(r[1])
        times = [float(t) for t in r[2:5]]
        macs = [int(m) for m in r[5:8]]
        assert d == 64 and all(t > 0 for t in times), r
        assert macs == [2 * n * n * d, (2 * n - 1) * d * d,
                        sum(max(0, n - o) for o in range(3)) * d * d], \
            'n=%d: multiply-adds %s do not match the chapter\'s formulas' % (n, macs)


# --- bad input ------------------------------------------------------------------

def test_bad_input():
    with TempDir() as tmp:
        x = tmp.write('x.txt', '3 2\n1 2\n3 4\n5 6\n')
        w = tmp.write('w.txt', '4 3\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n')
        sq = tmp.write('sq.txt', '2 2\n1 0\n0 1\n')
        bad = tmp.write('bad.txt', '2 2\n1 2\n3\n')
        big = tmp.write('big.txt', '8193 1\n' + '0\n' * 8193)
        cases = [
            (['--bogus'], ['--bogus']), (['-x'], ['-x']), (['--con'], ['--con']),
            (['--connect', '--n'], ['--n', 'value']),
            (['--connect', '--n', '1'], ['--n', 'range']),
            (['--connect', '--n', '4097'], ['--n', 'range']),
            (['--connect', '--n', '12x'], ['--n', '12x']),
            (['--connect', '--k', '1'], ['--k']),
            (['--table', '--d', '0'], ['--d']),
            (['--table', '--r', '200'], ['--r']),
            (['--table', '--n', '1e3'], ['--n']),
            (['--sweep', 'medium'], ['medium']), (['--sweep'], ['--sweep']),
            (['--connect', '--table'], ['--connect', '--table']),
            (['--table', '--dilation', '2'], ['--dilation']),
            (['--self-attention', x, '--seed', '3'], ['--seed']),
            (['--conv', x, w, '--unrolled'], ['--unrolled']),
            (['extra'], ['extra']), (['--table', 'extra'], ['extra']),
            (['--conv', x], ['--conv']), (['--rnn', x, sq, sq], ['--rnn']),
            (['--conv', bad, w], [bad + ':3:']),
            (['--conv', x, os.path.join(tmp.path, 'missing.txt')], ['missing.txt']),
            (['--conv', x, sq, x], ['bias']),
            (['--conv', x, tmp.write('w3.txt', '3 1\n1\n2\n3\n')], ['w3.txt']),
            (['--conv', x, w, '--dilation', '0'], ['--dilation']),
            (['--rnn', x, w, sq, sq], ['square']),
            (['--rnn', x, sq, w, sq], ['U must be']),
            (['--rnn', x, sq, sq, sq], ['B must be']),
            (['--linear-rnn', x, w, sq], ['square']),
            (['--linear-rnn', x, sq, w], ['B must be']),
            (['--self-attention', big], ['8192']),
            (['--self-attention', bad], [bad + ':3:']),
        ]
        expect_bad_inputs(PROG, cases)
