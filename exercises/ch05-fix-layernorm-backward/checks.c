/* Checks of Exercise 5.5 (find and fix: the backward pass of layer
   normalisation).  The expected gradients are central differences of
   L = <dy, LayerNorm(x)>, with the forward pass written out here; or
   worked out by hand. */
#include "grade.h"
#include "ln_row_backward.h"
#include <math.h>
#include <stdio.h>

enum { MAXD = 64 };

static double loss(const double *dy, const double *x, const double *gamma, int d, double eps)
{
    long double mu = 0, var = 0, l = 0;
    for (int j = 0; j < d; j++)
        mu += x[j];
    mu /= d;
    for (int j = 0; j < d; j++)
        var += (x[j] - mu) * (x[j] - mu);
    long double r = 1 / sqrtl(var / d + eps);
    for (int j = 0; j < d; j++)
        l += (long double)dy[j] * (gamma ? gamma[j] : 1.0) * (x[j] - mu) * r;
    return (double)l;
}

static void run(int d, double eps, unsigned long seed, int with_gamma, double dy_mean)
{
    double x[MAXD], dy[MAXD], gamma[MAXD], want[MAXD];
    grade_random(x, d, seed, -2, 2);
    grade_random(dy, d, seed + 1, -1, 1);
    grade_random(gamma, d, seed + 2, 0.5, 1.5);
    for (int j = 0; j < d; j++)
        dy[j] += dy_mean;
    const double *gm = with_gamma ? gamma : NULL;
    double *dx = grade_doubles(d);
    ln_row_backward(dx, grade_copy(dy, d), grade_copy(x, d), gm ? grade_copy(gm, d) : NULL,
                    d, eps);
    GRADE_REFERENCE({
        for (int j = 0; j < d; j++) {           /* central differences */
            const double h = 1e-6;
            double keep = x[j];
            x[j] = keep + h;
            double up = loss(dy, x, gm, d, eps);
            x[j] = keep - h;
            double down = loss(dy, x, gm, d, eps);
            x[j] = keep;
            want[j] = (up - down) / (2 * h);
        }
    });
    expect_doubles("dx", dx, want, d);
}

CHECK(two_entries_by_hand)
{
    /* d = 2, eps = 0: xhat = (-1, 1) whatever x is (x_0 < x_1), so y does
       not change when x moves; dx = 0 for any dy. */
    double x[2] = { 1, 3 }, dy[2] = { 0.5, 2 }, zero[2] = { 0, 0 };
    double *dx = grade_doubles(2);
    ln_row_backward(dx, grade_copy(dy, 2), grade_copy(x, 2), NULL, 2, 0.0);
    expect_doubles("dx", dx, zero, 2);
}

CHECK(upstream_gradient_summing_to_zero)
{
    /* dy with sum_j dy_j = 0 (gamma = 1) */
    double x[4] = { 0.5, -1, 2, 0 }, dy[4] = { 1, -2, 0.5, 0.5 };
    double want[4];
    double *dx = grade_doubles(4);
    ln_row_backward(dx, grade_copy(dy, 4), grade_copy(x, 4), NULL, 4, 1e-5);
    GRADE_REFERENCE({
        for (int j = 0; j < 4; j++) {
            double h = 1e-6, keep = x[j];
            x[j] = keep + h;
            double up = loss(dy, x, NULL, 4, 1e-5);
            x[j] = keep - h;
            double down = loss(dy, x, NULL, 4, 1e-5);
            x[j] = keep;
            want[j] = (up - down) / (2 * h);
        }
    });
    expect_doubles("dx", dx, want, 4);
}

CHECK(shifting_x_changes_nothing)
{
    /* LayerNorm(x + c 1) = LayerNorm(x), so <dx, 1> = 0 for every dy */
    double x[5] = { 0.1, 0.7, -0.4, 1.5, -2 }, dy[5] = { 1, 1, 0.5, 2, 0.25 };
    double *dx = grade_doubles(5);
    ln_row_backward(dx, grade_copy(dy, 5), grade_copy(x, 5), NULL, 5, 1e-5);
    double sum = 0;
    for (int j = 0; j < 5; j++)
        sum += dx[j];
    /* a sum within the tolerance is reported as the 0 it should be (the
       reference run's own rounding, 3e-17, would otherwise show as "expected") */
    expect_near_tol("sum_j dx_j", fabs(sum) < 1e-9 ? 0.0 : sum, 0.0, 1e-9, 0);
}

CHECK(finite_differences_with_gamma)
{
    run(6, 1e-5, 100, 1, 0.0);
}

/* BEGIN HIDDEN */
CHECK(constant_upstream_gradient)
{
    /* dy = c 1 with gamma = 1: L = c sum_j xhat_j = 0 for every x, so dx = 0 */
    double x[6], dy[6] = { 3, 3, 3, 3, 3, 3 }, zero[6] = { 0 };
    grade_random(x, 6, 200, -1, 1);
    double *dx = grade_doubles(6);
    ln_row_backward(dx, grade_copy(dy, 6), grade_copy(x, 6), NULL, 6, 1e-5);
    /* entries within the tolerance are reported as the 0 they should be */
    for (int j = 0; j < 6; j++)
        dx[j] = fabs(dx[j]) < 1e-6 ? 0.0 : dx[j];
    expect_doubles("dx", dx, zero, 6);
}

CHECK(wide_row_biased_upstream)
{
    run(48, 1e-5, 300, 1, 0.75);
}
/* END HIDDEN */
