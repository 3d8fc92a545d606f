/* Checks of Exercise A.1 (the transpose).  Every expected value is written
   out by hand or follows from the definition out[j][i] = a[i][j]. */
#include "grade.h"
#include "transpose.h"

CHECK(one_by_one)
{
    double a[1] = { 7.5 };
    double *in = grade_copy(a, 1), *out = grade_doubles(1);
    transpose(out, in, 1, 1);
    expect_near("out[0]", out[0], 7.5);
}

CHECK(two_by_three)
{
    /* a = [1 2 3; 4 5 6]  ->  a^T = [1 4; 2 5; 3 6] */
    double a[6] = { 1, 2, 3, 4, 5, 6 }, want[6] = { 1, 4, 2, 5, 3, 6 };
    double *in = grade_copy(a, 6), *out = grade_doubles(6);
    transpose(out, in, 2, 3);
    expect_matrix("out", out, want, 3, 2);
}

CHECK(input_unchanged)
{
    /* a 3 x 2 input: the result must be right and a must stay as it was */
    double a[6] = { 1, -2, 3.25, 4, 5e-3, 6e10 }, want[6] = { 1, 3.25, 5e-3, -2, 4, 6e10 };
    double *in = grade_copy(a, 6), *out = grade_doubles(6);
    transpose(out, in, 3, 2);
    expect_matrix("out", out, want, 2, 3);
    expect_same("a", in, a, 6);
}

CHECK(column_vector)
{
    /* a 4 x 1 column becomes a 1 x 4 row with the same entries */
    double a[4] = { 0.5, -1, 2, 8 };
    double *in = grade_copy(a, 4), *out = grade_doubles(4);
    transpose(out, in, 4, 1);
    expect_matrix("out", out, a, 1, 4);
}

/* BEGIN HIDDEN */
CHECK(row_vector)
{
    double a[5] = { 3, 1, 4, 1, 5 };
    double *in = grade_copy(a, 5), *out = grade_doubles(5);
    transpose(out, in, 1, 5);
    expect_matrix("out", out, a, 5, 1);
}

CHECK(large_rectangle)
{
    enum { R = 37, C = 53 };
    double *a = grade_doubles((size_t)R * C), *out = grade_doubles((size_t)R * C);
    for (int i = 0; i < R; i++)          /* a[i][j] = 1000 i + j: the entry names its place */
        for (int j = 0; j < C; j++)
            a[i * C + j] = 1000.0 * i + j;
    transpose(out, a, R, C);
    for (int j = 0; j < C; j++)
        for (int i = 0; i < R; i++)
            expect_near("out[j][i] = 1000 i + j", out[j * R + i], 1000.0 * i + j);
}
/* END HIDDEN */
