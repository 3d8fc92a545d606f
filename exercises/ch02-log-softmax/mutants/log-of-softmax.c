/* A known wrong solution (mutant) of ch02-log-softmax, kept for the grader's tests
   and its feedback: you take the log of the softmax: exp(x_j - max)/z underflows to 0 for very negative scores and log(0) = -inf; write (x_j - max) - log z instead. */
/* Exercise 2.3 · 练习 2.3: the numerically stable log-softmax.
 * 数值稳定的对数 Softmax。
 *
 * Write y_j = x_j - max x - log sum_m exp(x_m - max x) (see log_softmax.h).
 * y may alias x: read what you need before you overwrite it.
 * Do not allocate.  Grade it with:  make grade EX=ch02-log-softmax
 */
#include "log_softmax.h"
#include <math.h>

void log_softmax(double *y, const double *x, int n)
{
    double max = x[0];
    for (int j = 1; j < n; j++)
        if (x[j] > max)
            max = x[j];
    double z = 0.0;                     /* sum_m exp(x_m - max) is in [1, n] */
    for (int j = 0; j < n; j++)
        z += exp(x[j] - max);
    double log_z = log(z);
    for (int j = 0; j < n; j++)         /* x[j] is read before y[j] is written */
        y[j] = log(exp(x[j] - max) / z);    /* x_j - max first: exact when they are close */
}
