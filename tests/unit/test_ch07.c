/* Chapter 7's kernels: sample_moments, saturation_entropy, softmax_jacobian
   and saturation_norm2, checked against values worked by hand and against
   Chapter 2's softmax_backward. */
#include <criterion/criterion.h>
#include <math.h>
#include "attention.h"
#include "core.h"
#include "saturation.h"

Test(ch07_moments, known_data)
{
    /* 1, 2, 3, 4: mean 2.5, s^2 = 5/3, m4 = (2*1.5^4 + 2*0.5^4)/4 = 2.5625 */
    const double x[4] = { 1, 2, 3, 4 };
    Moments m;
    sample_moments(&m, x, 4);
    cr_assert_float_eq(m.mean, 2.5, 1e-15);
    cr_assert_float_eq(m.var, 5.0 / 3.0, 1e-15);
    cr_assert_float_eq(m.m4, 2.5625, 1e-15);
    double se2 = (2.5625 - (25.0 / 9.0) * (1.0 / 3.0)) / 4.0;
    cr_assert_float_eq(m.se_var, sqrt(se2), 1e-15);
}

Test(ch07_moments, shift_does_not_change_the_spread)
{
    double x[5] = { 1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4, 1e9 + 5 };
    Moments m;
    sample_moments(&m, x, 5);
    cr_assert_float_eq(m.var, 2.5, 1e-6, "two passes keep the digits: %g", m.var);
}

Test(ch07_entropy, uniform_one_hot_and_zeros)
{
    double u[7], e[4] = { 0, 1, 0, 0 }, h[2] = { 0.5, 0.5 };
    for (int j = 0; j < 7; j++)
        u[j] = 1.0 / 7;
    cr_assert_float_eq(saturation_entropy(u, 7), log(7.0), 1e-14);
    cr_assert_eq(saturation_entropy(e, 4), 0.0);
    cr_assert_float_eq(saturation_entropy(h, 2), log(2.0), 1e-15);
}

Test(ch07_jacobian, symmetric_rows_sum_to_zero_and_match_softmax_backward)
{
    enum { N = 6 };
    double x[N] = { 0.3, -1.2, 2.0, 0.0, 0.7, -0.4 }, p[N], jac[N * N];
    softmax(p, x, N);
    softmax_jacobian(jac, p, N);
    for (int j = 0; j < N; j++) {
        double row = 0.0;
        for (int m = 0; m < N; m++) {
            row += jac[j * N + m];
            cr_assert_float_eq(jac[j * N + m], jac[m * N + j], 1e-17);
        }
        cr_assert(fabs(row) < 1e-16, "row %d sums to %g", j, row);
    }
    for (int m = 0; m < N; m++) {           /* J e_m is column m */
        double e[N] = { 0 }, dx[N];
        e[m] = 1.0;
        softmax_backward(dx, p, e, N);
        for (int j = 0; j < N; j++)
            cr_assert_float_eq(dx[j], jac[j * N + m], 1e-16);
    }
}

Test(ch07_jacobian, two_keys_at_one_half)
{
    double p[2] = { 0.5, 0.5 }, jac[4];
    softmax_jacobian(jac, p, 2);
    cr_assert_float_eq(saturation_norm2(jac, 4), 0.5, 1e-15);   /* entries +-1/4 */
}

Test(ch07_jacobian, one_hot_has_a_zero_jacobian)
{
    double p[3] = { 0, 1, 0 }, jac[9];
    softmax_jacobian(jac, p, 3);
    cr_assert_eq(saturation_norm2(jac, 9), 0.0);
}
