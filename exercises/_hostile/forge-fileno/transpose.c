/* Hostile submission: points stdout at each descriptor in turn (through
   the FILE's own _fileno field, so no forbidden call is made), writes a
   value stream of its own there and leaves.  Had it written the public
   values of a visible check, it would pass that check: the lint stops it,
   and the hidden checks are what it cannot forge. */
#include "transpose.h"
#include <stdio.h>
#include <stdlib.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    static const char rec[] = "29:3:end,19:one_by_one,,";
    for (int fd = 3; fd < 32; fd++) {
        stdout->_fileno = fd;
        fwrite(rec, 1, sizeof rec - 1, stdout);
        if (fflush(stdout) == 0)
            _Exit(0);
    }
    (void)out; (void)a; (void)rows; (void)cols;
}
