/* Hostile submission: right values, but O(n^2): the sum over every entry
   of the Jacobian, never formed. */
#include "jacobian_frobenius.h"
#include <math.h>

double softmax_jacobian_frobenius(const double *p, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double e = (i == j ? p[i] : 0) - p[i] * p[j];
            s += e * e;
        }
    return sqrt(s);
}
