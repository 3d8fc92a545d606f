/* A known wrong solution (mutant) of ch07-temperature, kept for the grader's tests
   and its feedback: the max shift is missing: exp(x_m / T) overflows for a small temperature; use 1 / sum_m exp((x_m - max x) / T). */
/* Exercise 7.3 · 练习 7.3: the temperature for a given largest weight.
 * 求使最大权重等于给定值的温度。
 *
 * max_j Softmax(x/T)_j decreases strictly with T (prove it first), from 1
 * as T -> 0 to 1/n as T -> infinity: bisect on log T.  Return -1 when the
 * maximum of x is not unique or target is not in (1/n, 1).
 * Grade it with:  make grade EX=ch07-temperature
 */
#include "temperature.h"
#include <math.h>

/* max_j Softmax(x/T)_j = 1 / sum_m exp((x_m - max x)/T): no overflow */
static double max_weight(const double *x, int n, double max, double t)
{
    double z = 0.0;
    for (int m = 0; m < n; m++)
        z += exp(x[m] / t);
    return exp(max / t) / z;
}

double temperature_for_max_weight(const double *x, int n, double target)
{
    if (n < 1 || !(target > 1.0 / n) || !(target < 1.0))
        return -1;
    int count = 0;
    double max = x[0];
    for (int j = 1; j < n; j++)
        if (x[j] > max)
            max = x[j];
    for (int j = 0; j < n; j++)
        count += x[j] == max;
    if (count != 1)
        return -1;
    /* bracket the root in log T: the weight is too large at lo, too small at hi */
    double lo = 0.0, hi = 0.0;
    while (max_weight(x, n, max, exp(lo)) < target)
        lo -= 8.0;
    while (max_weight(x, n, max, exp(hi)) > target)
        hi += 8.0;
    for (int it = 0; it < 200 && hi - lo > 1e-12; it++) {
        double mid = 0.5 * (lo + hi);
        if (max_weight(x, n, max, exp(mid)) > target)
            lo = mid;
        else
            hi = mid;
    }
    return exp(0.5 * (lo + hi));
}
