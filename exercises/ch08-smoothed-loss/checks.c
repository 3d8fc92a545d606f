/* Checks of Exercise 8.1.  Expected values by hand, or from the definition
   computed here in long double (a direct sum, not the student's formula). */
#include "grade.h"
#include "smoothed.h"
#include <math.h>

/* L and dL/dz from the definition, in long double. */
static double reference(const double *z, int V, int y, double eps, double *dz)
{
    long double m = z[0], sum = 0, loss = 0;
    for (int k = 1; k < V; k++)
        if (z[k] > m)
            m = z[k];
    for (int k = 0; k < V; k++)
        sum += expl((long double)z[k] - m);
    for (int k = 0; k < V; k++) {
        long double p = expl((long double)z[k] - m) / sum;
        long double q = (long double)eps / V + (k == y ? 1 - (long double)eps : 0);
        loss -= q * logl(p);
        dz[k] = (double)(p - q);
    }
    return (double)loss;
}

static void compare(int V, int y, double eps, unsigned long seed, double spread)
{
    double *z = grade_doubles(V), *dz = grade_doubles(V), *want = grade_doubles(V);
    grade_random(z, V, seed, -spread, spread);
    double *zz = grade_copy(z, V);
    double l = smoothed_loss(zz, V, y, eps, dz);
    expect_near("L", l, reference(z, V, y, eps, want));
    expect_doubles("dz", dz, want, V);
    expect_same("z", zz, z, V);
}

CHECK(two_classes_by_hand)
{
    double z[2] = { 0, 0 }, *dz = grade_doubles(2), want[2] = { -0.5, 0.5 };
    expect_near("L", smoothed_loss(z, 2, 0, 0.0, dz), log(2.0));
    expect_doubles("dz", dz, want, 2);
}

CHECK(smoothing_spreads_eps_over_all_classes)
{
    /* z = 0 everywhere, V = 4, eps = 0.2: p = 1/4 each; q = (0.85, 0.05, 0.05, 0.05)
       for y = 0; L = -sum q log(1/4) = log 4; dz = p - q */
    double z[4] = { 0, 0, 0, 0 }, *dz = grade_doubles(4);
    double want[4] = { 0.25 - 0.85, 0.2, 0.2, 0.2 };
    expect_near("L", smoothed_loss(z, 4, 0, 0.2, dz), log(4.0));
    expect_doubles("dz", dz, want, 4);
    compare(5, 3, 0.1, 7, 2.0);
}

CHECK(gradient_is_p_minus_q)
{
    compare(6, 2, 0.0, 11, 3.0);
    compare(6, 5, 0.3, 12, 3.0);
}

CHECK(huge_logits_do_not_overflow)
{
    double z[3] = { 1000.0, 999.0, 0.0 }, *dz = grade_doubles(3), want[3];
    double l = smoothed_loss(z, 3, 1, 0.1, dz);
    expect_true(isfinite(l), "the loss is not finite for logits near 1000",
                "logits 接近 1000 时损失不是有限数");
    expect_near("L", l, reference(z, 3, 1, 0.1, want));
    expect_doubles("dz", dz, want, 3);
}

/* BEGIN HIDDEN */
CHECK(many_classes_random)
{
    compare(1000, 517, 0.1, 21, 8.0);
}

CHECK(central_differences)
{
    enum { V = 7 };
    double z[V], *dz = grade_doubles(V), scratch[V];
    grade_random(z, V, 31, -2, 2);
    double *zz = grade_copy(z, V);
    smoothed_loss(zz, V, 4, 0.1, dz);
    for (int k = 0; k < V; k++) {
        double h = 1e-5, up = 0, down = 0;
        GRADE_REFERENCE({
            double keep = z[k];
            z[k] = keep + h;
            up = reference(z, V, 4, 0.1, scratch);
            z[k] = keep - h;
            down = reference(z, V, 4, 0.1, scratch);
            z[k] = keep;
        });
        expect_near_tol("dz[k] against central differences|zh:dz[k]，与中心差分对照", dz[k], (up - down) / (2 * h),
                        1e-8, 1e-6);
    }
}
/* END HIDDEN */
