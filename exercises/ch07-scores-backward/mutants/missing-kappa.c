/* A known wrong solution (mutant) of ch07-scores-backward, kept for the grader's tests
   and its feedback: the scale kappa is missing: x_j = kappa <q, k_j>, so dq = kappa sum_j dx_j k_j. */
/* Exercise 7.4 · 练习 7.4: from the scores' gradient back to the query.
 * 由得分的梯度求查询的梯度。
 *
 * x_j = kappa <q, k_j>, so dL/dq = kappa sum_j (dL/dx_j) k_j.  Overwrite dq;
 * k_j starts at k + j*d_k.  Do not allocate.
 * Grade it with:  make grade EX=ch07-scores-backward
 */
#include "scores_backward.h"
#include <stddef.h>

void scores_backward_query(double *dq, const double *dx, const double *k,
                           int s_k, int d_k, double kappa)
{
    for (int c = 0; c < d_k; c++)
        dq[c] = 0.0;
    for (int j = 0; j < s_k; j++)       /* dq += dx_j k_j */
        for (int c = 0; c < d_k; c++)
            dq[c] += dx[j] * k[(size_t)j * d_k + c];
    (void)kappa;
}
