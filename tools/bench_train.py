#!/usr/bin/env python3
"""make bench-train: the time of one training step of Chapter 8's model in C
(build/bin/ch08-training --bench) and of the identical model in PyTorch
(tests/ch08_torch.py: same weights, same batches, float64 both, dropout 0.1
both, the same number of threads), for the book's configuration and a larger
one.  Prints each figure against the goal (C at least 1.5x faster); never
fails on time, since the machine may be shared.

Usage: tools/bench_train.py [--threads N] [--steps N]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'tests'))
PROG = os.path.join(TOP, 'build', 'bin', 'ch08-training')

CONFIGS = [
    ('book: N=2 d=32 h=4 d_ff=64, batch 32 x len 10',
     ['--max-len', '10', '--min-len', '10', '--batch', '32']),
    ('larger: N=2 d=128 h=8 d_ff=512, batch 32 x len 20',
     ['--d-model', '128', '--heads', '8', '--d-ff', '512', '--max-len', '20',
      '--min-len', '20', '--batch', '32']),
]


def c_output(args, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    return subprocess.run([PROG] + args, capture_output=True, text=True, check=True,
                          env=env).stdout


def blas_report(torch):
    lines = []
    cfg = torch.__config__.show()
    for l in cfg.split('\n'):
        if 'BLAS' in l or 'LAPACK' in l:
            lines.append('torch config: ' + l.strip())
    for cmd in (['update-alternatives', '--display', 'libblas.so.3-x86_64-linux-gnu'],):
        try:
            out = subprocess.run(cmd, capture_output=True, text=True).stdout
            lines += ['alternatives: ' + l.strip() for l in out.split('\n')
                      if 'link currently points to' in l]
        except OSError:
            pass
    try:
        import glob
        libs = [p for p in glob.glob('/usr/lib/python3/dist-packages/torch/lib/*.so*')
                if 'libtorch_cpu' in p]
        for p in libs[:1]:
            out = subprocess.run(['ldd', p], capture_output=True, text=True).stdout
            lines += ['ldd libtorch_cpu: ' + l.strip() for l in out.split('\n')
                      if 'blas' in l or 'lapack' in l]
            real = os.path.realpath('/usr/lib/x86_64-linux-gnu/libblas.so.3')
            lines.append('libblas.so.3 -> ' + real)
    except OSError:
        pass
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--steps', type=int, default=20)
    a = ap.parse_args()
    import numpy as np
    import torch
    import ch08_torch
    torch.set_num_threads(a.threads)
    print('bench-train: one training step (forward, backward, Adam), float64, '
          '%d thread(s), median of %d steps' % (a.threads, a.steps))
    for l in blas_report(torch):
        print('  ' + l)
    for name, args in CONFIGS:
        with tempfile.TemporaryDirectory() as d:
            init = os.path.join(d, 'init')
            c_output(args + ['--steps', '0', '--eval', '0', '--save', init], a.threads)
            out = c_output(args + ['--bench', str(a.steps), '--profile'], a.threads)
            c_ms = float(out.split()[0])
            batches = ch08_torch.read_batches(
                torch, c_output(args + ['--batches', str(a.steps + 2)], a.threads))
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
        times.sort()
        t_ms = 1e3 * times[len(times) // 2]
        ratio = t_ms / c_ms
        flag = 'ok' if ratio >= 1.5 else 'BELOW GOAL'
        print('  %s' % name)
        print('    C %8.2f ms   PyTorch %8.2f ms   PyTorch/C %5.2fx  (goal >= 1.5x, aim 2x)  %s'
              % (c_ms, t_ms, ratio, flag))
        for l in out.split('\n')[1:]:
            if l.strip():
                print('      ' + l)
    return 0


if __name__ == '__main__':
    sys.exit(main())
