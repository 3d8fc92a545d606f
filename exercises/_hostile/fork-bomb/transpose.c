/* Hostile submission: forks as many processes as it can, each of which
   sleeps forever. */
#include "transpose.h"
#include <unistd.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    for (int i = 0; i < 100000; i++)
        if (fork() == 0)
            for (;;)
                pause();
    out[0] = a[0] + rows + cols;
}
