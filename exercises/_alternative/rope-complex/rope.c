/* Correct alternative: RoPE as a complex multiplication, pair i of row t
   times exp(-i theta) (the compiler calls __muldc3 and cexp). */
#include "rope.h"
#include <complex.h>
#include <math.h>
#include <stddef.h>

void rope_forward(double *x, int n, int d, int offset)
{
    for (int t = 0; t < n; t++)
        for (int i = 0; i < d / 2; i++) {
            double th = (double)(t + offset) * pow(10000.0, -2.0 * i / d);
            double *p = x + (size_t)t * d + 2 * i;
            double complex z = p[0] - I * p[1];
            double complex r = z * cexp(I * th);
            p[0] = creal(r);
            p[1] = -cimag(r);
        }
}
