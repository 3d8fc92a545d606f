/* A known wrong solution (mutant) of ch10-merge-normalised, kept for the grader's tests
   and its feedback: the max shift is missing: exp(lse) overflows for a large log-sum-exp; weigh by exp(lse - L) with L the larger one. */
/* Exercise 10.1 · 练习 10.1: merge two normalised partial results.
 * 合并两个已归一化的部分结果。
 *
 * With L = max(lse_a, lse_b), the weights of the two parts are
 * w_a = exp(lse_a - L) and w_b = exp(lse_b - L); the merged output is
 * (w_a o_a + w_b o_b) / (w_a + w_b) and the merged lse is L + log(w_a + w_b).
 * Never compute exp(lse) itself.  Grade it with:  make grade EX=ch10-merge-normalised
 */
#include "merge_normalised.h"
#include <math.h>

double merge_normalised(double *o_a, double lse_a, const double *o_b,
                        double lse_b, int d_v)
{
    if (lse_a == -INFINITY && lse_b == -INFINITY) {     /* both empty */
        for (int t = 0; t < d_v; t++)
            o_a[t] = 0.0;
        return -INFINITY;
    }
    double L = lse_a > lse_b ? lse_a : lse_b;
    double wa = exp(lse_a), wb = exp(lse_b);
    for (int t = 0; t < d_v; t++) {
        double ob = wb > 0 ? o_b[t] : 0.0, oa = wa > 0 ? o_a[t] : 0.0;
        o_a[t] = (wa * oa + wb * ob) / (wa + wb);
    }
    return log(wa + wb);
}
