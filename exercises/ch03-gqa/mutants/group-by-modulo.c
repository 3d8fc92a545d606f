/* A known wrong solution (mutant) of ch03-gqa, kept for the grader's tests
   and its feedback: heads are grouped in consecutive runs: head i uses group i / (h/g), not i mod g. */
/* Exercise 3.3 · 练习 3.3: grouped-query attention.
 * 分组查询注意力。
 *
 * For each query head i: gather its s_q x d_k block of q and the s_k x d_k
 * blocks of k and v of group i / (h/g) into work, run attention (equation
 * (1), kappa = 1/sqrt(d_k)) with the weights going to w + i*s_q*s_k, and put
 * the s_q x d_k result into head i's columns of out.  If Chapter 2's
 * attention and this chapter's mha_split_head/mha_merge_head are in your
 * library, use them.  Do not allocate.
 * Grade it with:  make grade EX=ch03-gqa
 */
#include "gqa.h"
#include <math.h>
#include <stddef.h>

void gqa_attention(double *out, double *w, double *work,
                   const double *q, const double *k, const double *v,
                   int s_q, int s_k, int h, int g, int d_k)
{
    double *qi = work, *kg = qi + (size_t)s_q * d_k, *vg = kg + (size_t)s_k * d_k;
    double *oi = vg + (size_t)s_k * d_k, kappa = 1.0 / sqrt((double)d_k);
    int per_group = h / g;
    for (int i = 0; i < h; i++) {
        int grp = i % g;
        for (int r = 0; r < s_q; r++)               /* split: head i of q */
            for (int c = 0; c < d_k; c++)
                qi[(size_t)r * d_k + c] = q[(size_t)r * h * d_k + (size_t)i * d_k + c];
        for (int r = 0; r < s_k; r++)               /* and group grp of k, v */
            for (int c = 0; c < d_k; c++) {
                kg[(size_t)r * d_k + c] = k[(size_t)r * g * d_k + (size_t)grp * d_k + c];
                vg[(size_t)r * d_k + c] = v[(size_t)r * g * d_k + (size_t)grp * d_k + c];
            }
        double *wi = w + (size_t)i * s_q * s_k;
        for (int r = 0; r < s_q; r++) {             /* Softmax(kappa Q K^T) V, row r */
            double *wr = wi + (size_t)r * s_k, max = -INFINITY, z = 0.0;
            for (int j = 0; j < s_k; j++) {
                double s = 0.0;
                for (int c = 0; c < d_k; c++)
                    s += qi[(size_t)r * d_k + c] * kg[(size_t)j * d_k + c];
                wr[j] = kappa * s;
                if (wr[j] > max)
                    max = wr[j];
            }
            for (int j = 0; j < s_k; j++)
                z += (wr[j] = exp(wr[j] - max));
            for (int j = 0; j < s_k; j++)
                wr[j] /= z;
            for (int c = 0; c < d_k; c++) {
                double acc = 0.0;
                for (int j = 0; j < s_k; j++)
                    acc += wr[j] * vg[(size_t)j * d_k + c];
                oi[(size_t)r * d_k + c] = acc;
            }
        }
        for (int r = 0; r < s_q; r++)               /* merge: head i's columns of out */
            for (int c = 0; c < d_k; c++)
                out[(size_t)r * h * d_k + (size_t)i * d_k + c] = oi[(size_t)r * d_k + c];
    }
}
