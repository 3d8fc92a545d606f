/* Checks of Exercise 6.5 (find and fix: the positional encoding).  The
   expected table is the definition evaluated here with the pair index
   i = j / 2 written out, in long double; or worked out by hand. */
#include "grade.h"
#include "sinusoids.h"
#include <math.h>
#include <stdio.h>

enum { MAXR = 64, MAXD = 512 };

static void reference(double *pe, int rows, int d)
{
    for (int pos = 0; pos < rows; pos++)
        for (int i = 0; i < d / 2; i++) {
            long double w = powl(10000.0L, -2.0L * i / d);
            pe[pos * d + 2 * i] = (double)sinl(pos * w);
            pe[pos * d + 2 * i + 1] = (double)cosl(pos * w);
        }
}

static void run(int rows, int d)
{
    static double want[MAXR * MAXD];
    double *pe = grade_doubles((size_t)rows * d);
    sinusoids(pe, rows, d);
    GRADE_REFERENCE(reference(want, rows, d));
    expect_matrix("pe", pe, want, rows, d);
}

CHECK(row_zero_by_hand)
{
    /* position 0: every angle is 0, so the row is (0, 1, 0, 1, ...) */
    double want[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
    double *pe = grade_doubles(8);
    sinusoids(pe, 1, 8);
    expect_doubles("pe[0]", pe, want, 8);
}

CHECK(column_zero_is_sin_pos)
{
    /* w_0 = 1: column 0 is sin(pos) */
    double *pe = grade_doubles(6 * 4), got[6], want[6];
    sinusoids(pe, 6, 4);
    for (int pos = 0; pos < 6; pos++)
        got[pos] = pe[pos * 4];
    GRADE_REFERENCE({
        for (int pos = 0; pos < 6; pos++)
            want[pos] = sin((double)pos);
    });
    expect_doubles("pe[pos][0]", got, want, 6);
}

CHECK(each_pair_is_on_the_unit_circle)
{
    /* sin^2 + cos^2 = 1 only if both entries of a pair share the angle
       pos w_i; the cosine of pair i is sin(pos w_i + pi/2) */
    enum { R = 5, D = 6 };
    double *pe = grade_doubles(R * D), got[R * D / 2], want[R * D / 2];
    sinusoids(pe, R, D);
    for (int pos = 0; pos < R; pos++)
        for (int i = 0; i < D / 2; i++) {
            double s = pe[pos * D + 2 * i], c = pe[pos * D + 2 * i + 1];
            got[pos * D / 2 + i] = s * s + c * c;
        }
    GRADE_REFERENCE({
        for (int k = 0; k < R * D / 2; k++)
            want[k] = 1.0;
    });
    /* pair_norm2[pos][i]: the sum of squares of pair i at position pos */
    expect_matrix("pair_norm2", got, want, R, D / 2);
    double full[R * D];
    GRADE_REFERENCE(reference(full, R, D));
    expect_matrix("pe", pe, full, R, D);
}

CHECK(small_table)
{
    run(10, 8);
}

/* BEGIN HIDDEN */
CHECK(paper_width)
{
    run(50, 512);
}

CHECK(shift_is_a_rotation)
{
    /* PE(pos + k) = R_k PE(pos) pair by pair, R_k the rotation by k w_i:
       (s', c') = (s cos kw + c sin kw, c cos kw - s sin kw) */
    enum { R = 12, D = 10, K = 3 };
    double *pe = grade_doubles(R * D), got[(R - K) * D], want[(R - K) * D];
    sinusoids(pe, R, D);
    for (int pos = 0; pos + K < R; pos++)
        for (int j = 0; j < D; j++)
            got[pos * D + j] = pe[(pos + K) * D + j];
    GRADE_REFERENCE({
        for (int pos = 0; pos + K < R; pos++)
            for (int i = 0; i < D / 2; i++) {
                double w = pow(10000.0, -2.0 * i / D);
                double s = pe[pos * D + 2 * i], c = pe[pos * D + 2 * i + 1];
                want[pos * D + 2 * i] = s * cos(K * w) + c * sin(K * w);
                want[pos * D + 2 * i + 1] = c * cos(K * w) - s * sin(K * w);
            }
    });
    expect_matrix("pe[pos + 3]", got, want, R - K, D);
}
/* END HIDDEN */
