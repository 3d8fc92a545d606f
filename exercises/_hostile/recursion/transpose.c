/* Hostile submission: endless recursion. */
#include "transpose.h"

static double deeper(volatile double *x, int depth)
{
    volatile double pad[64];
    pad[depth % 64] = *x;
    return deeper(pad + depth % 64, depth + 1) + pad[0];
}

void transpose(double *out, const double *a, int rows, int cols)
{
    double x = a[0] + rows + cols;
    out[0] = deeper(&x, 0);
}
