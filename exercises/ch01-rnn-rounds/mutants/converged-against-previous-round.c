/* A known wrong solution (mutant) of ch01-rnn-rounds, kept for the grader's tests
   and its feedback: the rounds are counted until the result is within the tolerance of the step-by-step result, not until two rounds agree. */
/* Exercise 1.3 · 练习 1.3: how many parallel rounds reach the sequential result.
 * 按轮并行计算的循环层要多少轮才能达到逐步计算的结果。
 *
 * Split work into three n x d blocks: the step-by-step states, the current
 * round's and the next round's.  Round m: next_t = step(cur_{t-1}, x_t),
 * with h_0 = 0.  Stop at the first round whose largest difference from the
 * step-by-step states is at most tol.  Do not allocate.
 * Grade it with:  make grade EX=ch01-rnn-rounds
 */
#include "rnn_rounds.h"
#include <math.h>
#include <stddef.h>

/* one step of the layer: h = tanh(h_prev W + x_t U + b); h_prev NULL for h_0 = 0 */
static void step(double *h, const double *h_prev, const double *x_t, const double *w,
                 const double *u, const double *b, int d_in, int d)
{
    for (int j = 0; j < d; j++)
        h[j] = b[j];
    if (h_prev)
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++)
                h[j] += h_prev[i] * w[(size_t)i * d + j];
    for (int i = 0; i < d_in; i++)
        for (int j = 0; j < d; j++)
            h[j] += x_t[i] * u[(size_t)i * d + j];
    for (int j = 0; j < d; j++)
        h[j] = tanh(h[j]);
}

int rnn_rounds_to_tolerance(const double *x, const double *w, const double *u,
                            const double *b, int n, int d_in, int d,
                            double tol, double *work)
{
    size_t nd = (size_t)n * d;
    double *ref = work, *cur = work + nd, *next = work + 2 * nd;
    for (int t = 0; t < n; t++)                 /* the step-by-step result */
        step(ref + (size_t)t * d, t > 0 ? ref + (size_t)(t - 1) * d : NULL,
             x + (size_t)t * d_in, w, u, b, d_in, d);
    for (size_t i = 0; i < nd; i++)             /* round 0: all zeros */
        cur[i] = 0.0;
    for (int m = 1;; m++) {
        for (int t = 0; t < n; t++)             /* every h_t from last round's h_{t-1} */
            step(next + (size_t)t * d, t > 0 ? cur + (size_t)(t - 1) * d : NULL,
                 x + (size_t)t * d_in, w, u, b, d_in, d);
        double err = 0.0;
        for (size_t i = 0; i < nd; i++)
            if (fabs(next[i] - cur[i]) > err)
                err = fabs(next[i] - cur[i]);
        if (err <= tol || m >= n)               /* after n rounds it is exact */
            return m;
        double *swap = cur;
        cur = next;
        next = swap;
    }
}
