/* Hostile submission: a #line directive makes the rest of the file look
   like a system header, where the screen does not look. */
#include "transpose.h"
#line 1 "/usr/include/stdio.h"
__attribute__((constructor)) static void early(void) { }

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
}
