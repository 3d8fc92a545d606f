/* Exercise 3.5 · 练习 3.5: find and fix the bug.  找出并修正错误。
 *
 * This is the h heads' attention written straight on the packed
 * projections, without copying the heads out.  With one head of width 1, or
 * with one key, it agrees with mha_forward; with several heads it does not.
 * Find the faulty line, say why it is wrong, and fix it; change as little as
 * you can.  (head_columns.h says what the function must do.)
 * 这是直接在打包的投影上计算的 h 个头的注意力，不把各个头复制出来。只有一个宽为 1
 * 的头，或者只有一个键时，它与 mha_forward 一致；头多了就不一致。找出出错的那一行，
 * 说明错在哪里，并改正；改动越少越好。
 * Grade it with:  make grade EX=ch03-fix-head-columns
 */
#include "head_columns.h"
#include <math.h>
#include <stddef.h>

void heads_attention(double *out, double *w, const double *q, const double *k,
                     const double *v, int s_q, int s_k, int h, int d_k)
{
    const int d_model = h * d_k;
    const double kappa = 1.0 / sqrt((double)d_k);
    for (int i = 0; i < h; i++)
        for (int t = 0; t < s_q; t++) {
            const double *q_t = q + (size_t)t * d_model + (size_t)i * d_k;
            double *w_t = w + ((size_t)i * s_q + t) * s_k;
            double m = -INFINITY, z = 0.0;
            for (int j = 0; j < s_k; j++) {     /* kappa Q_i K_i^T, row t */
                double dot = 0.0;
                for (int c = 0; c < d_k; c++)
                    /* BEGIN FIX */
                    dot += q_t[c] * k[(size_t)j * d_model + (size_t)i * d_k + c];
                    /* BROKEN */
                    //~ dot += q_t[c] * k[((size_t)i * d_k + c) * s_k + j];
                    /* END FIX */
                w_t[j] = kappa * dot;
                if (w_t[j] > m)
                    m = w_t[j];
            }
            for (int j = 0; j < s_k; j++) {
                w_t[j] = exp(w_t[j] - m);
                z += w_t[j];
            }
            for (int j = 0; j < s_k; j++)
                w_t[j] /= z;
            double *o_t = out + (size_t)t * d_model + (size_t)i * d_k;
            for (int c = 0; c < d_k; c++) {     /* row t of w_i V_i */
                double o = 0.0;
                for (int j = 0; j < s_k; j++)
                    o += w_t[j] * v[(size_t)j * d_model + (size_t)i * d_k + c];
                o_t[c] = o;
            }
        }
}
