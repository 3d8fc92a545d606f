/* Hostile submission: replaces C library functions the harness might use. */
#include "transpose.h"
#include <stddef.h>

int unsetenv(const char *name);
long write(int fd, const void *buf, size_t n);
int unsetenv(const char *name) { (void)name; return 0; }
long write(int fd, const void *buf, size_t n) { (void)fd; (void)buf; return (long)n; }

void transpose(double *out, const double *a, int rows, int cols)
{
    (void)out; (void)a; (void)rows; (void)cols;
}
