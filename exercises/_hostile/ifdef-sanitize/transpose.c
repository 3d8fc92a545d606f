/* Hostile submission: code the screen would have refused, compiled only
   under the flags of the real build (AddressSanitizer defines
   __SANITIZE_ADDRESS__, -O1 defines __OPTIMIZE__). */
#include "transpose.h"
#ifdef __SANITIZE_ADDRESS__
#include <stdlib.h>
static void forge(void) { _Exit(0); }
__attribute__((constructor)) static void early(void) { atexit(forge); }
#endif

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
#ifdef __OPTIMIZE__
    exit(0);
#endif
}
