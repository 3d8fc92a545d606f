"""Chapter 6's program, build/bin/ch06-embeddings: the positional encoding
against NumPy, the parameter counts against a formula derived by hand, the
scale measurement against algebra, the encoder and decoder layers against
PyTorch, and bad input."""
import math

from helpers import (expect_bad_inputs, numpy, parse_matrices, run, run_demo,
                     torch, verbatim_block)

PROG = 'ch06-embeddings'

# The paper's Table 3: name -> (N, d_model, d_ff, h, d_k, d_v, paper's millions)
TABLE3 = {
    'base': (6, 512, 2048, 8, 64, 64, 65), 'B-dk16': (6, 512, 2048, 8, 16, 64, 58),
    'B-dk32': (6, 512, 2048, 8, 32, 64, 60), 'C-N2': (2, 512, 2048, 8, 64, 64, 36),
    'C-N4': (4, 512, 2048, 8, 64, 64, 50), 'C-N8': (8, 512, 2048, 8, 64, 64, 80),
    'C-d256': (6, 256, 2048, 8, 32, 32, 28), 'C-d1024': (6, 1024, 2048, 8, 128, 128, 168),
    'C-dff1024': (6, 512, 1024, 8, 64, 64, 53), 'C-dff4096': (6, 512, 4096, 8, 64, 64, 90),
    'big': (6, 1024, 4096, 16, 64, 64, 213),
}
VOCAB = 37000


def hand_count(n_layers, d, dff, h, dk, dv):
    """The chapter's conventions, derived by hand: biases everywhere, gamma and
    beta per LayerNorm, one shared V x d embedding, no parameters in PE."""
    attn = 2 * (d * h * dk + h * dk) + (d * h * dv + h * dv) + (h * dv * d + d)
    ffn = d * dff + dff + dff * d + d
    norm = 2 * d
    enc = attn + ffn + 2 * norm
    dec = 2 * attn + ffn + 3 * norm
    return {'embedding': VOCAB * d, 'attn': attn, 'ffn': ffn, 'norm': norm,
            'enc': enc, 'dec': dec, 'total': VOCAB * d + n_layers * (enc + dec)}


def np_posenc(np, rows, d):
    pos = np.arange(rows)[:, None]
    i = np.arange(d // 2)[None, :]
    angle = pos / np.power(10000.0, 2 * i / d)
    pe = np.zeros((rows, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def test_positional_encoding_matches_numpy():
    np = numpy()
    for rows, cols in [(1, 2), (7, 10), (100, 128), (3, 512), (2000, 6)]:
        rc, out, err = run(PROG, ['--posenc', str(rows), str(cols)])
        assert rc == 0, err
        (pe,) = parse_matrices(out)
        got = np.array(pe)
        want = np_posenc(np, rows, cols)
        assert got.shape == want.shape, 'shape %s, expected %s' % (got.shape, want.shape)
        err = np.max(np.abs(got - want))
        assert err < 1e-8, '--posenc %d %d: max difference %g' % (rows, cols, err)
        # sin^2 + cos^2 = 1 per pair: every row has mean square exactly 1/2
        assert np.max(np.abs((got ** 2).mean(axis=1) - 0.5)) < 1e-8


def test_posenc_output_is_the_matrix_alone_for_gnuplot():
    rc, out, err = run(PROG, ['--posenc', '3', '4'])
    assert out.split('\n')[0] == '3 4', 'the first line must be the header: %r' % out[:40]


def test_parameter_counts_match_the_hand_derived_formula():
    for name, (n, d, dff, h, dk, dv, _) in TABLE3.items():
        rc, out, err = run(PROG, ['--params', name])
        assert rc == 0, err
        want = hand_count(n, d, dff, h, dk, dv)
        total = [l for l in out.split('\n') if l.startswith('total')][0]
        assert int(total.split()[1]) == want['total'], '%s: %s, expected %d' % (
            name, total, want['total'])
        assert ('= %d\n' % want['enc']) in out and ('= %d\n' % want['dec']) in out, \
            '%s: the layer totals should be %d and %d:\n%s' % (name, want['enc'], want['dec'], out)
        assert ('%d\n' % want['embedding']) in out, name


def test_base_and_big_by_hand():
    # 37000*512 + 6*((4*512*512 + 4*512) + (2*512*2048 + 2048 + 512) + 4*512)
    #           + 6*(2*(4*512*512 + 4*512) + (2*512*2048 + 2048 + 512) + 6*512)
    assert hand_count(*TABLE3['base'][:6])['total'] == 63082496
    assert hand_count(*TABLE3['big'][:6])['total'] == 214245376
    for name, want in (('base', 63082496), ('big', 214245376)):
        rc, out, err = run(PROG, ['--params', name])
        assert 'total' in out and str(want) in out, out


def test_table3_vocabulary_ranges():
    rc, out, err = run(PROG, ['--params', 'all'])
    assert rc == 0, err
    rows = {l.split()[0]: l.split() for l in out.split('\n') if l and l.split()[0] in TABLE3}
    assert set(rows) == set(TABLE3), 'rows: %s' % sorted(rows)
    lo_all, hi_all = 0.0, float('inf')
    for name, (n, d, dff, h, dk, dv, paper) in TABLE3.items():
        body = hand_count(n, d, dff, h, dk, dv)['total'] - VOCAB * d
        lo = ((paper - 0.5) * 1e6 - body) / d
        hi = ((paper + 0.5) * 1e6 - body) / d
        r = rows[name]
        assert int(r[8]) == paper, '%s: paper figure %s' % (name, r[8])
        assert (int(r[9]), int(r[11])) == (math.ceil(lo), math.floor(hi)), \
            '%s: vocabulary range %s to %s, expected %d to %d' % (
                name, r[9], r[11], math.ceil(lo), math.floor(hi))
        if name != 'big':
            lo_all, hi_all = max(lo_all, lo), min(hi_all, hi)
    want = 'every row but big fits a vocabulary of %d to %d tokens' % (
        math.ceil(lo_all), math.floor(hi_all))
    assert want in out, 'expected %r in:\n%s' % (want, out)


def test_scale_table_agrees_with_algebra():
    np = numpy()
    rc, out, err = run(PROG, ['--scale'])
    assert rc == 0, err
    rows = [list(map(float, l.split())) for l in out.split('\n') if l and l[0] != '#']
    assert [int(r[0]) for r in rows] == [64, 128, 256, 512, 1024]
    pe128 = None
    for d, ms_e, ms_scaled, ms_pe, var_pe, ms_sum, ms_scaled_sum in rows:
        n = 128 * d             # entries; ms of N(0, s^2) has relative sd sqrt(2/n)
        assert abs(ms_e * d - 1) < 6 * math.sqrt(2 / n) + 0.05, 'ms(E) at d %d: %g' % (d, ms_e)
        assert abs(ms_scaled - 1) < 6 * math.sqrt(2 / n) + 0.05, 'ms(sqrt(d) E) at %d' % d
        assert abs(ms_pe - 0.5) < 1e-4, 'ms(PE) is exactly 1/2, not %g' % ms_pe
        pe128 = np_posenc(np, 128, int(d))
        assert abs(var_pe - pe128.var()) < 1e-4, 'var(PE) at %d: %g vs %g' % (
            d, var_pe, pe128.var())
        assert abs(ms_sum - (ms_e + ms_pe)) < 0.02, 'mean squares add: %g' % ms_sum
        assert abs(ms_scaled_sum - (ms_scaled + ms_pe)) < 0.1, 'mean squares add'


def test_pe_dot_depends_on_the_distance_only():
    np = numpy()
    rc, out, err = run(PROG, ['--pe-dot', '512'])
    assert rc == 0, err
    rows = np.array([list(map(float, l.split())) for l in out.split('\n') if l and l[0] != '#'])
    k = rows[:, 0]
    assert k[0] == -100 and k[-1] == 200
    omega = np.power(10000.0, -2 * np.arange(256) / 512)
    want = np.cos(np.outer(k, omega)).sum(axis=1)      # sum_i cos(k w_i)
    assert np.max(np.abs(rows[:, 1] - want)) < 1e-6
    assert np.max(np.abs(rows[:, 2] - want)) < 1e-6


def load_example(np):
    rc, out, err = run(PROG, ['--dump-example'])
    assert rc == 0, err
    m = [np.array(a) for a in parse_matrices(out)]
    names = ['xs', 'xt'] + ['enc.' + w for w in 'WQ WK WV WO bQ bK bV bO'.split()] + \
        ['enc.' + w for w in 'W1 b1 W2 b2'.split()] + \
        ['self.' + w for w in 'WQ WK WV WO bQ bK bV bO'.split()] + \
        ['cross.' + w for w in 'WQ WK WV WO bQ bK bV bO'.split()] + \
        ['dec.' + w for w in 'W1 b1 W2 b2'.split()] + ['memory', 'y']
    assert len(m) == len(names), 'expected %d matrices, got %d' % (len(names), len(m))
    return dict(zip(names, m))


def set_attention(t, attn, e, prefix):
    attn.in_proj_weight.copy_(t.tensor(np_cat([e[prefix + 'WQ'].T, e[prefix + 'WK'].T,
                                               e[prefix + 'WV'].T])))
    attn.in_proj_bias.copy_(t.tensor(np_cat([e[prefix + 'bQ'][0], e[prefix + 'bK'][0],
                                             e[prefix + 'bV'][0]])))
    attn.out_proj.weight.copy_(t.tensor(e[prefix + 'WO'].T))
    attn.out_proj.bias.copy_(t.tensor(e[prefix + 'bO'][0]))


def set_ffn(t, layer, e, prefix):
    layer.linear1.weight.copy_(t.tensor(e[prefix + 'W1'].T))
    layer.linear1.bias.copy_(t.tensor(e[prefix + 'b1'][0]))
    layer.linear2.weight.copy_(t.tensor(e[prefix + 'W2'].T))
    layer.linear2.bias.copy_(t.tensor(e[prefix + 'b2'][0]))


def np_cat(parts):
    import numpy as np
    return np.concatenate(parts, axis=0)


def test_encoder_and_decoder_layers_match_pytorch():
    t = torch()
    np = numpy()
    e = load_example(np)
    d, h, dff = 8, 2, 32
    with t.no_grad():
        enc = t.nn.TransformerEncoderLayer(d, h, dff, dropout=0.0, batch_first=True,
                                           dtype=t.float64)
        set_attention(t, enc.self_attn, e, 'enc.')
        set_ffn(t, enc, e, 'enc.')
        memory = enc(t.tensor(e['xs'])[None])[0]
        err = np.max(np.abs(memory.numpy() - e['memory']))
        assert err < 1e-7, 'encoder layer differs from PyTorch by %g' % err
        dec = t.nn.TransformerDecoderLayer(d, h, dff, dropout=0.0, batch_first=True,
                                           dtype=t.float64)
        set_attention(t, dec.self_attn, e, 'self.')
        set_attention(t, dec.multihead_attn, e, 'cross.')
        set_ffn(t, dec, e, 'dec.')
        n = e['xt'].shape[0]
        causal = t.triu(t.ones(n, n, dtype=t.bool), diagonal=1)    # True: masked
        y = dec(t.tensor(e['xt'])[None], memory[None], tgt_mask=causal)[0]
        err = np.max(np.abs(y.numpy() - e['y']))
        assert err < 1e-7, 'decoder layer differs from PyTorch by %g' % err


def test_example_inputs_are_scaled_embeddings_plus_positional_encoding():
    np = numpy()
    e = load_example(np)
    # the rows of "the" (positions 0 and 4) share an embedding: their inputs
    # differ by exactly PE(0) - PE(4)
    pe = np_posenc(np, 7, 8)
    assert np.max(np.abs((e['xs'][0] - e['xs'][4]) - (pe[0] - pe[4]))) < 1e-7


def test_demo_is_fast_and_shows_what_the_text_says():
    out = run_demo(PROG)
    shifts = [float(l.split('=')[-1]) for l in out.split('\n') if 'PE(pos) M_k|' in l]
    assert len(shifts) == 3 and max(shifts) < 1e-12, shifts
    tied = [l for l in out.split('\n') if l.startswith('W_e ~')]
    ms = [float(l.split('logits')[1].split(',')[0]) for l in tied]
    assert 0.8 < ms[0] < 1.2 and 400 < ms[1] < 620, tied     # d * (1/d) and d * 1
    assert "no PE:  the two 'the' rows differ by 0;" in out, out
    assert 'decoder positions 0-5 by 0 and' in out, out
    swap = [l for l in out.split('\n') if 'swapping cat and mat' in l]
    assert float(swap[0].split()[-1]) < 1e-12 < 0.1 < float(swap[1].split()[-1]), swap


def test_help_is_bilingual():
    rc, out, err = run(PROG, ['--help'])
    assert rc == 0 and 'usage:' in out
    assert '位置编码' in run(PROG, ['--help', '--lang', 'zh'])[1]  # Chinese help: --lang zh (Appendix D)


def test_bad_input_exits_2_with_one_line():
    cases = [
        (['--posenc', '10', '7'], ['odd']),
        (['--posenc', '10', '0'], ['out of range']),
        (['--posenc', '0', '8'], ['out of range']),
        (['--posenc', '-3', '8'], ['out of range']),
        (['--posenc', 'ten', '8'], ['not a whole number']),
        (['--posenc', '10', '8x'], ['not a whole number']),
        (['--posenc', '10'], ['needs ROWS and COLS']),
        (['--posenc'], ['needs a value']),
        (['--posenc', '100000', '100000'], ['too large']),
        (['--posenc', '1000000', '2'], ['out of range']),
        (['--posenc', '99999999999999999999', '2'], ['out of range']),
        (['--params', 'huge'], ["unknown configuration 'huge'"]),
        (['--params'], ['needs a value']),
        (['--pe-dot', '7'], ['odd']),
        (['--pe-dot', '0'], ['out of range']),
        (['--scale', '--params', 'base'], ['choose one']),
        (['--posenc', '4', '8', 'extra'], ['unexpected argument']),
        (['--bogus'], ['unknown option']),
    ]
    expect_bad_inputs(PROG, cases)


def test_sanitizer_build_runs_every_mode_cleanly():
    for args in ([], ['--posenc', '5', '6'], ['--params', 'all'], ['--scale'],
                 ['--pe-dot', '64'], ['--dump-example']):
        rc, out, err = run(PROG, args, debug=True)
        assert rc == 0 and err == '', '%s: %s' % (args, err[:500])


def test_the_commands_printed_in_the_chapter_run():
    for c in verbatim_block('06-embeddings.nw', '--posenc 4 8').strip().split('\n'):
        args = c.split()[1:]
        rc, out, err = run(PROG, args)
        assert rc == 0 and out, '%s: %s' % (c, err)
