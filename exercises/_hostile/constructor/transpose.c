/* Hostile submission: code that runs before the harness's main. */
#include "transpose.h"

static int early;
__attribute__((constructor)) static void before_main(void) { early = 1; }

void transpose(double *out, const double *a, int rows, int cols)
{
    out[0] = a[0] + rows + cols + early;
}
