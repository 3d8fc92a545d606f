/* Checks of Exercise 5.3.  Expected values by hand, or from the definition
   computed here in long double. */
#include "grade.h"
#include "rmsnorm.h"
#include <math.h>

static void reference(double *y, double *r, const double *x, const double *gamma, int d, int n,
                      double eps)
{
    for (int t = 0; t < n; t++) {
        long double ms = 0;
        for (int j = 0; j < d; j++)
            ms += (long double)x[t * d + j] * x[t * d + j];
        long double inv = 1 / sqrtl(ms / d + eps);
        r[t] = (double)inv;
        for (int j = 0; j < d; j++)
            y[t * d + j] = (double)((gamma ? gamma[j] : 1) * x[t * d + j] * inv);
    }
}

/* rows of random x; gamma random or NULL; rms_inv asked for or NULL */
static void compare(int n, int d, int with_gamma, double eps, unsigned long seed, int with_r)
{
    double *x = grade_doubles((size_t)n * d), *gamma = grade_doubles(d), *beta = grade_doubles(d);
    grade_random(x, (size_t)n * d, seed, -3, 3);
    grade_random(gamma, d, seed + 1, 0.5, 2);
    grade_random(beta, d, seed + 2, -1, 1);
    double *want = grade_doubles((size_t)n * d), *want_r = grade_doubles(n);
    LayerNorm ln = { d, with_gamma ? gamma : NULL, beta, eps };
    double *y = grade_doubles((size_t)n * d), *r = with_r ? grade_doubles(n) : NULL;
    double *xx = grade_copy(x, (size_t)n * d);
    rmsnorm_forward(&ln, y, r, xx, n);
    GRADE_REFERENCE(reference(want, want_r, x, with_gamma ? gamma : NULL, d, n, eps));
    expect_matrix("y", y, want, n, d);
    if (with_r)
        expect_doubles("rms_inv", r, want_r, n);
    expect_same("x", xx, x, (size_t)n * d);
}

CHECK(one_row_by_hand)
{
    /* x = (3, 4): mean(x^2) = 12.5; with eps = 0, y = x / sqrt(12.5) */
    double x[2] = { 3, 4 }, want[2] = { 0, 0 };
    LayerNorm ln = { 2, NULL, NULL, 0.0 };
    double *y = grade_doubles(2), *r = grade_doubles(1);
    rmsnorm_forward(&ln, y, r, grade_copy(x, 2), 1);
    GRADE_REFERENCE(want[0] = 3 / sqrt(12.5), want[1] = 4 / sqrt(12.5));
    expect_doubles("y", y, want, 2);
    expect_near("rms_inv[0]", r[0], 1 / sqrt(12.5));
}

CHECK(eps_is_added)
{
    /* x = (0, 0, 0) with eps = 0.25: rms_inv = 1/sqrt(0.25) = 2, y = 0 */
    double x[3] = { 0, 0, 0 }, zero[3] = { 0, 0, 0 };
    LayerNorm ln = { 3, NULL, NULL, 0.25 };
    double *y = grade_doubles(3), *r = grade_doubles(1);
    rmsnorm_forward(&ln, y, r, grade_copy(x, 3), 1);
    expect_near("rms_inv[0]", r[0], 2.0);
    expect_doubles("y", y, zero, 3);
}

CHECK(gamma_and_no_beta)
{
    /* gamma scales each column; beta (non-zero here) must be ignored */
    compare(4, 5, 1, 1e-5, 10, 1);
}

CHECK(rms_inv_may_be_null)
{
    compare(3, 6, 1, 1e-5, 20, 0);
}

/* BEGIN HIDDEN */
CHECK(no_gamma_many_rows)
{
    compare(50, 16, 0, 1e-5, 30, 1);
}

CHECK(wide_rows)
{
    compare(3, 512, 1, 1e-6, 40, 1);
}

CHECK(scale_invariant_without_eps)
{
    /* with eps = 0, y(c x) = y(x) */
    double x[4] = { 1, -2, 0.5, 3 }, cx[4], want[4], r[1];
    for (int j = 0; j < 4; j++)
        cx[j] = 1e3 * x[j];
    LayerNorm ln = { 4, NULL, NULL, 0.0 };
    double *y = grade_doubles(4);
    rmsnorm_forward(&ln, y, NULL, grade_copy(cx, 4), 1);
    GRADE_REFERENCE(reference(want, r, x, NULL, 4, 1, 0.0));
    expect_doubles("y(1000 x)", y, want, 4);
}
/* END HIDDEN */
