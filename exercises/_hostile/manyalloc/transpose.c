/* Hostile submission: eats memory one megabyte at a time. */
#include "transpose.h"
#include <stdlib.h>
#include <string.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    for (int i = 0; i < 6 * 1024; i++) {
        char *p = malloc(1 << 20);
        if (!p)
            break;
        memset(p, i, 1 << 20);
    }
    out[0] = a[0] + rows + cols;
}
