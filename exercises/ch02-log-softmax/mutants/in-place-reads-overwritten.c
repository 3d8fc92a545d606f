/* A known wrong solution (mutant) of ch02-log-softmax, kept for the grader's tests
   and its feedback: x and y may be the same array: you write y and then read x again, which by then holds x_j - max; read every x you need before you write y. */
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
    for (int j = 0; j < n; j++)
        y[j] = x[j] - max;
    double z = 0.0;
    for (int j = 0; j < n; j++)
        z += exp(x[j] - max);
    for (int j = 0; j < n; j++)
        y[j] -= log(z);
}
