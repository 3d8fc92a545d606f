/* Hostile submission: signed overflow (undefined behaviour). */
#include "transpose.h"
#include <limits.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    int big = INT_MAX - 1;
    big += rows + cols;
    out[0] = a[0] + big;
}
