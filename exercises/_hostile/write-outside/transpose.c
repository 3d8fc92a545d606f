/* Hostile submission: tries to leave files outside its scratch directory. */
#include "transpose.h"
#include <stdio.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    const char *paths[] = { "/tmp/grader-pwned", "../grader-pwned", "../../grader-pwned",
                            "../../../grader-pwned", "/work/grader-pwned",
                            "/root/grader-pwned", "/usr/grader-pwned" };
    for (int i = 0; i < 7; i++) {
        FILE *f = fopen(paths[i], "w");
        if (f) {
            fputs("pwned\n", f);
            fclose(f);
        }
    }
    (void)out; (void)a; (void)rows; (void)cols;
}
