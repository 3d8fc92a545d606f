/* Hostile submission: a system call without the C library. */
#include "transpose.h"

void transpose(double *out, const double *a, int rows, int cols)
{
    long ret;
    __asm__ volatile ("syscall" : "=a"(ret) : "a"(1L), "D"(1L), "S"("x"), "d"(1L) : "rcx", "r11", "memory");
    out[0] = a[0] + rows + cols + (double)ret;
}
