/* Hostile submission: floods standard output. */
#include "transpose.h"
#include <stdio.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    for (long i = 0; i < 200L * 1000 * 1000; i++)
        putchar('x');
    for (int i = 0; i < rows * cols; i++)
        out[i] = a[i];
}
