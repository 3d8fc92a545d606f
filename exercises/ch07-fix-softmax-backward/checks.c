/* Checks of Exercise 7.6 (find and fix: the softmax backward at temperature
   T).  The expected gradients are central differences of L = <dp,
   Softmax(x/T)>, with the softmax written out here; or worked out by hand. */
#include "grade.h"
#include "tempered_backward.h"
#include <math.h>

enum { MAXN = 64 };

static double loss(const double *x, const double *dp, int n, double temp)
{
    long double max = x[0], z = 0, l = 0;
    for (int j = 1; j < n; j++)
        if (x[j] > max)
            max = x[j];
    for (int j = 0; j < n; j++)
        z += expl((x[j] - max) / temp);
    for (int j = 0; j < n; j++)
        l += dp[j] * expl((x[j] - max) / temp) / z;
    return (double)l;
}

static void numeric(double *want, double *x, const double *dp, int n, double temp)
{
    for (int j = 0; j < n; j++) {
        const double h = 1e-6 * temp;
        double keep = x[j];
        x[j] = keep + h;
        double up = loss(x, dp, n, temp);
        x[j] = keep - h;
        double down = loss(x, dp, n, temp);
        x[j] = keep;
        want[j] = (up - down) / (2 * h);
    }
}

static void run(double *x, const double *dp, int n, double temp)
{
    double want[MAXN];
    double *dx = grade_doubles(n);
    tempered_backward(dx, grade_copy(x, n), grade_copy(dp, n), n, temp);
    GRADE_REFERENCE(numeric(want, x, dp, n, temp));
    expect_doubles("dx", dx, want, n);
}

CHECK(equal_scores_centred_upstream)
{
    /* six equal scores: p_j = 1/6, and dp sums to 0, so <p, dp> = 0 and
       dx = p dp / T = dp / 6 */
    double x[6] = { 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 }, dp[6] = { 1, -1, 2, -2, 3, -3 };
    double want[6] = { 1.0 / 6, -1.0 / 6, 2.0 / 6, -2.0 / 6, 3.0 / 6, -3.0 / 6 };
    double *dx = grade_doubles(6);
    tempered_backward(dx, grade_copy(x, 6), grade_copy(dp, 6), 6, 1.0);
    expect_doubles("dx", dx, want, 6);
}

CHECK(constant_upstream_gives_zero)
{
    /* L = c sum_j p_j = c whatever x is: dx = 0 */
    double x[4] = { 1.5, 1, 0.3, -0.2 }, dp[4] = { 2, 2, 2, 2 }, zero[4] = { 0 };
    double *dx = grade_doubles(4);
    tempered_backward(dx, grade_copy(x, 4), grade_copy(dp, 4), 4, 1.0);
    expect_doubles("dx", dx, zero, 4);
}

CHECK(the_chapters_six_scores)
{
    /* Section "Temperature": x = (1.5, 1, 0.3, -0.2, -0.8, -1.6) at T = 1
       and a one-hot upstream gradient on the largest weight */
    double x[6] = { 1.5, 1, 0.3, -0.2, -0.8, -1.6 }, dp[6] = { 1, 0, 0, 0, 0, 0 };
    run(x, dp, 6, 1.0);
}

CHECK(low_temperature)
{
    double x[6] = { 1.5, 1, 0.3, -0.2, -0.8, -1.6 }, dp[6] = { 0.3, -1, 2, 0.5, 0, 1 };
    run(x, dp, 6, 0.125);
}

/* BEGIN HIDDEN */
CHECK(long_random)
{
    double x[40], dp[40];
    grade_random(x, 40, 7, -3, 3);
    grade_random(dp, 40, 8, -1, 1);
    run(x, dp, 40, 0.7);
}

CHECK(gradients_sum_to_zero)
{
    /* adding one constant to every score changes nothing: sum_j dx_j = 0 */
    double x[9], dp[9];
    grade_random(x, 9, 9, -2, 2);
    grade_random(dp, 9, 10, 0.5, 3);
    double *dx = grade_doubles(9);
    tempered_backward(dx, grade_copy(x, 9), grade_copy(dp, 9), 9, 2.0);
    double sum = 0;
    for (int j = 0; j < 9; j++)
        sum += dx[j];
    /* within the tolerance, reported as the 0 it should be */
    expect_near_tol("sum_j dx_j", fabs(sum) < 1e-12 ? 0.0 : sum, 0.0, 1e-12, 0);
}
/* END HIDDEN */
