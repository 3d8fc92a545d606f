/* Exercise 4.5 · 练习 4.5: find and fix the bug.  找出并修正错误。
 *
 * This masked attention gives every masked key weight 0 and every row's
 * weights sum 1; on the chapter's example sentence, with the causal mask,
 * it agrees with attention_masked.  On some rows it gives NaN.  Find what is
 * wrong, say why, and fix it; change as little as you can.
 * (masked_rows.h says what the function must do.)
 * 这个带掩码的注意力让每个被屏蔽的键权重为 0，每行权重之和为 1；在本章的例句上
 * 用因果掩码，它与 attention_masked 一致，但在某些行上得到 NaN。找出错在哪里，
 * 说明原因，并改正；改动越少越好。
 * Grade it with:  make grade EX=ch04-fix-masked-softmax
 */
#include "masked_rows.h"
#include <math.h>
#include <stddef.h>

void masked_rows(double *out, double *w, const double *q, const double *k,
                 const double *v, const unsigned char *mask, int s_q, int s_k,
                 int d_k, int d_v, double kappa)
{
    for (int i = 0; i < s_q; i++) {
        const unsigned char *m_i = mask + (size_t)i * s_k;
        double *w_i = w + (size_t)i * s_k, best = -INFINITY, z = 0.0;
        for (int j = 0; j < s_k; j++) {         /* s_ij = kappa <q_i, k_j> */
            double dot = 0.0;
            for (int c = 0; c < d_k; c++)
                dot += q[(size_t)i * d_k + c] * k[(size_t)j * d_k + c];
            w_i[j] = kappa * dot;
        }
        for (int j = 0; j < s_k; j++)
            /* BEGIN FIX */
            if (m_i[j] && w_i[j] > best)        /* the largest allowed score */
            /* BROKEN */
            //~ if (w_i[j] > best)                  /* the largest score */
            /* END FIX */
                best = w_i[j];
        for (int j = 0; j < s_k; j++) {         /* a masked key gets weight 0 */
            w_i[j] = m_i[j] ? exp(w_i[j] - best) : 0.0;
            z += w_i[j];
        }
        for (int j = 0; j < s_k; j++)           /* each row sums to 1 */
            /* BEGIN FIX */
            w_i[j] = z > 0.0 ? w_i[j] / z : 0.0;   /* all masked: zeros */
            /* BROKEN */
            //~ w_i[j] /= z;
            /* END FIX */
        for (int c = 0; c < d_v; c++) {
            double o = 0.0;                     /* out_i = sum_j w_ij v_j */
            for (int j = 0; j < s_k; j++)
                o += w_i[j] * v[(size_t)j * d_v + c];
            out[(size_t)i * d_v + c] = o;
        }
    }
}
