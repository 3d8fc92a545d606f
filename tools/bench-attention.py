#!/usr/bin/python3
"""make bench-attention: Chapter 10's full benchmark sweep.

For s in {256, 1024, 4096, 16384}, d = 64, causal and not, 1 and 2 threads,
time in one run: the book's naive double attention, the OpenBLAS float
attention and the streaming kernel (build/bin/ch10-fast-attention --bench),
and PyTorch's CPU attention two ways, on the same data (the C program's
`--bench dump` output).  Each measurement runs in a child process of its own,
which reports its own peak resident memory (getrusage ru_maxrss).

  bench-attention.py --record FILE        write the records to FILE, then
                                          print the report made from them
  bench-attention.py --torch-child V S D CAUSAL THREADS   (internal)

The Makefile runs this with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset, so
OpenBLAS picks its kernels for this processor itself.
"""
import os
import platform
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROG = os.path.join(TOP, 'build', 'bin', 'ch10-fast-attention')
SIZES = (256, 1024, 4096, 16384)
C_VARIANTS = ('naive', 'blas', 'stream', 'stream-base')
TORCH_VARIANTS = ('torch', 'torch-mha')


def dump(s, d):
    """The C program's random Q, K, V for (s, d), as float32 torch tensors."""
    import numpy as np
    import torch
    raw = subprocess.run([PROG, '--bench', 'dump', '--seq', str(s), '--dim', str(d)],
                         capture_output=True, check=True).stdout
    x = np.frombuffer(raw, dtype=np.float32).reshape(3, s, d).copy()
    return [torch.from_numpy(x[i]) for i in range(3)]


def blas_library():
    """The BLAS library this process has loaded (from /proc/self/maps)."""
    with open('/proc/self/maps') as f:
        libs = sorted({os.path.realpath(l.split()[-1]) for l in f
                       if 'blas' in l.lower() and '/' in l})
    names = [l for l in libs if 'libopenblas' in l] or libs
    return ('OpenBLAS, ' if any('libopenblas' in l for l in libs) else '') + \
        (' '.join(names) or 'none found')


def torch_child(variant, s, d, causal, threads):
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    q, k, v = dump(s, d)
    scale = 1.0 / d ** 0.5
    mask = None
    if causal:
        mask = torch.triu(torch.full((s, s), float('-inf')), diagonal=1)
    eye = torch.eye(d)
    w_in, w_out = torch.cat([eye, eye, eye]), eye

    def run():
        with torch.no_grad():
            if variant == 'torch':
                scores = q @ k.T * scale
                if mask is not None:
                    scores = scores + mask
                return torch.softmax(scores, -1) @ v
            # one head, identity projections: the attention of the same data
            out, _ = F.multi_head_attention_forward(
                q[:, None], k[:, None], v[:, None], d, 1, w_in, None, None, None,
                False, 0.0, w_out, None, training=False, need_weights=False,
                attn_mask=mask)
            return out[:, 0]
    best, best_cpu, start = 1e300, 0.0, time.perf_counter()
    for rep in range(20):
        t, c = time.perf_counter(), time.process_time()
        run()
        t, c = time.perf_counter() - t, time.process_time() - c
        if t < best:
            best, best_cpu = t, c
        if (time.perf_counter() - start > 1.0 and rep >= 1) or t > 2.0:
            break
    pairs = s * (s + 1) / 2 if causal else s * s
    rss = vm_hwm_mib()
    print('run %s %d %d %d %d %.6f %.3f %.1f torch %.6f' % (
        variant, s, d, causal, threads, best, pairs * 4 * d / best / 1e9, rss, best_cpu))
    print('# torch-blas: %s' % blas_library())


def vm_hwm_mib():
    """Peak resident memory of this process image (VmHWM; ru_maxrss would
    carry over the parent's size across exec)."""
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmHWM:'):
                return int(line.split()[1]) / 1024.0
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def torch_import_rss():
    code = ('import torch; torch.ones(2) @ torch.ones(2); '
            'print([int(l.split()[1]) for l in open("/proc/self/status") '
            'if l.startswith("VmHWM:")][0] / 1024.0)')
    return float(subprocess.run([sys.executable, '-c', code], capture_output=True,
                                text=True, check=True).stdout)


def child(cmd, threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        print('bench-attention: %s failed: %s' % (' '.join(cmd), p.stderr.strip()),
              file=sys.stderr)
        return []
    return p.stdout.strip().split('\n')


def main(argv):
    if len(argv) == 7 and argv[1] == '--torch-child':
        torch_child(argv[2], *(int(x) for x in argv[3:]))
        return 0
    if len(argv) != 3 or argv[1] != '--record':
        print(__doc__, file=sys.stderr)
        return 2
    path = argv[2]
    # not imported here: this process stays small, its children start clean
    have_torch = subprocess.run([sys.executable, '-c', 'import torch'],
                                capture_output=True).returncode == 0
    with open('/proc/loadavg') as f:
        load = f.read().split()[0]
    corename = subprocess.run([PROG, '--lang', 'en'], capture_output=True, text=True).stdout
    corename = corename.split('OpenBLAS: ')[-1].strip()
    lines = ['# Chapter 10 measurements: make bench-attention RECORD=1',
             '# source: make bench-attention on %s' % time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
             '# cpu: %s (%d logical CPUs)' % (cpu_model(), os.cpu_count()),
             '# load: %s (1-minute load average when the sweep began)' % load,
             '# openblas: core %s chosen by OpenBLAS itself (OPENBLAS_CORETYPE unset)' % corename]
    # the machine's roofline: the C program's own short measurement
    from_c = subprocess.run([PROG, '--bench', 'roofline'], capture_output=True, text=True)
    lines += [l for l in from_c.stdout.split('\n') if l.startswith(('peak', 'bandwidth'))]
    if have_torch:
        lines.append('torch-import %.1f' % torch_import_rss())
    blas_seen = set()
    for s in SIZES:
        for causal in (0, 1):
            for threads in (1, 2):
                for v in C_VARIANTS:
                    if v == 'naive' and s > 4096:
                        continue        # 2 GiB of weights and half a minute
                    cmd = [PROG, '--bench', v, '--seq', str(s), '--threads', str(threads)]
                    got = child(cmd + (['--causal'] if causal else []), threads)
                    lines += got
                    print('\n'.join(got), flush=True)
                if have_torch:
                    for v in TORCH_VARIANTS:
                        got = child([sys.executable, os.path.abspath(__file__), '--torch-child',
                                     v, str(s), '64', str(causal), str(threads)], threads)
                        blas_seen.update(l for l in got if l.startswith('# torch-blas'))
                        got = [l for l in got if l.startswith('run')]
                        lines += got
                        print('\n'.join(got), flush=True)
    lines[5:5] = sorted(blas_seen)
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('bench-attention: wrote %s' % path)
    sys.stdout.write(subprocess.run([PROG, '--report', path], capture_output=True,
                                    text=True, check=True).stdout)
    return 0


def cpu_model():
    with open('/proc/cpuinfo') as f:
        for line in f:
            if line.startswith('model name'):
                return line.split(':', 1)[1].strip()
    return platform.processor() or 'unknown'


if __name__ == '__main__':
    sys.exit(main(sys.argv))
