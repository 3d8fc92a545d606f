/* Hostile submission: a visible check prints its own program's memory (the
   compiled checks) as text, hoping the hidden checks' code is in it. */
#include "transpose.h"
#include <stdio.h>
#include <string.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    char buf[1 << 20], needle[] = "large_rectanglX";   /* not its own literal */
    needle[14] = 'e';
    static char img[8 << 20];
    size_t n = f ? fread(img, 1, sizeof img, f) : 0;
    (void)buf;
    for (size_t i = 0; i + 15 < n; i++)
        if (memcmp(img + i, needle, 15) == 0)
            printf("found a hidden check at %zu\n", i);
    if (f)
        fclose(f);
    (void)out; (void)a; (void)rows; (void)cols;
}
