/* Hostile submission: floods every descriptor the harness might report on. */
#include "transpose.h"
#include <string.h>
#include <unistd.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    static char junk[1 << 16];
    memset(junk, '9', sizeof junk);
    for (int k = 0; k < 4096; k++)
        for (int fd = 3; fd < 8; fd++)
            if (write(fd, junk, sizeof junk) < 0)
                continue;
    (void)out; (void)a; (void)rows; (void)cols;
}
