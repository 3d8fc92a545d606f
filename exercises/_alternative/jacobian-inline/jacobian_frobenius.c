/* Correct alternative: the power sums in a static inline helper, and the
   norm as sqrt(sum_i p_i^2 (1 - p_i)^2 + S2^2 - sum_i p_i^4). */
#include "jacobian_frobenius.h"
#include <math.h>

static inline double sq(double v)
{
    return v * v;
}

double softmax_jacobian_frobenius(const double *p, int n)
{
    double s2 = 0, diag = 0, s4 = 0;
    for (int i = 0; i < n; i++) {
        s2 += sq(p[i]);
        diag += sq(p[i] - sq(p[i]));
        s4 += sq(sq(p[i]));
    }
    double f2 = diag + sq(s2) - s4;
    return sqrt(f2 > 0 ? f2 : 0);
}
