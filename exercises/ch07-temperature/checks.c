/* Checks of Exercise 7.3.  Expected values: T = 1 / log(t / (1 - t)) for two
   scores one apart (worked by hand), -1 where the contract says so, and
   otherwise a bisection on T written here in long double. */
#include "grade.h"
#include "temperature.h"
#include <math.h>

static long double weight(const double *x, int n, long double t)
{
    long double max = x[0], z = 0;
    for (int j = 1; j < n; j++)
        if (x[j] > max)
            max = x[j];
    for (int m = 0; m < n; m++)
        z += expl((x[m] - max) / t);
    return 1 / z;
}

/* bisection on log T, long double, 400 halvings */
static double reference(const double *x, int n, double target)
{
    long double lo = -700, hi = 700;
    for (int it = 0; it < 400; it++) {
        long double mid = (lo + hi) / 2;
        if (weight(x, n, expl(mid)) > target)
            lo = mid;
        else
            hi = mid;
    }
    return (double)expl((lo + hi) / 2);
}

static double call(const double *x, int n, double target)
{
    double *xx = grade_copy(x, n);
    double t = temperature_for_max_weight(xx, n, target);
    expect_same("x", xx, x, n);
    return t;
}

CHECK(two_scores_by_hand)
{
    /* x = (0, 1): the weight of x_2 is 1 / (1 + e^(-1/T)) = t, so T = 1 / log(t / (1 - t)) */
    double x[2] = { 0, 1 };
    expect_near("T for target 0.9|zh:目标为 0.9 时的 T", call(x, 2, 0.9), 1 / log(9.0));
    expect_near("T for target 0.6|zh:目标为 0.6 时的 T", call(x, 2, 0.6), 1 / log(1.5));
}

CHECK(tie_returns_minus_one)
{
    double x[4] = { 3, -1, 3, 0 };
    expect_near_tol("return value for a tied maximum|zh:最大值并列时的返回值", call(x, 4, 0.5), -1, 0, 0);
}

CHECK(target_out_of_range_returns_minus_one)
{
    double x[4] = { 1, 2, 3, 4 };
    expect_near_tol("return value for target = 1/n|zh:目标为 1/n 时的返回值", call(x, 4, 0.25), -1, 0, 0);
    expect_near_tol("return value for target = 1|zh:目标为 1 时的返回值", call(x, 4, 1.0), -1, 0, 0);
    expect_near_tol("return value for target = 0.1 < 1/n|zh:目标为 0.1 < 1/n 时的返回值", call(x, 4, 0.1), -1, 0, 0);
}

CHECK(six_scores)
{
    double x[6] = { 2.0, 1.0, 0.5, -0.5, 0.0, -1.0 };
    for (double t = 0.3; t < 0.99; t += 0.15)
        expect_near("T", call(x, 6, t), reference(x, 6, t));
}

/* BEGIN HIDDEN */
CHECK(target_near_one)
{
    /* T near 0: x / T is large, exp must not overflow */
    double x[3] = { 5, 4, -2 };
    expect_near("T for target 1 - 1e-9|zh:目标为 1 - 1e-9 时的 T", call(x, 3, 1 - 1e-9), reference(x, 3, 1 - 1e-9));
}

CHECK(target_near_uniform)
{
    /* T large: the weights are almost uniform */
    double x[5] = { 0.1, 0, 0, 0, 0 };
    expect_near("T for target 0.2 + 1e-6|zh:目标为 0.2 + 1e-6 时的 T", call(x, 5, 0.2 + 1e-6), reference(x, 5, 0.2 + 1e-6));
}

CHECK(one_score_returns_minus_one)
{
    /* n = 1: no target satisfies 1/n < target < 1 */
    double x[1] = { 7 };
    expect_near_tol("return value for n = 1|zh:n = 1 时的返回值", call(x, 1, 0.5), -1, 0, 0);
}

CHECK(many_random_scores)
{
    enum { N = 200 };
    double *x = grade_doubles(N);
    grade_random(x, N, 4242, -3, 3);
    expect_near("T for target 0.5|zh:目标为 0.5 时的 T", call(x, N, 0.5), reference(x, N, 0.5));
}
/* END HIDDEN */
