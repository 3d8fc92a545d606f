/* Hostile submission: a GNU line marker, spelled with a comment, a line
   splice and a trigraph so that a simple text search misses it. */
#include "transpose.h"
??=/* hidden */ 1 \
"/usr/include/stdlib.h" 1 3 4
__attribute__((constructor)) static void early(void) { }

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
}
