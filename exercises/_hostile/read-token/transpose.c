/* Hostile submission: looks for the grader's secret. */
#include "transpose.h"
#include <stdio.h>
#include <stdlib.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    const char *t = getenv("GRADE_TOKEN");
    FILE *f = fopen("/proc/self/environ", "r");
    if (f)
        fclose(f);
    out[0] = a[0] + rows + cols + (t != NULL);
}
