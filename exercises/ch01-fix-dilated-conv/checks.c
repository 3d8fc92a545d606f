/* Checks of Exercise 1.5 (find and fix: the dilated causal convolution).
   The expected outputs are equation (C) summed here term by term, in long
   double; or worked out by hand. */
#include "grade.h"
#include "dilated_conv.h"

enum { MAXN = 64, MAXD = 4, MAXK = 4 };

static void reference(double *y, const double *x, const double *w, const double *b,
                      int n, int d_in, int d_out, int k, int dil)
{
    for (int t = 0; t < n; t++)
        for (int j = 0; j < d_out; j++) {
            long double acc = b ? b[j] : 0;
            for (int o = 0; o < k; o++) {
                int src = t - o * dil;          /* taps before position 0 read zeros */
                if (src < 0)
                    continue;
                for (int i = 0; i < d_in; i++)
                    acc += (long double)x[src * d_in + i] * w[(o * d_in + i) * d_out + j];
            }
            y[t * d_out + j] = (double)acc;
        }
}

static void run(int n, int d_in, int d_out, int k, int dil, unsigned long seed, int bias)
{
    double x[MAXN * MAXD], w[MAXK * MAXD * MAXD], b[MAXD], want[MAXN * MAXD];
    grade_random(x, (size_t)n * d_in, seed, -1, 1);
    grade_random(w, (size_t)k * d_in * d_out, seed + 1, -1, 1);
    grade_random(b, d_out, seed + 2, -1, 1);
    double *y = grade_doubles((size_t)n * d_out);
    dilated_conv(y, grade_copy(x, (size_t)n * d_in), grade_copy(w, (size_t)k * d_in * d_out),
                 bias ? grade_copy(b, d_out) : NULL, n, d_in, d_out, k, dil);
    GRADE_REFERENCE(reference(want, x, w, bias ? b : NULL, n, d_in, d_out, k, dil));
    expect_matrix("y", y, want, n, d_out);
}

CHECK(contiguous_taps_by_hand)
{
    /* k = 2, dilation 1, d_in = d_out = 1, W_0 = 1, W_1 = 10, b = 0:
       y_t = x_t + 10 x_{t-1} */
    double x[4] = { 1, 2, 3, 4 }, w[2] = { 1, 10 }, want[4] = { 1, 12, 23, 34 };
    double *y = grade_doubles(4);
    dilated_conv(y, grade_copy(x, 4), grade_copy(w, 2), NULL, 4, 1, 1, 2, 1);
    expect_doubles("y", y, want, 4);
}

CHECK(dilation_two_by_hand)
{
    /* k = 2, dilation 2: y_t = x_t + 10 x_{t-2}, and x_{-1} = x_{-2} = 0 */
    double x[5] = { 1, 2, 3, 4, 5 }, w[2] = { 1, 10 }, want[5] = { 1, 2, 13, 24, 35 };
    double *y = grade_doubles(5);
    dilated_conv(y, grade_copy(x, 5), grade_copy(w, 2), NULL, 5, 1, 1, 2, 2);
    expect_doubles("y", y, want, 5);
}

CHECK(contiguous_random)
{
    run(9, 3, 2, 3, 1, 100, 1);
}

CHECK(reaches_back_k_minus_one_dilations)
{
    /* an impulse at position 0, k = 3, dilation 4: y_t is nonzero only at
       t = 0, 4, 8, where it equals W_0, W_1, W_2 */
    double x[12] = { 1 }, w[3] = { 2, 3, 5 };
    double want[12] = { 2, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0 };
    double *y = grade_doubles(12);
    dilated_conv(y, grade_copy(x, 12), grade_copy(w, 3), NULL, 12, 1, 1, 3, 4);
    expect_doubles("y", y, want, 12);
}

/* BEGIN HIDDEN */
CHECK(dilated_random_with_bias)
{
    run(40, 4, 3, 3, 5, 200, 1);
}

CHECK(dilation_longer_than_the_sequence)
{
    /* dilation 50 > n: only tap 0 lands inside, y_t = b + x_t W_0 */
    run(20, 2, 2, 4, 50, 300, 1);
}
/* END HIDDEN */
