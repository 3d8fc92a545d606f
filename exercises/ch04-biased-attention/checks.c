/* Checks of Exercise 4.4.  The reference is Softmax(kappa QK^T + B) V
   written out here in long double over the unmasked keys (zero for a fully
   masked row); one case by hand. */
#include "grade.h"
#include "biased_attention.h"
#include <math.h>

static void reference(double *out, double *w, const double *q, const double *k, const double *v,
                      const double *bias, int s_q, int s_k, int d_k, int d_v, double kappa)
{
    for (int i = 0; i < s_q; i++) {
        long double s[256], max = -INFINITY, z = 0;
        for (int j = 0; j < s_k; j++) {
            s[j] = 0;
            for (int c = 0; c < d_k; c++)
                s[j] += (long double)q[i * d_k + c] * k[j * d_k + c];
            s[j] = kappa * s[j] + bias[i * s_k + j];
            if (bias[i * s_k + j] != -INFINITY && s[j] > max)
                max = s[j];
        }
        for (int j = 0; j < s_k; j++)
            if (bias[i * s_k + j] != -INFINITY)
                z += expl(s[j] - max);
        for (int j = 0; j < s_k; j++)
            w[i * s_k + j] = bias[i * s_k + j] == -INFINITY ? 0 : (double)(expl(s[j] - max) / z);
        for (int c = 0; c < d_v; c++) {
            long double acc = 0;
            for (int j = 0; j < s_k; j++)
                if (bias[i * s_k + j] != -INFINITY)
                    acc += expl(s[j] - max) / z * v[j * d_v + c];
            out[i * d_v + c] = (double)acc;
        }
    }
}

static void compare(int s_q, int s_k, int d_k, int d_v, double kappa, unsigned long seed,
                    const double *bias)
{
    size_t nq = (size_t)s_q * d_k, nk = (size_t)s_k * d_k, nv = (size_t)s_k * d_v;
    double *q = grade_doubles(nq), *k = grade_doubles(nk), *v = grade_doubles(nv);
    grade_random(q, nq, seed, -1, 1);
    grade_random(k, nk, seed + 1, -1, 1);
    grade_random(v, nv, seed + 2, -2, 2);
    double *want = grade_doubles((size_t)s_q * d_v), *want_w = grade_doubles((size_t)s_q * s_k);
    double *out = grade_doubles((size_t)s_q * d_v), *w = grade_doubles((size_t)s_q * s_k);
    double *bb = grade_copy(bias, (size_t)s_q * s_k);
    attention_biased(out, w, q, k, v, bb, s_q, s_k, d_k, d_v, kappa);
    GRADE_REFERENCE(reference(want, want_w, q, k, v, bias, s_q, s_k, d_k, d_v, kappa));
    for (int i = 0; i < s_q * s_k; i++)
        expect_true(!isnan(w[i]), "a weight is NaN", "某个权重为 NaN");
    for (int i = 0; i < s_q * d_v; i++)
        expect_true(!isnan(out[i]), "an output is NaN", "某个输出为 NaN");
    expect_matrix("w", w, want_w, s_q, s_k);
    expect_matrix("out", out, want, s_q, d_v);
    expect_same("bias", bb, bias, (size_t)s_q * s_k);
}

CHECK(bias_by_hand)
{
    /* q = k = 0: every score is its bias.  Biases (0, log 3) give weights (1/4, 3/4);
       with values 4 and 8 the output is 1 + 6 = 7 */
    double q[1] = { 0 }, k[2] = { 0, 0 }, v[2] = { 4, 8 }, bias[2] = { 0, log(3.0) };
    double want_w[2] = { 0.25, 0.75 };
    double *out = grade_doubles(1), *w = grade_doubles(2);
    attention_biased(out, w, grade_copy(q, 1), grade_copy(k, 2), grade_copy(v, 2),
                     grade_copy(bias, 2), 1, 2, 1, 1, 1.0);
    expect_doubles("w", w, want_w, 2);
    expect_near("out", out[0], 7.0);
}

CHECK(zero_bias_is_plain_attention)
{
    double bias[3 * 4] = { 0 };
    compare(3, 4, 2, 3, 0.7, 10, bias);
}

CHECK(minus_infinity_masks)
{
    /* a causal mask written as a bias */
    double bias[4 * 4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            bias[i * 4 + j] = j <= i ? 0 : -INFINITY;
    compare(4, 4, 3, 2, 0.5, 20, bias);
}

CHECK(fully_masked_row_is_zero)
{
    /* row 1 masks every key: zero weights, zero output, no NaN */
    double bias[3 * 3] = { 0, 0.5, -1, -INFINITY, -INFINITY, -INFINITY, -INFINITY, 2, 0 };
    compare(3, 3, 2, 2, 1.0, 30, bias);
}

/* BEGIN HIDDEN */
CHECK(alibi_distance_penalty)
{
    /* ALiBi: bias -m |i - j|, m = 0.5 */
    enum { S = 12 };
    double bias[S * S];
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++)
            bias[i * S + j] = -0.5 * (i > j ? i - j : j - i);
    compare(S, S, 4, 4, 0.5, 40, bias);
}

CHECK(large_scores_with_mask)
{
    /* kappa 200 makes scores of a few hundred: exp overflows unless the row's
       maximum over the unmasked keys is subtracted */
    double bias[2 * 5] = { 0, -INFINITY, 0, 0, -INFINITY, -INFINITY, 0, 0, -INFINITY, 0 };
    compare(2, 5, 3, 2, 200.0, 50, bias);
}

CHECK(only_one_key_left)
{
    double bias[3 * 4] = { -INFINITY, -INFINITY, 5, -INFINITY,
                           0, -INFINITY, -INFINITY, -INFINITY,
                           -INFINITY, -INFINITY, -INFINITY, -1e300 };
    compare(3, 4, 2, 3, 1.0, 60, bias);
}
/* END HIDDEN */
