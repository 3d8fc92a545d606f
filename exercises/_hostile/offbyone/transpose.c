/* Hostile submission: right answer, plus one write past the end of out. */
#include "transpose.h"
#include <stddef.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            out[(size_t)j * rows + i] = a[(size_t)i * cols + j];
    out[(size_t)rows * cols] = 0.0;            /* one past the end */
}
