/* Hostile submission: a visible check prints its own program's memory (the
   compiled checks) as text, hoping the hidden checks' code is in it. */
#include "transpose.h"
#include <stdio.h>
#include <string.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    char buf[65536];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    for (size_t i = 0; i + 15 < n; i++)
        if (memcmp(buf + i, "large_rectangle", 15) == 0)
            printf("found large_rectangle at %zu\n", i);
    if (f)
        fclose(f);
    (void)out; (void)a; (void)rows; (void)cols;
}
