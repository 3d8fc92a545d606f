/* A known wrong solution (mutant) of appA-transpose, kept for the grader's tests
   and its feedback: this copies the matrix: the transpose puts entry (i, j) of a at (j, i) of out, out[j*rows + i]. */
/* Exercise A.1 · 练习 A.1: transpose a matrix into a caller-owned buffer.
 * 把矩阵转置写入调用者提供的缓冲区。
 *
 * out has cols x rows entries, a has rows x cols, both row-major
 * (Appendix A): entry (i, j) of a is a[i*cols + j].
 * Write only out; do not allocate; do not print.
 * Grade it with:  make grade EX=appA-transpose
 */
#include "transpose.h"
#include <stddef.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            out[(size_t)i * cols + j] = a[(size_t)i * cols + j];
}
