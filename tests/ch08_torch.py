"""Chapter 8's Transformer rebuilt in PyTorch, for the agreement test
(tests/test_ch08.py) and `make bench-train` (tools/bench_train.py).

The model is assembled from torch.nn primitives -- nn.MultiheadAttention,
nn.LayerNorm, nn.Linear, F.cross_entropy(label_smoothing=...) -- and reads
the C program's checkpoint format (Chapter 8, section "Checkpoints") with its
own parser and its own FNV-1a.  The mapping between the C layout (rows are
vectors, y = x W + b) and PyTorch's (nn.Linear computes x W^T + b) is the
table in bindings(): every C matrix is the transpose of a torch weight, and
nn.MultiheadAttention packs W_Q, W_K, W_V into one in_proj_weight of
3 d_model rows, in that order.
"""
import math
import struct

MAGIC = b'ATTNCKPT'
HEADER = 96
POST_NORM, PRE_NORM = 0, 1


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def read_checkpoint(path, np, verify=True):
    """(config dict, params, adam_m, adam_v, step) of a C checkpoint."""
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:8] == MAGIC, '%s: no ATTNCKPT magic' % path
    f = struct.unpack('<11Q', data[8:HEADER])
    version, vocab, d, h, dff, layers, max_len, ns, drop, smooth, n = f
    assert version == 1, version
    cfg = dict(vocab=vocab, d_model=d, heads=h, d_ff=dff, layers=layers,
               max_len=max_len, norm=ns & 0xff, scale=(ns >> 8) & 0xff,
               dropout=struct.unpack('<d', struct.pack('<Q', drop))[0],
               smoothing=struct.unpack('<d', struct.pack('<Q', smooth))[0])
    assert len(data) == HEADER + 24 * n + 40, '%s: wrong length' % path
    blocks = np.frombuffer(data, dtype='<f8', count=3 * n, offset=HEADER).reshape(3, n)
    tail = struct.unpack('<5Q', data[HEADER + 24 * n:])
    if verify:
        assert fnv1a64(data[:-8]) == tail[4], '%s: checksum mismatch' % path
    return cfg, blocks[0].copy(), blocks[1].copy(), blocks[2].copy(), tail[0]


def layout(cfg):
    """(name, shape) of every tensor in the C parameter block, in order."""
    d, dff, V = cfg['d_model'], cfg['d_ff'], cfg['vocab']
    out = [('embedding', (V, d))]

    def attn(p):
        for x in 'qkvo':
            out.extend([('%s.w_%s' % (p, x), (d, d)), ('%s.b_%s' % (p, x), (d,))])

    def norm(p):
        out.extend([(p + '.gamma', (d,)), (p + '.beta', (d,))])

    def ffn(p):
        out.extend([(p + '.w1', (d, dff)), (p + '.b1', (dff,)),
                    (p + '.w2', (dff, d)), (p + '.b2', (d,))])
    for l in range(cfg['layers']):
        attn('enc%d.self' % l), norm('enc%d.norm1' % l)
        ffn('enc%d.ffn' % l), norm('enc%d.norm2' % l)
    for l in range(cfg['layers']):
        attn('dec%d.self' % l), norm('dec%d.norm1' % l)
        attn('dec%d.cross' % l), norm('dec%d.norm2' % l)
        ffn('dec%d.ffn' % l), norm('dec%d.norm3' % l)
    norm('enc_final'), norm('dec_final')
    return out


def build(torch, cfg, dtype=None):
    """A torch module with the configuration cfg (weights unset)."""
    nn, F = torch.nn, torch.nn.functional
    dtype = dtype or torch.float64
    d, h, dff = cfg['d_model'], cfg['heads'], cfg['d_ff']
    kw = dict(dtype=dtype)

    class Ffn(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear1, self.linear2 = nn.Linear(d, dff, **kw), nn.Linear(dff, d, **kw)

        def forward(self, x):
            return self.linear2(F.relu(self.linear1(x)))

    def mha():
        return nn.MultiheadAttention(d, h, batch_first=True, **kw)

    class Enc(nn.Module):
        def __init__(self):
            super().__init__()
            self.self_attn, self.ffn = mha(), Ffn()
            self.norm1, self.norm2 = nn.LayerNorm(d, **kw), nn.LayerNorm(d, **kw)

    class Dec(nn.Module):
        def __init__(self):
            super().__init__()
            self.self_attn, self.cross_attn, self.ffn = mha(), mha(), Ffn()
            self.norm1, self.norm2, self.norm3 = (nn.LayerNorm(d, **kw) for _ in range(3))

    class Transformer(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Parameter(torch.zeros(cfg['vocab'], d, **kw))
            self.enc = nn.ModuleList([Enc() for _ in range(cfg['layers'])])
            self.dec = nn.ModuleList([Dec() for _ in range(cfg['layers'])])
            self.enc_final, self.dec_final = nn.LayerNorm(d, **kw), nn.LayerNorm(d, **kw)
            pe = [[0.0] * d for _ in range(cfg['max_len'])]
            for pos in range(cfg['max_len']):
                for i in range(d // 2):
                    angle = pos / math.pow(10000.0, 2.0 * i / d)
                    pe[pos][2 * i], pe[pos][2 * i + 1] = math.sin(angle), math.cos(angle)
            self.register_buffer('pe', torch.tensor(pe, **kw))
            self.p = cfg['dropout']

        def sub(self, x, f, ln):
            drop = lambda t: F.dropout(t, self.p, self.training)
            if cfg['norm'] == POST_NORM:
                return ln(x + drop(f(x)))
            return x + drop(f(ln(x)))

        def forward(self, src, tgt_in):
            S, T = src.shape[1], tgt_in.shape[1]
            src_pad, tgt_pad = src == 0, tgt_in == 0        # True: padding
            causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
            scale = math.sqrt(d)
            x = F.dropout(self.embedding[src] * scale + self.pe[:S], self.p, self.training)
            for e in self.enc:
                x = self.sub(x, lambda u: e.self_attn(u, u, u, key_padding_mask=src_pad,
                                                      need_weights=False)[0], e.norm1)
                x = self.sub(x, e.ffn, e.norm2)
            mem = self.enc_final(x) if cfg['norm'] == PRE_NORM else x
            y = F.dropout(self.embedding[tgt_in] * scale + self.pe[:T], self.p, self.training)
            for e in self.dec:
                y = self.sub(y, lambda u: e.self_attn(u, u, u, attn_mask=causal,
                                                      key_padding_mask=tgt_pad,
                                                      need_weights=False)[0], e.norm1)
                y = self.sub(y, lambda u: e.cross_attn(u, mem, mem, key_padding_mask=src_pad,
                                                       need_weights=False)[0], e.norm2)
                y = self.sub(y, e.ffn, e.norm3)
            if cfg['norm'] == PRE_NORM:
                y = self.dec_final(y)
            return y @ self.embedding.T                     # section 3.4: tied

        def loss(self, src, tgt_in, tgt_out):
            z = self(src, tgt_in)
            return F.cross_entropy(z.reshape(-1, z.shape[-1]), tgt_out.reshape(-1),
                                   ignore_index=0, label_smoothing=cfg['smoothing'])
    return Transformer()


def bindings(model, cfg):
    """name -> (torch parameter, function giving the C-layout view of a
    tensor shaped like that parameter)."""
    d = cfg['d_model']
    out = {'embedding': (model.embedding, lambda t: t)}

    def attn(p, m):
        for i, x in enumerate('qkv'):    # in_proj_weight rows: W_Q^T, W_K^T, W_V^T
            out['%s.w_%s' % (p, x)] = (m.in_proj_weight, lambda t, i=i: t[i * d:(i + 1) * d].T)
            out['%s.b_%s' % (p, x)] = (m.in_proj_bias, lambda t, i=i: t[i * d:(i + 1) * d])
        out[p + '.w_o'] = (m.out_proj.weight, lambda t: t.T)
        out[p + '.b_o'] = (m.out_proj.bias, lambda t: t)

    def norm(p, m):
        out[p + '.gamma'] = (m.weight, lambda t: t)
        out[p + '.beta'] = (m.bias, lambda t: t)

    def ffn(p, m):
        out[p + '.w1'] = (m.linear1.weight, lambda t: t.T)
        out[p + '.b1'] = (m.linear1.bias, lambda t: t)
        out[p + '.w2'] = (m.linear2.weight, lambda t: t.T)
        out[p + '.b2'] = (m.linear2.bias, lambda t: t)
    for l, e in enumerate(model.enc):
        attn('enc%d.self' % l, e.self_attn), norm('enc%d.norm1' % l, e.norm1)
        ffn('enc%d.ffn' % l, e.ffn), norm('enc%d.norm2' % l, e.norm2)
    for l, e in enumerate(model.dec):
        attn('dec%d.self' % l, e.self_attn), norm('dec%d.norm1' % l, e.norm1)
        attn('dec%d.cross' % l, e.cross_attn), norm('dec%d.norm2' % l, e.norm2)
        ffn('dec%d.ffn' % l, e.ffn), norm('dec%d.norm3' % l, e.norm3)
    norm('enc_final', model.enc_final), norm('dec_final', model.dec_final)
    return out


def load_flat(torch, model, cfg, flat):
    """Set the model's parameters from the C block flat (a NumPy array)."""
    b, at = bindings(model, cfg), 0
    with torch.no_grad():
        for name, shape in layout(cfg):
            size = int(math.prod(shape))
            param, view = b[name]
            view(param.data).copy_(torch.tensor(flat[at:at + size].reshape(shape)))
            at += size
    assert at == len(flat), 'layout covers %d of %d parameters' % (at, len(flat))


def flat_grads(torch, model, cfg, np):
    """The model's gradients in the C layout (None counts as zero)."""
    b, parts = bindings(model, cfg), []
    for name, shape in layout(cfg):
        param, view = b[name]
        g = param.grad if param.grad is not None else torch.zeros_like(param)
        parts.append(view(g).detach().reshape(-1).numpy())
    return np.concatenate(parts)


def noam(d_model, step, warmup):
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def read_batches(torch, text):
    """The batches printed by ch08-training --batches N."""
    lines, out, i = text.split('\n'), [], 0
    while i < len(lines) and lines[i].startswith('batch'):
        _, k, size, S, T = lines[i].split()
        size, S, T = int(size), int(S), int(T)
        rows = [[int(x) for x in l.split()] for l in lines[i + 1:i + 1 + 3 * size]]
        out.append(tuple(torch.tensor(rows[j * size:(j + 1) * size], dtype=torch.long)
                         for j in range(3)))
        i += 1 + 3 * size
    return out
