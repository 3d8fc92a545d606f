/* Exercise 9.2 · 练习 9.2: find and fix the bug.  找出并修正错误。
 *
 * Decoding with this cache step by step should give, at step t, row t of
 * the causal attention computed at once over the whole sequence.  It does
 * not: its first step outputs zeros, and every later row differs.  Find the
 * faulty line, say why it is wrong, and fix it; change as little as you
 * can.  (kv_step.h says what the function must do.)
 * 用这个缓存逐步解码，第 t 步应当给出对整个序列一次算完的因果注意力的第 t 行。
 * 它做不到：第一步输出全零，之后每一行都不一样。找出出错的那一行，说明错在哪里，
 * 并改正；改动越少越好。
 * Grade it with:  make grade EX=ch09-fix-kv-step
 */
#include "kv_step.h"
#include <math.h>
#include <stddef.h>

int kv_step(double *out, double *w, double *k_cache, double *v_cache, int len,
            const double *q, const double *k, const double *v, int d_k,
            int d_v, double kappa)
{
    for (int c = 0; c < d_k; c++)           /* append position len */
        k_cache[(size_t)len * d_k + c] = k[c];
    for (int c = 0; c < d_v; c++)
        v_cache[(size_t)len * d_v + c] = v[c];
    /* BEGIN FIX */
    int n = len + 1;                        /* the positions q sees: 0..len */
    /* BROKEN */
    //~ int n = len;                            /* the positions in the cache */
    /* END FIX */
    double best = -INFINITY, z = 0.0;
    for (int j = 0; j < n; j++) {           /* s_j = kappa <q, k_j> */
        double dot = 0.0;
        for (int c = 0; c < d_k; c++)
            dot += q[c] * k_cache[(size_t)j * d_k + c];
        w[j] = kappa * dot;
        if (w[j] > best)
            best = w[j];
    }
    for (int j = 0; j < n; j++) {
        w[j] = exp(w[j] - best);
        z += w[j];
    }
    for (int j = 0; j < n; j++)
        w[j] /= z;
    for (int c = 0; c < d_v; c++) {         /* out = sum_j w_j v_j */
        double o = 0.0;
        for (int j = 0; j < n; j++)
            o += w[j] * v_cache[(size_t)j * d_v + c];
        out[c] = o;
    }
    return len + 1;
}
