/* Not hostile, just broken: a syntax error. */
#include "transpose.h"

void transpose(double *out, const double *a, int rows, int cols)
{
    out[0] = a[0] + rows + cols
}
