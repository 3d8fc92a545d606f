/* Hostile submission: one gigantic allocation, then touches it all. */
#include "transpose.h"
#include <stdlib.h>
#include <string.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    size_t n = (size_t)8 << 30;
    char *p = malloc(n);
    if (p) {
        memset(p, 1, n);
        out[0] = p[n - 1];
    }
    out[0] = a[0] + rows + cols;
}
