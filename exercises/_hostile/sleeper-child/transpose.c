/* Hostile submission: a child that ignores every signal it can and keeps
   the output pipes open after the check. */
#include "transpose.h"
#include <signal.h>
#include <unistd.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    if (fork() == 0) {
        for (int s = 1; s < 32; s++)
            signal(s, SIG_IGN);
        for (;;)
            pause();
    }
    (void)out; (void)a; (void)rows; (void)cols;
}
