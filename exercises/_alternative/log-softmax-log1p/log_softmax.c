/* Correct alternative: the other stable formula, log sum exp(x - max) =
   log1p(sum over the others of exp(x_m - max)), one pass for the maximum
   and the sum together (rescaling when the maximum grows). */
#include "log_softmax.h"
#include <math.h>

void log_softmax(double *y, const double *x, int n)
{
    double max = x[0], rest = 0.0;      /* rest = sum_{m != argmax} exp(x_m - max) */
    for (int j = 1; j < n; j++) {
        if (x[j] > max) {
            rest = (rest + 1.0) * exp(max - x[j]);
            max = x[j];
        } else {
            rest += exp(x[j] - max);
        }
    }
    double log_z = log1p(rest);
    for (int j = 0; j < n; j++)
        y[j] = (x[j] - max) - log_z;
}
