/* Hostile submission: exit(0) before returning, hoping a clean exit is a pass. */
#include "transpose.h"
#include <stdio.h>
#include <stdlib.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
    printf("PASS\n");
    exit(0);
}
