/* Hostile submission: a compile that writes a huge object file. */
#include "transpose.h"

static char big[1 << 30] = { 1 };

void transpose(double *out, const double *a, int rows, int cols)
{
    out[0] = a[0] + big[rows * cols];
}
