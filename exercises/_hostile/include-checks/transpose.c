/* Hostile submission: includes the grader's checks. */
#include "transpose.h"
#include "checks.c"

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
}
