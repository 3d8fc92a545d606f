/* Hostile submission: calls the file system only when optimising, as the
   real build does. */
#include "transpose.h"
#include <stdio.h>

void transpose(double *out, const double *a, int rows, int cols)
{
#if defined(__OPTIMIZE__) && defined(__SANITIZE_ADDRESS__)
    FILE *f = fopen("../checks.c", "r");
    if (f)
        fclose(f);
#endif
    (void)out; (void)a; (void)rows; (void)cols;
}
