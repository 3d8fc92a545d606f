/* A known wrong solution (mutant) of ch07-jacobian-frobenius, kept for the grader's tests
   and its feedback: that is the squared norm: the Frobenius norm is its square root. */
/* Exercise 7.2 · 练习 7.2: the Frobenius norm of the softmax Jacobian in O(n).
 * 不构造矩阵，在 O(n) 时间内算出 Softmax 雅可比矩阵的 Frobenius 范数。
 *
 * J = diag(p) - p^T p.  Square its entries and sum them: the result depends
 * only on sum_j p_j^2 and sum_j p_j^3.  Do not allocate.
 * Grade it with:  make grade EX=ch07-jacobian-frobenius
 */
#include "jacobian_frobenius.h"
#include <math.h>

double softmax_jacobian_frobenius(const double *p, int n)
{
    /* ||J||^2 = sum_i (p_i - p_i^2)^2 + sum_{i != j} p_i^2 p_j^2
               = S2 - 2 S3 + S2^2,   S2 = sum p_i^2, S3 = sum p_i^3 */
    double s2 = 0.0, s3 = 0.0;
    for (int j = 0; j < n; j++) {
        s2 += p[j] * p[j];
        s3 += p[j] * p[j] * p[j];
    }
    double sq = s2 - 2.0 * s3 + s2 * s2;
    return sq > 0.0 ? sq : 0.0;   /* rounding may leave -1e-17 for a one-hot p */
}
