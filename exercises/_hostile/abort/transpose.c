/* Hostile submission: abort(). */
#include "transpose.h"
#include <stdlib.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
    abort();
}
