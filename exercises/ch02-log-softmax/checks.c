/* Checks of Exercise 2.3 (log-softmax).  Expected values are worked out by
   hand or computed from the definition log(exp(x_j) / sum_m exp(x_m)) in
   long double on inputs small enough for it not to overflow. */
#include "grade.h"
#include "log_softmax.h"
#include <math.h>

/* log(Softmax(x))_j straight from the definition, in long double */
static void naive(double *y, const double *x, int n)
{
    long double z = 0.0L;
    for (int m = 0; m < n; m++)
        z += expl((long double)x[m]);
    for (int j = 0; j < n; j++)
        y[j] = (double)logl(expl((long double)x[j]) / z);
}

CHECK(two_equal_scores)
{
    /* two equal scores: each weight is 1/2, so y = (-log 2, -log 2) */
    double x[2] = { 0.5, 0.5 }, want[2] = { -0.69314718055994531, -0.69314718055994531 };
    double *in = grade_copy(x, 2), *y = grade_doubles(2);
    log_softmax(y, in, 2);
    expect_doubles("y", y, want, 2);
}

CHECK(one_entry)
{
    /* a single score has weight 1, whatever its value: y = log 1 = 0 */
    double x[1] = { -123.25 };
    double *in = grade_copy(x, 1), *y = grade_doubles(1);
    log_softmax(y, in, 1);
    expect_near_tol("y[0]", y[0], 0.0, 1e-15, 0);
}

CHECK(extreme_scores)
{
    /* the text's example: exp(-1e4) underflows, yet y must be finite */
    double x[3] = { 1e4, 0, -1e4 }, want[3] = { 0, -1e4, -2e4 };
    double *in = grade_copy(x, 3), *y = grade_doubles(3);
    log_softmax(y, in, 3);
    for (int j = 0; j < 3; j++)
        expect_true(isfinite(y[j]), "the output must be finite for finite input (x = (1e4, 0, -1e4))",
                    "有限的输入必须给出有限的输出（x = (1e4, 0, -1e4)）");
    expect_doubles("y", y, want, 3);
}

CHECK(small_random)
{
    enum { N = 7 };
    double x[N], want[N];
    grade_random(x, N, 23, -3, 3);
    double *in = grade_copy(x, N), *y = grade_doubles(N);
    log_softmax(y, in, N);
    GRADE_REFERENCE(naive(want, x, N));
    expect_doubles("y", y, want, N);
    expect_same("x", in, x, N);
}

CHECK(in_place)
{
    /* y and x the same memory */
    double x[4] = { 1, 2, 3, 4 }, want[4];
    double *xy = grade_copy(x, 4);
    log_softmax(xy, xy, 4);
    GRADE_REFERENCE(naive(want, x, 4));
    expect_doubles("y (computed in place)|zh:y（原地计算）", xy, want, 4);
}

/* BEGIN HIDDEN */
CHECK(large_scores_overflow_exp)
{
    /* exp(800) overflows a double; the shift by the maximum must avoid it.
       Expected, by hand: y = x - 800 - log(1 + e^-100 + e^-1500) = x - 800 - 3.7e-44 */
    double x[3] = { 700, 800, -700 }, want[3] = { -100, 0, -1500 };
    double *in = grade_copy(x, 3), *y = grade_doubles(3);
    log_softmax(y, in, 3);
    expect_doubles("y", y, want, 3);
}

CHECK(long_random_row)
{
    enum { N = 1000 };
    double *x = grade_doubles(N), *want = grade_doubles(N), *y = grade_doubles(N);
    grade_random(x, N, 99, -20, 20);
    GRADE_REFERENCE(naive(want, x, N));    /* before the call: it gets x, not a copy */
    log_softmax(y, x, N);
    expect_doubles("y", y, want, N);
}

CHECK(shift_invariance)
{
    /* y(x + c) = y(x); the entries are multiples of 1/8, so x + 1000 is exact */
    enum { N = 6 };
    double x[N] = { 0.125, -1.5, 2.25, 0.0, -3.875, 1.0 }, want[N], shifted[N];
    for (int j = 0; j < N; j++)
        shifted[j] = x[j] + 1000;
    double *in = grade_copy(shifted, N), *y = grade_doubles(N);
    log_softmax(y, in, N);
    GRADE_REFERENCE(naive(want, x, N));
    expect_doubles("y(x + 1000)", y, want, N);
}
/* END HIDDEN */
