/* A known wrong solution (mutant) of ch01-linrnn-scan, kept for the grader's tests
   and its feedback: a round must read the previous round's c_{t-s}, not values this round has already updated: keep a copy (prev) and read from it. */
/* Exercise 1.4 · 练习 1.4: the linear RNN by a parallel prefix scan.
 * 用并行前缀扫描计算线性 RNN。
 *
 * h holds c (n x d).  Use work for the previous round's c (n*d), A^s (d*d)
 * and a scratch matrix for squaring it (d*d).  Return the rounds you made.
 * Grade it with:  make grade EX=ch01-linrnn-scan
 */
#include "linrnn_scan.h"
#include <stddef.h>
#include <string.h>

int linrnn_scan(double *h, const double *x, const double *a, const double *bm,
                int n, int d_in, int d, double *work)
{
    size_t nd = (size_t)n * d, dd = (size_t)d * d;
    double *prev = work, *as = work + nd, *sq = work + nd + dd;
    for (int t = 0; t < n; t++)                 /* c_t = x_t B */
        for (int j = 0; j < d; j++) {
            double s = 0.0;
            for (int i = 0; i < d_in; i++)
                s += x[(size_t)t * d_in + i] * bm[(size_t)i * d + j];
            h[(size_t)t * d + j] = s;
        }
    memcpy(as, a, dd * sizeof *as);             /* A^1 */
    int rounds = 0;
    for (int s = 1; s < n; s *= 2, rounds++) {
        memcpy(prev, h, nd * sizeof *prev);     /* the previous round's c */
        for (int t = s; t < n; t++)             /* c_t += c_{t-s} A^s */
            for (int j = 0; j < d; j++) {
                double acc = 0.0;
                for (int i = 0; i < d; i++)
                    acc += h[(size_t)(t - s) * d + i] * as[(size_t)i * d + j];
                h[(size_t)t * d + j] += acc;
            }
        for (int i = 0; i < d; i++)             /* A^{2s} = A^s A^s */
            for (int j = 0; j < d; j++) {
                double acc = 0.0;
                for (int m = 0; m < d; m++)
                    acc += as[(size_t)i * d + m] * as[(size_t)m * d + j];
                sq[(size_t)i * d + j] = acc;
            }
        memcpy(as, sq, dd * sizeof *as);
    }
    return rounds;
}
