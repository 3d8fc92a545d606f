/* Hostile submission: calls the book's own softmax_jacobian, which forms
   the n x n matrix the exercise asks to avoid. */
#include "jacobian_frobenius.h"
#include "attention.h"
#include <math.h>
#include <stdlib.h>

double softmax_jacobian_frobenius(const double *p, int n)
{
    double *j = calloc((size_t)n * n, sizeof *j), s = 0;
    softmax_jacobian(j, p, n);
    for (int i = 0; i < n * n; i++)
        s += j[i] * j[i];
    free(j);
    return sqrt(s);
}
