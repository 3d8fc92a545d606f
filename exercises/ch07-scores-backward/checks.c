/* Checks of Exercise 7.4.  Expected values by hand, or from the sum
   kappa sum_j dx_j k_j written out here in long double, or from central
   differences of L = sum_j dx_j kappa <q, k_j>. */
#include "grade.h"
#include "scores_backward.h"

static void reference(double *dq, const double *dx, const double *k, int s_k, int d_k,
                      double kappa)
{
    for (int c = 0; c < d_k; c++) {
        long double s = 0;
        for (int j = 0; j < s_k; j++)
            s += (long double)dx[j] * k[j * d_k + c];
        dq[c] = (double)(kappa * s);
    }
}

static void compare(int s_k, int d_k, double kappa, unsigned long seed)
{
    double dx[512], k[512 * 8], want[8];
    grade_random(dx, s_k, seed, -1, 1);
    grade_random(k, (size_t)s_k * d_k, seed + 1, -2, 2);
    double *ddx = grade_copy(dx, s_k), *kk = grade_copy(k, (size_t)s_k * d_k);
    double *dq = grade_doubles(d_k);
    scores_backward_query(dq, ddx, kk, s_k, d_k, kappa);
    GRADE_REFERENCE(reference(want, dx, k, s_k, d_k, kappa));
    expect_doubles("dq", dq, want, d_k);
    expect_same("dx", ddx, dx, s_k);
    expect_same("k", kk, k, (size_t)s_k * d_k);
}

CHECK(two_keys_by_hand)
{
    /* k_1 = (1, 2), k_2 = (3, -1), dx = (0.5, 2), kappa = 0.5:
       dq = 0.5 (0.5 (1, 2) + 2 (3, -1)) = 0.5 (6.5, -1) = (3.25, -0.5) */
    double dx[2] = { 0.5, 2 }, k[4] = { 1, 2, 3, -1 }, want[2] = { 3.25, -0.5 };
    double *dq = grade_doubles(2);
    scores_backward_query(dq, grade_copy(dx, 2), grade_copy(k, 4), 2, 2, 0.5);
    expect_doubles("dq", dq, want, 2);
}

CHECK(overwrites_dq)
{
    /* dq holds garbage (NaN) on entry: it is written, not added to */
    compare(3, 4, 1.0, 10);
}

CHECK(random_small)
{
    compare(6, 3, 0.57735026918962584, 20);
}

CHECK(matches_finite_differences)
{
    /* L(q) = sum_j dx_j kappa <q, k_j> is linear in q: the central difference is exact
       up to rounding */
    double q[3] = { 0.1, -0.2, 0.3 }, dx[4], k[12];
    grade_random(dx, 4, 30, -1, 1);
    grade_random(k, 12, 31, -1, 1);
    double *dq = grade_doubles(3);
    scores_backward_query(dq, grade_copy(dx, 4), grade_copy(k, 12), 4, 3, 0.8);
    for (int c = 0; c < 3; c++) {
        double l[2] = { 0, 0 };
        GRADE_REFERENCE({
            for (int s = 0; s < 2; s++) {
                double qq[3] = { q[0], q[1], q[2] };
                qq[c] += s ? -1e-3 : 1e-3;
                for (int j = 0; j < 4; j++) {
                    const double *kj = k + 3 * j;
                    l[s] += dx[j] * 0.8 * (qq[0] * kj[0] + qq[1] * kj[1] + qq[2] * kj[2]);
                }
            }
        });
        expect_near_tol("dq (against central differences)|zh:dq（与中心差分对照）", dq[c], (l[0] - l[1]) / 2e-3, 1e-10, 1e-9);
    }
}

/* BEGIN HIDDEN */
CHECK(one_key)
{
    compare(1, 5, 2.0, 40);
}

CHECK(long_sequence)
{
    compare(500, 8, 0.125, 50);
}

CHECK(kappa_zero_gives_zero)
{
    double dx[3] = { 1, 2, 3 }, k[6] = { 1, 1, 1, 1, 1, 1 }, zero[2] = { 0, 0 };
    double *dq = grade_doubles(2);
    scores_backward_query(dq, grade_copy(dx, 3), grade_copy(k, 6), 3, 2, 0.0);
    expect_doubles("dq for kappa = 0|zh:kappa = 0 时的 dq", dq, zero, 2);
}
/* END HIDDEN */
