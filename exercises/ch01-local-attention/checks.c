/* Checks of Exercise 1.2.  Expected values by hand, or from the definition
   (a window softmax, in long double) written out here. */
#include "grade.h"
#include "local_attention.h"
#include <math.h>
#include <stdlib.h>

static void reference(double *out, const double *x, int n, int d, int radius, double kappa)
{
    for (int i = 0; i < n; i++) {
        long double max = -INFINITY, z = 0, s[1024];
        for (int j = 0; j < n; j++) {
            s[j] = 0;
            for (int c = 0; c < d; c++)
                s[j] += (long double)x[i * d + c] * x[j * d + c];
            s[j] *= kappa;
            if (abs(i - j) <= radius && s[j] > max)
                max = s[j];
        }
        for (int j = 0; j < n; j++)
            if (abs(i - j) <= radius)
                z += expl(s[j] - max);
        for (int c = 0; c < d; c++) {
            long double acc = 0;
            for (int j = 0; j < n; j++)
                if (abs(i - j) <= radius)
                    acc += expl(s[j] - max) / z * x[j * d + c];
            out[i * d + c] = (double)acc;
        }
    }
}

static void compare(const char *what, const double *x, int n, int d, int radius, double kappa)
{
    double *want = grade_doubles((size_t)n * d);
    double *xx = grade_copy(x, (size_t)n * d), *out = grade_doubles((size_t)n * d);
    double *w = grade_doubles(2 * (size_t)radius + 1);
    local_attention(out, w, xx, n, d, radius, kappa);
    GRADE_REFERENCE(reference(want, x, n, d, radius, kappa));
    expect_matrix(what, out, want, n, d);
    expect_same("x", xx, x, (size_t)n * d);
}

CHECK(radius_zero_returns_x)
{
    /* each query sees only itself: weight 1, out = x */
    double x[6] = { 1, -2, 3, 0.5, 4, -4 };
    double *out = grade_doubles(6), *w = grade_doubles(1);
    local_attention(out, w, grade_copy(x, 6), 3, 2, 0, 1.0);
    expect_matrix("out", out, x, 3, 2);
}

CHECK(three_positions_by_hand)
{
    /* x = (0, 1, 2) (d = 1), radius 1, kappa 1:
       row 0 sees scores (0, 0): out = (0 + 1)/2;
       row 1 sees (0, 1, 2): out = (e + 2e^2)/(1 + e + e^2);
       row 2 sees (2, 4): out = (e^2 + 2e^4)/(e^2 + e^4) */
    double x[3] = { 0, 1, 2 }, want[3] = { 0.5, 0, 0 };
    double *out = grade_doubles(3), *w = grade_doubles(3);
    local_attention(out, w, grade_copy(x, 3), 3, 1, 1, 1.0);
    GRADE_REFERENCE({
        double e = exp(1.0);
        want[1] = (e + 2 * e * e) / (1 + e + e * e);
        want[2] = (e * e + 2 * pow(e, 4)) / (e * e + pow(e, 4));
    });
    expect_doubles("out", out, want, 3);
}

CHECK(window_cut_at_the_ends)
{
    double x[7 * 3];
    grade_random(x, 21, 71, -1, 1);
    compare("out", x, 7, 3, 2, 0.57735026918962584);
}

CHECK(wide_window_is_self_attention)
{
    /* radius >= n - 1: every query sees every position, as the chapter's
       self-attention layer; the workspace is 2 radius + 1 long */
    double x[5 * 4];
    grade_random(x, 20, 72, -1.5, 1.5);
    compare("out (radius 8 >= n - 1)", x, 5, 4, 8, 0.5);
}

/* BEGIN HIDDEN */
CHECK(radius_exactly_n_minus_one)
{
    double x[6 * 2];
    grade_random(x, 12, 73, -1, 1);
    compare("out", x, 6, 2, 5, 1.0);
}

CHECK(long_sequence)
{
    enum { N = 120, D = 8 };
    double *x = grade_doubles(N * D);
    grade_random(x, N * D, 74, -1, 1);
    compare("out", x, N, D, 6, 0.35355339059327373);
}

CHECK(large_scores)
{
    /* scores near 1e3: exp overflows unless the window's maximum is subtracted */
    double x[4 * 2] = { 30, 10, -20, 25, 28, 12, 0, -31 };
    compare("out", x, 4, 2, 1, 1.0);
}
/* END HIDDEN */
