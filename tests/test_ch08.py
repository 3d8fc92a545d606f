"""Chapter 8's program, build/bin/ch08-training: the whole model against
PyTorch (gradients at the initial weights and the losses of the first 20
training steps, the model rebuilt from torch.nn primitives in
tests/ch08_torch.py), resuming from a checkpoint bit for bit, refusing bad
checkpoints and options, the progress line, and the figures' training runs.
"""
import os
import pty
import re
import subprocess

from helpers import (BIN, TOP, TempDir, expect_bad_input, expect_bad_inputs,
                     numpy, run, torch)
import ch08_torch

PROG = 'ch08-training'
SMALL = ['--mixed-lengths', '--d-model', '16', '--heads', '2', '--d-ff', '24', '--batch', '8',
         '--max-len', '6', '--symbols', '6', '--eval', '0']


def ok(args):
    rc, out, err = run(PROG, args, timeout=300)
    assert rc == 0 and err == '', '%s %s: status %d, %r' % (PROG, ' '.join(args), rc, err[:300])
    return out


def torch_model(t, np, path):
    cfg, flat, _, _, step = ch08_torch.read_checkpoint(path, np)
    assert step == 0, step
    model = ch08_torch.build(t, cfg)
    ch08_torch.load_flat(t, model, cfg, flat)
    return cfg, model


def check_gradients(extra):
    t, np = torch(), numpy()
    with TempDir() as d:
        init, grad = os.path.join(d.path, 'init'), os.path.join(d.path, 'grad')
        args = SMALL + ['--dropout', '0'] + extra
        ok(args + ['--steps', '0', '--save', init])
        loss_c = float(ok(args + ['--grad-file', grad]).split()[1])
        _, g_c, _, _, _ = ch08_torch.read_checkpoint(grad, np)
        (src, tgt_in, tgt_out), = ch08_torch.read_batches(t, ok(args + ['--batches', '1']))
        cfg, model = torch_model(t, np, init)
    model.train()
    loss = model.loss(src, tgt_in, tgt_out)
    loss.backward()
    g_t = ch08_torch.flat_grads(t, model, cfg, np)
    assert abs(loss.item() - loss_c) <= 1e-12 * abs(loss_c), \
        'loss: C %.17g, PyTorch %.17g' % (loss_c, loss.item())
    scale = np.abs(g_t).max()
    worst = np.abs(g_c - g_t).max()
    at = int(np.abs(g_c - g_t).argmax())
    names = [n for n, s in ch08_torch.layout(cfg) for _ in range(int(np.prod(s)))]
    assert worst <= 1e-10 * scale, \
        'gradient %s: C %.17g, PyTorch %.17g (largest gradient %g)' % (
            names[at], g_c[at], g_t[at], scale)


def test_gradients_match_torch_autograd_post_norm():
    check_gradients([])


def test_gradients_match_torch_autograd_pre_norm():
    check_gradients(['--norm', 'pre', '--smoothing', '0.2'])


def test_first_20_losses_match_torch():
    t, np = torch(), numpy()
    steps, warmup = 20, 8
    with TempDir() as d:
        init = os.path.join(d.path, 'init')
        args = SMALL + ['--dropout', '0', '--warmup', str(warmup)]
        ok(args + ['--steps', '0', '--save', init])
        trace = ok(args + ['--steps', str(steps), '--trace'])
        batches = ch08_torch.read_batches(t, ok(args + ['--batches', str(steps)]))
        cfg, model = torch_model(t, np, init)
    losses_c = [float(l.split()[1]) for l in trace.split('\n') if l and not l.startswith('#')]
    assert len(losses_c) == steps, trace
    opt = t.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9)
    model.train()
    for k, (src, tgt_in, tgt_out) in enumerate(batches):
        for group in opt.param_groups:
            group['lr'] = ch08_torch.noam(cfg['d_model'], k + 1, warmup)
        opt.zero_grad()
        loss = model.loss(src, tgt_in, tgt_out)
        loss.backward()
        opt.step()
        rel = abs(loss.item() - losses_c[k]) / abs(losses_c[k])
        assert rel <= 1e-9, 'step %d: C loss %.17g, PyTorch %.17g (relative %.2g)' % (
            k + 1, losses_c[k], loss.item(), rel)
    assert losses_c[-1] < losses_c[0] - 0.2, 'the loss did not fall: %s' % losses_c


def test_resume_is_bit_identical():
    with TempDir() as d:
        p = lambda n: os.path.join(d.path, n)
        whole = ok(SMALL + ['--steps', '30', '--trace', '--save', p('whole')])
        ok(SMALL + ['--steps', '13', '--save', p('half')])
        rest = ok(SMALL + ['--steps', '30', '--trace', '--resume', p('half'), '--save', p('resumed')])
        with open(p('whole'), 'rb') as f1, open(p('resumed'), 'rb') as f2:
            assert f1.read() == f2.read(), 'the resumed run ended with other bytes'
    tail = [l for l in whole.split('\n') if re.match(r'(1[4-9]|2\d|30) ', l)]
    assert tail == [l for l in rest.split('\n') if re.match(r'\d', l)], (tail, rest)


def test_dropout_is_seeded_and_changes_the_run():
    a = ok(SMALL + ['--steps', '5', '--trace'])
    assert a == ok(SMALL + ['--steps', '5', '--trace'])
    assert a != ok(SMALL + ['--steps', '5', '--trace', '--dropout', '0'])


def test_checkpoint_checksum_is_fnv1a():
    np = numpy()
    with TempDir() as d:
        path = os.path.join(d.path, 'c')
        ok(SMALL + ['--steps', '2', '--save', path])
        cfg, flat, m, v, step = ch08_torch.read_checkpoint(path, np)   # verifies FNV-1a
    assert step == 2 and cfg['d_model'] == 16 and len(flat) == len(m) == len(v)
    assert sum(int(np.prod(s)) for _, s in ch08_torch.layout(cfg)) == len(flat)


def test_bad_checkpoints():
    with TempDir() as d:
        good = os.path.join(d.path, 'good')
        ok(SMALL + ['--steps', '1', '--save', good])
        with open(good, 'rb') as f:
            data = f.read()
        cases = []
        for name, content, what in [
                ('truncated', data[:len(data) // 2], 'truncated'),
                ('flipped', data[:1000] + bytes([data[1000] ^ 1]) + data[1001:], 'checksum'),
                ('longer', data + b'\0', 'trailing'),
                ('text', b'2 2\n1 2\n3 4\n', 'not a checkpoint'),
                ('version', data[:8] + b'\x07' + data[9:], 'version'),
                ('empty', b'', 'not a checkpoint')]:
            path = d.write(name, '')
            with open(path, 'wb') as f:
                f.write(content)
            cases.append((SMALL + ['--steps', '2', '--resume', path], [path, what]))
        cases.append((SMALL + ['--resume', os.path.join(d.path, 'missing')], ['missing']))
        other = [a if a != '24' else '32' for a in SMALL]    # d_ff 32, not 24
        cases.append((other + ['--resume', good], [good, 'not the one asked for']))
        expect_bad_inputs(PROG, cases)


def test_bad_options():
    expect_bad_inputs(PROG, [
        (['--task', 'sort'], ['--task']),
        (['--heads', '5'], ['heads']),
        (['--min-len', '5', '--max-len', '3'], ['--min-len']),
        (['--dropout', '2'], ['--dropout']),
        (['--steps', 'many'], ['--steps']),
        (['--norm', 'middle'], ['--norm']),
        (['--frobnicate'], ['--frobnicate']),
        (['extra'], ['extra']),
    ])


def test_progress_line_only_on_a_terminal():
    args = [os.path.join(BIN, PROG)] + SMALL + ['--steps', '20']
    _, err = run(PROG, SMALL + ['--steps', '20'])[1:]
    assert err == '', 'progress on a pipe: %r' % err
    master, slave = pty.openpty()
    p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=slave, cwd=TOP, timeout=60)
    os.close(slave)
    text = os.read(master, 4096).decode()
    os.close(master)
    assert p.returncode == 0
    assert re.search(r'step 20/20 +loss [\d.]+ +lr [\d.e+-]+ +\d+ tokens/s', text), repr(text)


def test_help_in_both_languages():
    out = ok(['--help'])
    assert '--resume FILE' in out and '倒序' in out


def test_schedule_is_equation_3():
    rows = [l.split() for l in ok(['--schedule']).split('\n') if l and l[0] != '#']
    for r in rows:
        s = int(r[0])
        for col, (d, w) in zip(r[1:], [(512, 4000), (1024, 4000), (512, 8000)]):
            want = d ** -0.5 * min(s ** -0.5, s * w ** -1.5)
            assert abs(float(col) - want) <= 1e-6 * want, (s, d, w, col, want)
    peak = max(rows, key=lambda r: float(r[1]))
    assert peak[0] == '4000', peak
