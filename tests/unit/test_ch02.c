/* Unit tests of Chapter 2's kernels: values worked by hand, finite
   differences for the softmax's backward pass, and equation (1) against
   equation (2). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "attention.h"
#include "core.h"

Test(softmax, hand_values)
{
    /* e^0 : e^(ln 2) : e^(ln 3) = 1 : 2 : 3 */
    double x[3] = { 0.0, log(2.0), log(3.0) }, p[3];
    softmax(p, x, 3);
    cr_expect(fabs(p[0] - 1.0 / 6) < 1e-15 && fabs(p[1] - 2.0 / 6) < 1e-15
              && fabs(p[2] - 3.0 / 6) < 1e-15, "p = %g %g %g", p[0], p[1], p[2]);
}

Test(softmax, one_entry_is_one)
{
    double x = -12345.0, p;
    softmax(&p, &x, 1);
    cr_expect(p == 1.0, "p = %g", p);
}

Test(softmax, in_place_equals_out_of_place)
{
    double x[5] = { 0.3, -2.0, 7.5, 7.5, 1.0 }, p[5];
    softmax(p, x, 5);
    softmax(x, x, 5);
    cr_expect(memcmp(p, x, sizeof p) == 0);
}

Test(softmax, extreme_scores_are_finite)
{
    double x[4] = { 1e4, -1e4, 0.0, 1e4 }, p[4];
    softmax(p, x, 4);
    cr_expect(p[0] == 0.5 && p[1] == 0.0 && p[2] == 0.0 && p[3] == 0.5,
              "p = %g %g %g %g", p[0], p[1], p[2], p[3]);
    double y[3] = { -1e4, -1e4 - 1.0, -1e4 - 2.0 }, q[3];
    softmax(q, y, 3);
    double z = 1 + exp(-1.0) + exp(-2.0);
    cr_expect(fabs(q[0] - 1 / z) < 1e-15 && fabs(q[2] - exp(-2.0) / z) < 1e-15);
}

Test(softmax, shift_invariant)
{
    double x[3] = { 1, 2, 3 }, y[3] = { 1001, 1002, 1003 }, p[3], q[3];
    softmax(p, x, 3);
    softmax(q, y, 3);
    cr_expect(max_abs_diff(p, q, 3) < 1e-15);
}

/* L(x) = <g, softmax(x)>: dL/dx by central differences against the backward pass. */
Test(softmax_backward, finite_differences)
{
    enum { N = 7 };
    Rng rng;
    rng_seed(&rng, 11);
    for (int trial = 0; trial < 20; trial++) {
        double x[N], g[N], p[N], dx[N], xp[N], pp[N], pm[N];
        rng_fill_normal(&rng, x, N, 0.0, 1.0 + trial);
        rng_fill_normal(&rng, g, N, 0.0, 1.0);
        softmax(p, x, N);
        softmax_backward(dx, p, g, N);
        for (int m = 0; m < N; m++) {
            const double h = 1e-6;
            double lp = 0.0, lm = 0.0;
            memcpy(xp, x, sizeof x);
            xp[m] = x[m] + h;
            softmax(pp, xp, N);
            xp[m] = x[m] - h;
            softmax(pm, xp, N);
            for (int j = 0; j < N; j++) {
                lp += g[j] * pp[j];
                lm += g[j] * pm[j];
            }
            double numeric = (lp - lm) / (2 * h);
            cr_expect(fabs(numeric - dx[m]) < 1e-7, "trial %d, m %d: %g vs %g",
                      trial, m, numeric, dx[m]);
        }
    }
}

Test(softmax_backward, may_alias_dp)
{
    double x[4] = { 0.1, -0.5, 2.0, 0.0 }, p[4], dp[4] = { 1, -2, 0.5, 3 }, dx[4];
    softmax(p, x, 4);
    softmax_backward(dx, p, dp, 4);
    softmax_backward(dp, p, dp, 4);
    cr_expect(memcmp(dx, dp, sizeof dx) == 0);
    double sum = 0.0;       /* J has 1^T J = 0: the gradient sums to zero */
    for (int j = 0; j < 4; j++)
        sum += dx[j];
    cr_expect(fabs(sum) < 1e-15, "sum %g", sum);
}

Test(attention_query, hand_values)
{
    /* q = (1, 0), keys (1, 0) and (0, 1), values 1 and 3, kappa = 1:
       w = (e, 1) / (e + 1), out = (e + 3) / (e + 1) */
    double q[2] = { 1, 0 }, k[4] = { 1, 0, 0, 1 }, v[2] = { 1, 3 }, w[2], out;
    attention_query(&out, w, q, k, v, 2, 2, 1, 1.0);
    double e = exp(1.0);
    cr_expect(fabs(w[0] - e / (e + 1)) < 1e-15 && fabs(w[1] - 1 / (e + 1)) < 1e-15);
    cr_expect(fabs(out - (e + 3) / (e + 1)) < 1e-15, "out = %.17g", out);
}

Test(attention, equals_attention_query_on_random_shapes)
{
    static const int shapes[][4] = { { 1, 1, 1, 1 }, { 3, 5, 4, 2 }, { 9, 2, 7, 3 },
                                     { 6, 13, 2, 9 } };
    Rng rng;
    rng_seed(&rng, 12);
    for (size_t n = 0; n < sizeof shapes / sizeof shapes[0]; n++) {
        int sq = shapes[n][0], sk = shapes[n][1], dk = shapes[n][2], dv = shapes[n][3];
        double q[9 * 7], k[13 * 7], v[13 * 9], w[9 * 13], out[9 * 9], w_i[13], out_i[9];
        rng_fill_normal(&rng, q, (size_t)sq * dk, 0.0, 2.0);
        rng_fill_normal(&rng, k, (size_t)sk * dk, 0.0, 2.0);
        rng_fill_normal(&rng, v, (size_t)sk * dv, 0.0, 1.0);
        attention(out, w, q, k, v, sq, sk, dk, dv, 0.7);
        for (int i = 0; i < sq; i++) {
            attention_query(out_i, w_i, q + i * dk, k, v, sk, dk, dv, 0.7);
            cr_expect(max_abs_diff(out + i * dv, out_i, dv) < 1e-14);
            cr_expect(max_abs_diff(w + i * sk, w_i, sk) < 1e-14);
            double sum = 0.0;
            for (int j = 0; j < sk; j++)
                sum += w_i[j];
            cr_expect(fabs(sum - 1.0) < 1e-14);
        }
    }
}

/* Permuting the keys and values together leaves the output unchanged. */
Test(attention, key_order_does_not_matter)
{
    enum { SQ = 3, SK = 5, DK = 4, DV = 2 };
    static const int perm[SK] = { 3, 0, 4, 1, 2 };
    double q[SQ * DK], k[SK * DK], v[SK * DV], kp[SK * DK], vp[SK * DV];
    double w[SQ * SK], out[SQ * DV], outp[SQ * DV];
    Rng rng;
    rng_seed(&rng, 13);
    rng_fill_normal(&rng, q, SQ * DK, 0.0, 1.0);
    rng_fill_normal(&rng, k, SK * DK, 0.0, 1.0);
    rng_fill_normal(&rng, v, SK * DV, 0.0, 1.0);
    for (int j = 0; j < SK; j++) {
        memcpy(kp + j * DK, k + perm[j] * DK, sizeof(double[DK]));
        memcpy(vp + j * DV, v + perm[j] * DV, sizeof(double[DV]));
    }
    attention(out, w, q, k, v, SQ, SK, DK, DV, 0.5);
    attention(outp, w, q, kp, vp, SQ, SK, DK, DV, 0.5);
    cr_expect(max_abs_diff(out, outp, SQ * DV) < 1e-14);
}

Test(additive_scores, hand_values)
{
    /* d_k = d_a = 1: U_q = 1, U_k = 2, u = 3; e_ij = 3 tanh(q_i + 2 k_j) */
    double q[2] = { 0.5, -1.0 }, k[2] = { 0.25, -1.0 }, u_q = 1, u_k = 2, u = 3;
    double e[4], hq[2], hk[2];
    additive_scores(e, hq, hk, q, k, &u_q, &u_k, &u, 2, 2, 1, 1);
    double want[4] = { 3 * tanh(1.0), 3 * tanh(-1.5), 3 * tanh(-0.5), 3 * tanh(-3.0) };
    cr_expect(max_abs_diff(e, want, 4) < 1e-15, "e = %g %g %g %g", e[0], e[1], e[2], e[3]);
}
