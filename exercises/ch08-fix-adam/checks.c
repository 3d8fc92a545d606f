/* Checks of Exercise 8.5 (find and fix: Adam).  The expected values follow
   the recurrences written out here in long double; or are worked out by
   hand. */
#include "grade.h"
#include "adam_step.h"
#include <math.h>

enum { MAXN = 256 };

/* STEPS updates from zero moments, the gradient of update t being
   g + (t - 1) * drift; compare theta, m and v afterwards */
static void run(size_t n, int steps, double lr, unsigned long seed, double drift)
{
    double theta0[MAXN], g[MAXN];
    long double th[MAXN], mm[MAXN] = { 0 }, vv[MAXN] = { 0 };
    grade_random(theta0, n, seed, -1, 1);
    grade_random(g, n, seed + 1, -2, 2);
    double *theta = grade_copy(theta0, n), *m = grade_doubles(n), *v = grade_doubles(n);
    for (size_t i = 0; i < n; i++)
        m[i] = v[i] = 0;
    GRADE_REFERENCE({
        for (size_t i = 0; i < n; i++)
            th[i] = theta0[i];
    });
    double *gt = grade_doubles(n);
    for (int t = 1; t <= steps; t++) {
        for (size_t i = 0; i < n; i++)
            gt[i] = g[i] + (t - 1) * drift;
        adam_step(theta, m, v, gt, n, t, lr);
        GRADE_REFERENCE({
            for (size_t i = 0; i < n; i++) {
                double gi = g[i] + (t - 1) * drift;
                mm[i] = 0.9L * mm[i] + 0.1L * gi;
                vv[i] = 0.98L * vv[i] + 0.02L * (long double)gi * gi;
                long double mhat = mm[i] / (1 - powl(0.9L, t));
                long double vhat = vv[i] / (1 - powl(0.98L, t));
                th[i] -= lr * mhat / (sqrtl(vhat) + 1e-9L);
            }
        });
    }
    double want[MAXN];
    GRADE_REFERENCE({
        for (size_t i = 0; i < n; i++)
            want[i] = (double)th[i];
    });
    expect_doubles("theta", theta, want, n);
    GRADE_REFERENCE({
        for (size_t i = 0; i < n; i++)
            want[i] = (double)mm[i];
    });
    expect_doubles("m", m, want, n);
    GRADE_REFERENCE({
        for (size_t i = 0; i < n; i++)
            want[i] = (double)vv[i];
    });
    expect_doubles("v", v, want, n);
}

CHECK(zero_gradient_changes_nothing)
{
    double theta0[3] = { 0.5, -1, 2 }, zero[3] = { 0, 0, 0 };
    double *theta = grade_copy(theta0, 3), *m = grade_copy(zero, 3), *v = grade_copy(zero, 3);
    adam_step(theta, m, v, grade_copy(zero, 3), 3, 1, 0.01);
    expect_doubles("theta", theta, theta0, 3);
    expect_doubles("m", m, zero, 3);
}

CHECK(first_step_moves_by_lr)
{
    /* t = 1 from zero moments: mhat = g, vhat = g^2, so theta moves by
       lr g / (|g| + eps), that is lr against the sign of g */
    double theta0[4] = { 1, 1, 1, 1 }, g[4] = { 3, -0.5, 1e-3, -200 }, zero[4] = { 0 };
    double *theta = grade_copy(theta0, 4), *m = grade_copy(zero, 4), *v = grade_copy(zero, 4);
    adam_step(theta, m, v, grade_copy(g, 4), 4, 1, 0.01);
    double want[4];
    GRADE_REFERENCE({
        for (int i = 0; i < 4; i++)
            want[i] = 1 - 0.01 * g[i] / (fabs(g[i]) + 1e-9);
    });
    expect_doubles("theta", theta, want, 4);
}

CHECK(the_moments)
{
    /* m and v after one step from m = 1, v = 4 with g = 2:
       m = 0.9 + 0.2 = 1.1, v = 3.92 + 0.08 = 4.0 */
    double theta0[1] = { 0 }, m0[1] = { 1 }, v0[1] = { 4 }, g[1] = { 2 };
    double *theta = grade_copy(theta0, 1), *m = grade_copy(m0, 1), *v = grade_copy(v0, 1);
    adam_step(theta, m, v, grade_copy(g, 1), 1, 100000, 0.0);
    expect_near("m", m[0], 1.1);
    expect_near("v", v[0], 4.0);
}

CHECK(three_steps)
{
    run(5, 3, 0.01, 10, 0.1);
}

/* BEGIN HIDDEN */
CHECK(many_parameters_twenty_steps)
{
    run(200, 20, 0.001, 20, -0.05);
}

CHECK(late_step_matches)
{
    /* step 10^5: both corrections are 1 to double precision */
    double theta0[2] = { 0.25, -0.25 }, m0[2] = { 0.1, -0.2 }, v0[2] = { 0.04, 0.09 };
    double g[2] = { 0.3, 0.1 };
    double *theta = grade_copy(theta0, 2), *m = grade_copy(m0, 2), *v = grade_copy(v0, 2);
    adam_step(theta, m, v, grade_copy(g, 2), 2, 100000, 0.1);
    double want[2];
    GRADE_REFERENCE({
        for (int i = 0; i < 2; i++) {
            double mi = 0.9 * m0[i] + 0.1 * g[i], vi = 0.98 * v0[i] + 0.02 * g[i] * g[i];
            want[i] = theta0[i] - 0.1 * mi / (sqrt(vi) + 1e-9);
        }
    });
    expect_doubles("theta", theta, want, 2);
}
/* END HIDDEN */
