/* Correct alternative: uses the standard headers <setjmp.h>, <signal.h>,
   <time.h> and <complex.h> and the compiler's __builtin_popcount. */
#include "transpose.h"
#include <complex.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <time.h>

static jmp_buf done;
static volatile sig_atomic_t seen;

static void copy_row(double *out, const double *a, int i, int rows, int cols)
{
    for (int j = 0; j < cols; j++)
        out[(size_t)j * rows + i] = a[(size_t)i * cols + j];
    if (i == rows - 1)
        longjmp(done, 1);
}

void transpose(double *out, const double *a, int rows, int cols)
{
    seen = __builtin_popcount((unsigned)rows) > 0;
    (void)clock;
    double complex z = CMPLX(0, 0);
    if (setjmp(done) == 0)
        for (int i = 0; i < rows; i++)
            copy_row(out, a, i, rows, cols + (int)creal(z));
}
