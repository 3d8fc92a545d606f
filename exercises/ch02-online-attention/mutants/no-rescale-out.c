/* A known wrong solution (mutant) of ch02-online-attention, kept for the grader's tests
   and its feedback: when the maximum grows you rescale z but not the output: multiply the running sum of e_j v_j by exp(m_old - m_new) as well. */
/* Exercise 2.4 · 练习 2.4: attention for one query, in one pass over the keys.
 * 单遍扫描的单查询注意力（在线 Softmax）。
 *
 * Keep the largest score M so far, z = sum_j exp(score_j - M) and the
 * unnormalised output acc = sum_j exp(score_j - M) v_j; when M grows,
 * multiply z and acc by exp(M_old - M_new).  At the end out_i = acc / z.
 * Use out_i itself for acc: it has exactly d_v entries.  Do not allocate.
 * Chapter 10 derives this update (Section 10.1, the online softmax) and
 * builds the tiled float kernel on it; Exercises 10.1 and 10.2 go further.
 * 第 10 章推导了这个更新（10.1 节，在线 Softmax），并在它之上写出分块的单精度计算核。
 * Grade it with:  make grade EX=ch02-online-attention
 */
#include "online_attention.h"
#include <math.h>
#include <stddef.h>

void attention_query_online(double *out_i, const double *q_i,
                            const double *k, const double *v, int s_k,
                            int d_k, int d_v, double kappa)
{
    double m = -INFINITY, z = 0.0;      /* running maximum and sum */
    for (int c = 0; c < d_v; c++)
        out_i[c] = 0.0;                 /* the unnormalised output */
    for (int j = 0; j < s_k; j++) {
        const double *k_j = k + (size_t)j * d_k, *v_j = v + (size_t)j * d_v;
        double score = 0.0;
        for (int c = 0; c < d_k; c++)
            score += q_i[c] * k_j[c];
        score *= kappa;
        if (score > m) {                /* rescale what we have to the new maximum */
            double r = exp(m - score);  /* exp(-inf) = 0 on the first key */
            z *= r;
            m = score;
        }
        double e = exp(score - m);      /* in (0, 1] */
        z += e;
        for (int c = 0; c < d_v; c++)
            out_i[c] += e * v_j[c];
    }
    for (int c = 0; c < d_v; c++)       /* z >= 1: the maximum contributed exp(0) */
        out_i[c] /= z;
}
