/* Checks of Exercise 1.4.  Expected values by hand, or from the recurrence
   h_t = h_{t-1} A + x_t B stepped through here in long double; the round
   count is ceil(log2 n) counted here by doubling. */
#include "grade.h"
#include "linrnn_scan.h"
#include <stdio.h>

static void recurrence(double *h, const double *x, const double *a, const double *bm,
                       int n, int d_in, int d)
{
    long double prev[16] = { 0 }, cur[16];
    for (int t = 0; t < n; t++) {
        for (int j = 0; j < d; j++) {
            cur[j] = 0;
            for (int i = 0; i < d; i++)
                cur[j] += prev[i] * a[i * d + j];
            for (int i = 0; i < d_in; i++)
                cur[j] += (long double)x[t * d_in + i] * bm[i * d + j];
        }
        for (int j = 0; j < d; j++)
            h[t * d + j] = (double)(prev[j] = cur[j]);
    }
}

static int ceil_log2(int n)
{
    int r = 0;
    while ((1 << r) < n)
        r++;
    return r;
}

/* a d x d matrix with row sums of |a_ij| at most 0.9: spectral radius < 1 */
static void contraction(double *a, int d, unsigned long seed)
{
    grade_random(a, (size_t)d * d, seed, -0.9 / d, 0.9 / d);
}

static void compare(int n, int d_in, int d, unsigned long seed)
{
    double *x = grade_doubles((size_t)n * d_in), *a = grade_doubles((size_t)d * d);
    double *bm = grade_doubles((size_t)d_in * d), *want = grade_doubles((size_t)n * d);
    grade_random(x, (size_t)n * d_in, seed, -1, 1);
    grade_random(bm, (size_t)d_in * d, seed + 1, -1, 1);
    contraction(a, d, seed + 2);
    /* before the call: a and bm are handed to it as they are, not copied */
    GRADE_REFERENCE(recurrence(want, x, a, bm, n, d_in, d));
    double *h = grade_doubles((size_t)n * d);
    double *work = grade_doubles((size_t)n * d + 2 * (size_t)d * d);
    double *xx = grade_copy(x, (size_t)n * d_in);
    int rounds = linrnn_scan(h, xx, a, bm, n, d_in, d, work);
    expect_matrix("h", h, want, n, d);
    expect_int("the number of rounds|zh:轮数", rounds, ceil_log2(n));
    expect_same("x", xx, x, (size_t)n * d_in);
}

CHECK(scalar_by_hand)
{
    /* d_in = d = 1, A = 0.5, B = 2, x = (1, 0, 0, 0, 0): h_t = 2 * 0.5^(t-1) */
    double x[5] = { 1, 0, 0, 0, 0 }, a[1] = { 0.5 }, bm[1] = { 2 };
    double want[5] = { 2, 1, 0.5, 0.25, 0.125 };
    double *h = grade_doubles(5), *work = grade_doubles(5 + 2);
    int rounds = linrnn_scan(h, grade_copy(x, 5), grade_copy(a, 1), grade_copy(bm, 1), 5, 1, 1, work);
    expect_doubles("h", h, want, 5);
    expect_int("the number of rounds for n = 5|zh:n = 5 时的轮数", rounds, 3);
}

CHECK(rounds_are_ceil_log2_n)
{
    /* n = 1, 2, 3, 4, 8, 9: 0, 1, 2, 2, 3, 4 rounds */
    static const int ns[6] = { 1, 2, 3, 4, 8, 9 }, want[6] = { 0, 1, 2, 2, 3, 4 };
    for (int i = 0; i < 6; i++) {
        int n = ns[i];
        double *x = grade_doubles(n), *h = grade_doubles(n), *work = grade_doubles(n + 2);
        double a[1] = { 0.5 }, bm[1] = { 1 };
        for (int t = 0; t < n; t++)
            x[t] = 1;
        int r = linrnn_scan(h, x, a, bm, n, 1, 1, work);
        char what[64];
        snprintf(what, sizeof what, "rounds for n = %d|zh:n = %d 时的轮数", n, n);
        expect_int(what, r, want[i]);
    }
}

CHECK(matches_the_recurrence)
{
    compare(13, 2, 3, 100);
}

CHECK(power_of_two_length)
{
    compare(16, 3, 2, 200);
}

/* BEGIN HIDDEN */
CHECK(one_step)
{
    compare(1, 2, 2, 300);
}

CHECK(long_sequence)
{
    compare(1000, 3, 4, 400);
}

CHECK(wide_state)
{
    compare(37, 5, 8, 500);
}
/* END HIDDEN */
