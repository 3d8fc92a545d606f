/* Unit tests of Chapter 5's kernels, with Criterion.  Backward passes are
 * checked against central differences of the forward passes; forward passes
 * against values worked by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"
#include "ffn.h"
#include "layernorm.h"
#include "residual.h"

/* L = sum_i g_i y_i: the loss whose gradient dL/dy is g. */
static double dot(const double *a, const double *b, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

Test(ffn, forward_by_hand)
{
    /* d_model = 2, d_ff = 2: h = max(0, x W1 + b1), y = h W2 + b2 */
    double w1[4] = { 1, -1, 2, 1 }, b1[2] = { 0, -10 }, w2[4] = { 1, 2, 3, 4 };
    double b2[2] = { 0.5, -0.5 }, x[2] = { 1, 2 }, h[2], y[2];
    Ffn f = { 2, 2, w1, b1, w2, b2 };
    ffn_forward(&f, y, h, x, 1);
    /* x W1 + b1 = (1 + 4, -1 + 2 - 10) = (5, -9) -> h = (5, 0) -> y = (5.5, 9.5) */
    cr_assert_float_eq(h[0], 5.0, 1e-15);
    cr_assert_float_eq(h[1], 0.0, 0.0);
    cr_assert_float_eq(y[0], 5.5, 1e-15);
    cr_assert_float_eq(y[1], 9.5, 1e-15);
    cr_assert_eq(ffn_param_count(512, 2048), 2099712);
}

Test(ffn, backward_matches_central_differences)
{
    enum { n = 4, d = 5, dff = 7 };
    Rng rng;
    rng_seed(&rng, 11);
    Ffn f = ffn_new(d, dff), g = ffn_new(d, dff);
    ffn_init(&f, &rng, 0.3);
    double x[n * d], dy[n * d], y[n * d], h[n * dff], dh[n * dff], dx[n * d] = { 0 };
    rng_fill_normal(&rng, x, n * d, 0.0, 1.0);
    rng_fill_normal(&rng, dy, n * d, 0.0, 1.0);
    ffn_forward(&f, y, h, x, n);
    ffn_backward(&f, &g, dx, dh, dy, x, h, n);
    double *params[] = { x, f.w1, f.b1, f.w2, f.b2 }, *grads[] = { dx, g.w1, g.b1, g.w2, g.b2 };
    size_t sizes[] = { n * d, d * dff, dff, dff * d, d };
    const double step = 1e-6;
    for (int p = 0; p < 5; p++)
        for (size_t i = 0; i < sizes[p]; i++) {
            double keep = params[p][i], lp, lm;
            params[p][i] = keep + step;
            ffn_forward(&f, y, h, x, n), lp = dot(dy, y, n * d);
            params[p][i] = keep - step;
            ffn_forward(&f, y, h, x, n), lm = dot(dy, y, n * d);
            params[p][i] = keep;
            cr_assert_float_eq(grads[p][i], (lp - lm) / (2 * step), 1e-6,
                               "parameter group %d, entry %zu", p, i);
        }
    ffn_free(&f), ffn_free(&g);
}

Test(layernorm, forward_by_hand)
{
    /* row (1, 3): mu = 2, var = 1, so y = (-1, 1) / sqrt(1 + eps) * gamma + beta */
    double x[2] = { 1, 3 }, y[2], gamma[2] = { 2, 3 }, beta[2] = { 0.5, -0.5 }, mu, r;
    LayerNorm ln = { 2, gamma, beta, 1e-5 };
    layernorm_forward(&ln, y, &mu, &r, x, 1);
    cr_assert_float_eq(mu, 2.0, 1e-15);
    cr_assert_float_eq(r, 1.0 / sqrt(1.0 + 1e-5), 1e-15);
    cr_assert_float_eq(y[0], -2.0 / sqrt(1.0 + 1e-5) + 0.5, 1e-14);
    cr_assert_float_eq(y[1], 3.0 / sqrt(1.0 + 1e-5) - 0.5, 1e-14);
}

Test(layernorm, backward_matches_central_differences)
{
    enum { n = 3, d = 6 };
    Rng rng;
    rng_seed(&rng, 12);
    double x[n * d], dy[n * d], y[n * d], mean[n], rstd[n], dx[n * d] = { 0 };
    double gamma[d], beta[d], dgamma[d] = { 0 }, dbeta[d] = { 0 };
    rng_fill_normal(&rng, x, n * d, 1.0, 2.0);
    rng_fill_normal(&rng, dy, n * d, 0.0, 1.0);
    rng_fill_normal(&rng, gamma, d, 1.0, 0.5);
    rng_fill_normal(&rng, beta, d, 0.0, 0.5);
    LayerNorm ln = { d, gamma, beta, 1e-5 }, g = { d, dgamma, dbeta, 0.0 };
    layernorm_forward(&ln, y, mean, rstd, x, n);
    layernorm_backward(&ln, &g, dx, dy, x, mean, rstd, n);
    double *params[] = { x, gamma, beta }, *grads[] = { dx, dgamma, dbeta };
    size_t sizes[] = { n * d, d, d };
    const double step = 1e-6;
    for (int p = 0; p < 3; p++)
        for (size_t i = 0; i < sizes[p]; i++) {
            double keep = params[p][i], lp, lm;
            params[p][i] = keep + step;
            layernorm_forward(&ln, y, NULL, NULL, x, n), lp = dot(dy, y, n * d);
            params[p][i] = keep - step;
            layernorm_forward(&ln, y, NULL, NULL, x, n), lm = dot(dy, y, n * d);
            params[p][i] = keep;
            cr_assert_float_eq(grads[p][i], (lp - lm) / (2 * step), 1e-6,
                               "parameter group %d, entry %zu", p, i);
        }
}

Test(layernorm, may_work_in_place)
{
    double x[6] = { 1, 2, 3, -4, 0, 4 }, y[6];
    LayerNorm ln = { 3, NULL, NULL, LAYERNORM_EPS };
    layernorm_forward(&ln, y, NULL, NULL, x, 2);
    layernorm_forward(&ln, x, NULL, NULL, x, 2);
    for (int i = 0; i < 6; i++)
        cr_assert_float_eq(x[i], y[i], 0.0, "entry %d", i);
}

/* A sublayer that doubles its input: F(x) = 2x. */
static void doubler(double *out, const double *in, int n, void *ctx)
{
    int d = *(const int *)ctx;
    for (int i = 0; i < n * d; i++)
        out[i] = 2.0 * in[i];
}

Test(residual, post_and_pre_norm_by_hand)
{
    /* x = (1, 3): post-norm LN(x + 2x) = LN((3, 9)) = (-3, 3)/sqrt(9 + eps);
       pre-norm x + 2 LN(x) = (1 - 2c, 3 + 2c) with c = 1/sqrt(1 + eps). */
    int d = 2;
    double x[2] = { 1, 3 }, y[2], work[2], c = 1.0 / sqrt(1.0 + 1e-5);
    LayerNorm ln = { 2, NULL, NULL, 1e-5 };
    residual_sublayer(y, x, 1, &ln, POST_NORM, doubler, &d, NULL);
    cr_assert_float_eq(y[0], -3.0 / sqrt(9.0 + 1e-5), 1e-14);
    cr_assert_float_eq(y[1], 3.0 / sqrt(9.0 + 1e-5), 1e-14);
    residual_sublayer(y, x, 1, &ln, PRE_NORM, doubler, &d, work);
    cr_assert_float_eq(y[0], 1.0 - 2.0 * c, 1e-14);
    cr_assert_float_eq(y[1], 3.0 + 2.0 * c, 1e-14);
}
