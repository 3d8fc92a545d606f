/* Hostile submission: prints what a passing result might look like. */
#include "transpose.h"
#include <stdio.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
    const char *fake = "{\"check\":\"one_by_one\",\"status\":\"pass\"}";
    printf("PASS\n%s\nok %s\n", fake, fake);
    fprintf(stderr, "PASS %s\n", fake);
    fflush(stdout);
}
