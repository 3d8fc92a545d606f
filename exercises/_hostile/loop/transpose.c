/* Hostile submission: an endless loop. */
#include "transpose.h"

void transpose(double *out, const double *a, int rows, int cols)
{
    volatile unsigned long n = 0;
    for (;;)
        n++;
    out[0] = a[0] + rows + cols + (double)n;
}
