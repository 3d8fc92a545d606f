#!/usr/bin/env python3
"""make bench-train: the time of one training step of Chapter 8's model in C
(build/bin/ch08-training --bench) and of the identical model in PyTorch
(tests/ch08_torch.py: same weights, same batches, float64 both, dropout 0.1
both, the same number of threads), for the book's configuration and a larger
one, with one thread and with two (PyTorch, which has a pool of its own and
OpenBLAS's, keeps the fastest way of sharing the threads between them).  C runs twice: with its own products
(gemm.c) and with OpenBLAS's dgemm (ATTN_BLAS=openblas), the BLAS PyTorch
uses.  Each side's time is its fastest step (a busy machine only ever adds
time), in the fastest of --rounds (3) rounds that run the three in turn, so
that a busy spell of a shared machine favours neither side.  Prints each figure against the goal (C with OpenBLAS's products at
least 1.5x faster than PyTorch) and exits with status 1 if one misses it.

  --record FILE   also write the measurements as Chapter 8 shows them
                  (data/ch08-measured.dat; `make bench-train RECORD=1`)
  --first PROG    the chapter's first ch08-training, whose profile the
                  record keeps as "the first version"
  --before PROG   an older ch08-training whose profile the record keeps as
                  "the previous version"
                  (without one of them, the record keeps that section of FILE
                  as it was; make bench-train RECORD=1 builds both from their
                  commits, mk/bench.mk, so that the three versions are
                  measured on one machine in one sitting)

Usage: tools/bench_train.py [--threads N] [--steps N] [--rounds N] [--record FILE]
                            [--first PROG] [--before PROG]
"""
import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'tests'))
PROG = os.path.join(TOP, 'build', 'bin', 'ch08-training')
GOAL = 1.5

CONFIGS = [
    ('book', 'N=2 d=32 h=4 d_ff=64, batch 32 x len 10',
     ['--max-len', '10', '--min-len', '10', '--batch', '32']),
    ('larger', 'N=2 d=128 h=8 d_ff=512, batch 32 x len 20',
     ['--d-model', '128', '--heads', '8', '--d-ff', '512', '--max-len', '20',
      '--min-len', '20', '--batch', '32']),
]


def c_output(args, threads, blas=False, prog=PROG):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    env.pop('ATTN_BLAS', None)
    if blas:
        env['ATTN_BLAS'] = 'openblas'
    return subprocess.run([prog] + args, capture_output=True, text=True, check=True,
                          env=env).stdout


def c_bench(args, threads, steps, blas=False, prog=PROG):
    """(fastest ms, profile lines) of prog --bench."""
    out = c_output(args + ['--bench', str(steps), '--profile'], threads, blas, prog)
    m = re.search(r'fastest ([0-9.]+) ms', out)
    ms = float(m.group(1)) if m else float(out.split()[0])
    prof = [l for l in out.split('\n')[2:] if l.strip()]
    return ms, prof


def torch_bench(torch, np, ch08_torch, args, threads, steps):
    torch.set_num_threads(threads)
    with tempfile.TemporaryDirectory() as d:
        init = os.path.join(d, 'init')
        c_output(args + ['--steps', '0', '--eval', '0', '--save', init], 1)
        batches = ch08_torch.read_batches(
            torch, c_output(args + ['--batches', str(steps + 2)], 1))
        cfg, flat, _, _, _ = ch08_torch.read_checkpoint(init, np)
    model = ch08_torch.build(torch, cfg)
    ch08_torch.load_flat(torch, model, cfg, flat)
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    times = []
    for k, (src, tgt_in, tgt_out) in enumerate(batches):
        t0 = time.perf_counter()
        opt.zero_grad()
        loss = model.loss(src, tgt_in, tgt_out)
        loss.backward()
        opt.step()
        if k >= 2:
            times.append(time.perf_counter() - t0)
    return 1e3 * min(times)


# PyTorch has two pools of threads: its own (intra-op, OpenMP) for the
# element-wise work, and OpenBLAS's (pthreads) inside each product.  Giving
# both the same N threads on N cores can oversubscribe them (one pool spins
# while the other works), so with N > 1 threads PyTorch runs in each of
# these arrangements and keeps its fastest: the baseline gets its best use
# of the same N threads, never a handicap.
def torch_arrangements(threads):
    """(intra-op threads, OpenBLAS threads) pairs to try for `threads`."""
    if threads == 1:
        return [(1, 1)]
    return [(threads, threads), (threads, 1), (1, threads)]


def torch_best(key, threads, steps):
    """(fastest ms, (intra-op, OpenBLAS threads)) of PyTorch over the
    arrangements, each in a fresh process (OpenBLAS reads its thread count
    from the environment when it loads)."""
    best = None
    for intra, blas in torch_arrangements(threads):
        env = dict(os.environ, OMP_NUM_THREADS=str(intra), OPENBLAS_NUM_THREADS=str(blas))
        out = subprocess.run([sys.executable, os.path.abspath(__file__), '--torch-step', key,
                              '--threads', str(intra), '--steps', str(steps)],
                             capture_output=True, text=True, check=True, env=env).stdout
        ms = float(out.split()[0])
        if best is None or ms < best[0]:
            best = (ms, (intra, blas))
    return best


def blas_report(torch):
    lines = []
    for l in torch.__config__.show().split('\n'):
        if 'BLAS_INFO' in l:
            lines.append('torch config: ' + ', '.join(
                x.strip() for x in l.split(',') if 'BLAS' in x or 'LAPACK' in x))
    real = os.path.realpath('/usr/lib/x86_64-linux-gnu/libblas.so.3')
    lines.append('libblas.so.3 (PyTorch) -> ' + real)
    real = os.path.realpath('/usr/lib/x86_64-linux-gnu/libopenblas.so.0')
    lines.append('libopenblas.so.0 (C, ATTN_BLAS=openblas) -> ' + real)
    # The kernels OpenBLAS runs: its own choice for this processor, unless
    # OPENBLAS_CORETYPE forces one (make bench-train unsets it, and
    # OPENBLAS_L2_SIZE with it, for this command alone).
    core = 'unknown'
    try:
        import ctypes
        lib = ctypes.CDLL('libopenblas.so.0')
        lib.openblas_get_corename.restype = ctypes.c_char_p
        core = lib.openblas_get_corename().decode()
    except (OSError, AttributeError):
        pass
    forced = os.environ.get('OPENBLAS_CORETYPE')
    if forced:
        lines.append('openblas: core %s (forced: OPENBLAS_CORETYPE=%s)' % (core, forced))
    else:
        lines.append('openblas: core %s chosen by OpenBLAS itself (OPENBLAS_CORETYPE unset)' % core)
    return lines


def cpu_model():
    try:
        out = subprocess.run(['lscpu'], capture_output=True, text=True).stdout
        for l in out.split('\n'):
            if l.startswith('Model name:'):
                return l.split(':', 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or 'unknown'


def old_programs(a):
    """The record's sections for older versions, and the program each
    (None: keep the section as FILE has it)."""
    return (('profile of the first version', a.first),
            ('profile of the previous version', a.before))


def program_name(prog):
    """How the record names an older program: ch08-old-COMMIT for one that
    make bench-train built from its commit (build/old/COMMIT/...)."""
    m = re.search(r'/old/([0-9a-f]{7,40})/', os.path.abspath(prog))
    return 'ch08-old-' + m.group(1) if m else os.path.basename(prog)


def old_section(path, title):
    """The lines of section title in an earlier record, or None."""
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except OSError:
        return None
    for i, l in enumerate(lines):
        if l.startswith('## ' + title):
            body = [l]
            for x in lines[i + 1:]:
                if not x.strip():
                    break
                body.append(x)
            return body
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--threads', type=int, action='append')
    ap.add_argument('--steps', type=int, default=20)
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--record')
    ap.add_argument('--first')
    ap.add_argument('--before')
    ap.add_argument('--torch-step', help=argparse.SUPPRESS)   # one PyTorch measurement
    a = ap.parse_args()
    threads = a.threads or [1, 2]
    import numpy as np
    import torch
    import ch08_torch
    if a.torch_step:
        args = dict((k, v) for k, _, v in CONFIGS)[a.torch_step]
        print('%.4f' % torch_bench(torch, np, ch08_torch, args, threads[0], a.steps))
        return 0
    load = os.getloadavg()[0]
    print('bench-train: one training step (forward, backward, Adam), float64, '
          'fastest of %d steps in each of %d interleaved rounds; load %.2f when it began'
          % (a.steps, a.rounds, load))
    blas = blas_report(torch)
    for l in blas:
        print('  ' + l)
    rows, profiles, missed = [], {}, 0
    olds = [(title, prog) for title, prog in old_programs(a) if prog and a.record]
    old_best = {}
    for key, name, args in CONFIGS:
        for t in threads:
            # The rounds interleave the three: a busy spell on a shared
            # machine slows whichever runs during it, and each side keeps
            # its fastest round, so neither is favoured by when it ran.
            own = ob = pt = None
            for _ in range(a.rounds):
                if key == 'larger' and t == 1:
                    # the older versions' profiles, in the same rounds
                    for title, prog in olds:
                        r = c_bench(args, t, a.steps, prog=prog)
                        if title not in old_best or r[0] < old_best[title][0]:
                            old_best[title] = r
                r = c_bench(args, t, a.steps)
                if own is None or r[0] < own:
                    own, prof_own = r
                r = c_bench(args, t, a.steps, blas=True)
                if ob is None or r[0] < ob:
                    ob, prof_ob = r
                r = torch_best(key, t, a.steps)
                if pt is None or r[0] < pt:
                    pt, (intra, nblas) = r
            profiles[(key, t, 'own')], profiles[(key, t, 'openblas')] = prof_own, prof_ob
            ok = pt / ob >= GOAL
            missed += not ok
            rows.append((key, t, pt, own, ob))
            print('  %s, %d thread(s)%s' % (name, t, '' if t == 1 else
                  ' (PyTorch fastest with %d intra-op and %d OpenBLAS threads)' % (intra, nblas)))
            print('    PyTorch %8.2f ms   C (own products) %8.2f ms  %5.2fx   '
                  'C (OpenBLAS products) %8.2f ms  %5.2fx   goal >= %.1fx  %s'
                  % (pt, own, pt / own, ob, pt / ob, GOAL, 'OK' if ok else 'BELOW GOAL'))
    for (key, t, kind), prof in sorted(profiles.items()):
        if key == 'larger' and t == 1:
            print('  profile, larger configuration, 1 thread, %s products:' % kind)
            for l in prof:
                print('      ' + l)
    if a.record:
        write_record(a, rows, profiles, blas, load, torch, old_best)
    return 1 if missed else 0


def write_record(a, rows, profiles, blas, load, torch, old_best):
    sections = []
    for title, prog in old_programs(a):
        if prog and title in old_best:
            sections.append(['## %s (%s, one thread, larger configuration)'
                             % (title, program_name(prog))] + old_best[title][1])
        else:
            sections.append(old_section(a.record, title))
    when = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    out = ['# Chapter 8 measurements: make bench-train RECORD=1 (tools/bench_train.py)',
           '# each time is the fastest of %d training steps, in the fastest of %d rounds'
           % (a.steps, a.rounds) + ' that interleave C and PyTorch', '',
           '## machine',
           'cpu: %s (%d logical CPUs)' % (cpu_model(), os.cpu_count() or 0),
           'measured: %s, 1-minute load average %.2f at the start' % (when, load),
           'PyTorch %s, float64 on both sides' % torch.__version__] + blas + ['',
           '## speed',
           '%-7s %7s %11s %16s %21s' % ('config', 'threads', 'PyTorch ms',
                                          'C own ms (x)', 'C OpenBLAS ms (x)')]
    for key, t, pt, own, ob in rows:
        out.append('%-7s %7d %11.2f %9.2f (%4.2fx) %13.2f (%4.2fx)'
                   % (key, t, pt, own, pt / own, ob, pt / ob))
    # what the products alone allow: PyTorch's step over the time the C step
    # spends in OpenBLAS's products (the same calls PyTorch makes)
    prof = profiles.get(('larger', 1, 'openblas')) or []
    mm = [float(l.split()[2]) for l in prof if l.startswith('linear (matmul)')]
    pt1 = [pt for key, t, pt, own, ob in rows if key == 'larger' and t == 1]
    out.append('')
    if mm and pt1 and mm[0] > 0:
        out += ['## bound',
                'bound (larger, 1 thread): PyTorch ms / C OpenBLAS products ms = %.2fx'
                % (pt1[0] / mm[0]), '']
    for section in sections:
        if section:
            out += section + ['']
    for kind in ('own', 'openblas'):
        prof = profiles.get(('larger', 1, kind))
        if prof:
            out += ['## profile, %s products (one thread, larger configuration)' % kind] + prof + ['']
    with open(a.record, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out))
    print('recorded in %s' % a.record)


if __name__ == '__main__':
    sys.exit(main())
