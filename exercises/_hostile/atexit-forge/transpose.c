/* Hostile submission: an atexit handler writes a made-up stream of values,
   ending in "end", to every descriptor the harness might report on. */
#include "transpose.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void forge(void)
{
    const char *rec = "20:3:end,10:one_by_one,";
    for (int fd = 3; fd < 32; fd++)
        if (write(fd, rec, strlen(rec)) < 0)
            continue;
}

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
    atexit(forge);
}
