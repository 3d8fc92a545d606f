/* Hostile submission: changes how the file is compiled through _Pragma. */
#include "transpose.h"
_Pragma("GCC optimize(\"O0\")")

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
}
