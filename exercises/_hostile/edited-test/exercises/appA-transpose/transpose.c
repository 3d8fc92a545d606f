/* Hostile submission: a wrong answer (copies instead of transposing), with
   the checks, the metadata and the header beside it edited to pass it. */
#include "transpose.h"

void transpose(double *out, const double *a, int rows, int cols)
{
    for (int i = 0; i < rows * cols; i++)
        out[i] = -a[i];
}
