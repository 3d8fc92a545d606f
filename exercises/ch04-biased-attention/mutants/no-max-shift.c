/* A known wrong solution (mutant) of ch04-biased-attention, kept for the grader's tests
   and its feedback: the max shift is missing: exp of a large score overflows to inf; subtract the row's maximum first (and keep a fully masked row at zero). */
/* Exercise 4.4 · 练习 4.4: attention with an additive bias (ALiBi, masks).
 * 带加性偏置的注意力。
 *
 * Scores kappa <q_i, k_j> + bias_ij; a -INFINITY bias masks the key.  Take
 * the softmax over the finite scores; a row with none gets zero weights
 * and a zero output.  Never compute -inf - (-inf).  Do not allocate.
 * Grade it with:  make grade EX=ch04-biased-attention
 */
#include "biased_attention.h"
#include <math.h>
#include <stddef.h>

void attention_biased(double *out, double *w, const double *q,
                      const double *k, const double *v, const double *bias,
                      int s_q, int s_k, int d_k, int d_v, double kappa)
{
    for (int i = 0; i < s_q; i++) {
        double *w_i = w + (size_t)i * s_k, max = -INFINITY;
        for (int j = 0; j < s_k; j++) {
            double b = bias[(size_t)i * s_k + j];
            if (b == -INFINITY) {
                w_i[j] = -INFINITY;
                continue;
            }
            double s = 0.0;
            for (int c = 0; c < d_k; c++)
                s += q[(size_t)i * d_k + c] * k[(size_t)j * d_k + c];
            w_i[j] = kappa * s + b;
            if (w_i[j] > max)
                max = w_i[j];
        }
        double z = 0.0;
        for (int j = 0; j < s_k; j++) {     /* exp(-inf) = 0: masked keys drop out */
            w_i[j] = exp(w_i[j]);
            z += w_i[j];
        }
        for (int j = 0; j < s_k; j++)       /* z = 0 only for a fully masked row */
            w_i[j] = z > 0.0 ? w_i[j] / z : 0.0;
        for (int c = 0; c < d_v; c++) {
            double acc = 0.0;
            for (int j = 0; j < s_k; j++)
                acc += w_i[j] * v[(size_t)j * d_v + c];
            out[(size_t)i * d_v + c] = acc;
        }
    }
}
