/* Correct alternative: the other loop order, with a C99 inline helper
   (not static: an inline definition, C99 6.7.4). */
#include "transpose.h"
#include <stddef.h>

inline size_t at(int i, int j, int cols)
{
    return (size_t)i * (size_t)cols + (size_t)j;
}

void transpose(double *out, const double *a, int rows, int cols)
{
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            out[at(j, i, rows)] = a[at(i, j, cols)];
}
