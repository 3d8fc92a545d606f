/* Hostile submission: overrides C library functions the harness calls to
   report (write, snprintf) so that its report says what the student wants. */
#include "transpose.h"
#include <stdarg.h>
#include <stddef.h>

long write(int fd, const void *buf, size_t n);
long write(int fd, const void *buf, size_t n) { (void)fd; (void)buf; return (long)n; }

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
}
