/* A known wrong solution (mutant) of ch02-attention-backward, kept for the grader's tests
   and its feedback: you overwrite dk instead of adding into it: dk_j += kappa ds_ij q_i (the caller may already hold gradients there). */
/* Exercise 2.5 · 练习 2.5: the backward pass of equation (2).
 * 公式 (2) 的反向传播。
 *
 * With dw_ij = <dout_i, v_j> and the softmax backward
 * ds_ij = w_ij (dw_ij - <w_i, dw_i>), where <w_i, dw_i> = <dout_i, out_i>:
 *   dq_i  = kappa sum_j ds_ij k_j        (write)
 *   dk_j += kappa ds_ij q_i              (accumulate)
 *   dv_j += w_ij dout_i                  (accumulate)
 * No buffer of your own: compute dw_ij again where you need it.
 * Grade it with:  make grade EX=ch02-attention-backward
 */
#include "attention_backward.h"
#include <stddef.h>

void attention_query_backward(double *dq_i, double *dk, double *dv,
                              const double *dout_i, const double *w_i,
                              const double *q_i, const double *k,
                              const double *v, int s_k, int d_k, int d_v,
                              double kappa)
{
    double dot = 0.0;                   /* <w_i, dw_i> = sum_j w_ij <dout_i, v_j> */
    for (int j = 0; j < s_k; j++) {
        double dw = 0.0;
        for (int c = 0; c < d_v; c++)
            dw += dout_i[c] * v[(size_t)j * d_v + c];
        dot += w_i[j] * dw;
    }
    for (int c = 0; c < d_k; c++)
        dq_i[c] = 0.0;
    for (int j = 0; j < s_k; j++) {
        const double *v_j = v + (size_t)j * d_v, *k_j = k + (size_t)j * d_k;
        double dw = 0.0;                /* dL/dw_ij = <dout_i, v_j> */
        for (int c = 0; c < d_v; c++)
            dw += dout_i[c] * v_j[c];
        double ds = kappa * w_i[j] * (dw - dot);   /* dL/d(<q_i, k_j>) */
        for (int c = 0; c < d_k; c++) {
            dq_i[c] += ds * k_j[c];
            dk[(size_t)j * d_k + c] = ds * q_i[c];
        }
        for (int c = 0; c < d_v; c++)   /* out_i = sum_j w_ij v_j */
            dv[(size_t)j * d_v + c] += w_i[j] * dout_i[c];
    }
}
