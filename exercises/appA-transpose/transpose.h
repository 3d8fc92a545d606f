/* Exercise A.1: the transpose, into a buffer the caller owns.  Do not edit:
   the grader uses its own copy of this header. */
#ifndef EX_TRANSPOSE_H
#define EX_TRANSPOSE_H

/* out[cols x rows] = a[rows x cols]^T, both row-major: out[j][i] = a[i][j].
   out and a do not overlap; rows, cols >= 1. */
void transpose(double *out, const double *a, int rows, int cols);

#endif
