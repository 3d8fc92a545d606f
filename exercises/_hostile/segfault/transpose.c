/* Hostile submission: writes through a wild pointer. */
#include "transpose.h"
#include <stdint.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    volatile uintptr_t wild = 16;
    *(double *)wild = a[0];
    out[0] = rows + cols;
}
