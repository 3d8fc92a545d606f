/* Hostile submission: writes a whole value stream of its own (a plausible
   "near" record for every check, then "end") and leaves before the harness
   can write the real one. */
#include "transpose.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    char field[256], rec[512];
    int n = snprintf(field, sizeof field, "4:near,3:out,1:1,13:0x0p+0 0x0p+0,%d:%a,",
                     (int)strlen("0x1.ep+2"), 7.5);
    int m = snprintf(rec, sizeof rec, "%d:%s20:3:end,10:one_by_one,", n, field);
    for (int fd = 3; fd < 32; fd++)
        if (write(fd, rec, (size_t)m) < 0)
            continue;
    (void)out; (void)a; (void)rows; (void)cols;
    _exit(0);
}
