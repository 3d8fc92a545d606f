/* Unit tests of Chapter 4's masks and masked attention (code/mask.h). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "attention.h"
#include "core.h"
#include "mask.h"
#include "temp_file.h"

Test(mask, causal_square_is_lower_triangular)
{
    unsigned char m[4 * 4];
    mask_causal(m, 4, 4);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            cr_expect_eq(m[i * 4 + j], j <= i, "(%d, %d)", i, j);
}

Test(mask, causal_is_aligned_at_the_end)
{
    unsigned char m[2 * 5];
    const unsigned char want[2 * 5] = { 1, 1, 1, 1, 0, 1, 1, 1, 1, 1 };
    mask_causal(m, 2, 5);
    for (int ij = 0; ij < 10; ij++)
        cr_expect_eq(m[ij], want[ij], "entry %d", ij);
}

Test(mask, padding_and_and)
{
    const unsigned char valid[4] = { 1, 1, 1, 0 };
    unsigned char pad[3 * 4], c[3 * 4];
    mask_padding(pad, valid, 3, 4);
    mask_causal(c, 3, 4);
    mask_and(c, pad, 3, 4);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            cr_expect_eq(pad[i * 4 + j], j < 3);
            cr_expect_eq(c[i * 4 + j], j < 3 && j <= i + 1, "(%d, %d)", i, j);
        }
}

Test(mask, all_ones_is_chapter_2_attention_exactly)
{
    enum { s_q = 3, s_k = 5, d_k = 4, d_v = 2 };
    double q[s_q * d_k], k[s_k * d_k], v[s_k * d_v], o1[s_q * d_v], o2[s_q * d_v];
    double w1[s_q * s_k], w2[s_q * s_k];
    unsigned char ones[s_q * s_k];
    Rng rng;
    rng_seed(&rng, 8);
    rng_fill_normal(&rng, q, s_q * d_k, 0, 1);
    rng_fill_normal(&rng, k, s_k * d_k, 0, 1);
    rng_fill_normal(&rng, v, s_k * d_v, 0, 1);
    for (int ij = 0; ij < s_q * s_k; ij++)
        ones[ij] = 1;
    attention(o1, w1, q, k, v, s_q, s_k, d_k, d_v, 0.5);
    attention_masked(o2, w2, q, k, v, ones, s_q, s_k, d_k, d_v, 0.5);
    cr_expect_eq(max_abs_diff(o1, o2, s_q * d_v), 0.0);
    cr_expect_eq(max_abs_diff(w1, w2, s_q * s_k), 0.0);
}

Test(mask, masked_weights_are_exact_zeros_and_rows_sum_to_one)
{
    /* One query, keys with scores 0, 1000, 2: key 1 masked.  Worked by hand:
       softmax over (0, 2) = (1, e^2) / (1 + e^2). */
    double q[1] = { 1 }, k[3] = { 0, 1000, 2 }, v[3] = { 1, 100, 3 }, out[1], w[3];
    const unsigned char m[3] = { 1, 0, 1 };
    attention_masked(out, w, q, k, v, m, 1, 3, 1, 1, 1.0);
    cr_expect_eq(w[1], 0.0);
    cr_expect_lt(fabs(w[0] - 1 / (1 + exp(2))), 1e-15);
    cr_expect_lt(fabs(w[0] + w[2] - 1.0), 1e-15);
    cr_expect_lt(fabs(out[0] - (1 + 3 * exp(2)) / (1 + exp(2))), 1e-14);
}

Test(mask, a_fully_masked_row_is_zero_not_nan)
{
    double q[2 * 1] = { 1, -1 }, k[2] = { 3, 4 }, v[2 * 2] = { 1, 2, 3, 4 };
    double out[2 * 2], w[2 * 2];
    const unsigned char m[2 * 2] = { 0, 0, 1, 0 };
    attention_masked(out, w, q, k, v, m, 2, 2, 1, 2, 1.0);
    for (int c = 0; c < 2; c++) {
        cr_expect_eq(w[c], 0.0, "row 0 weight %d", c);
        cr_expect_eq(out[c], 0.0, "row 0 output %d", c);
    }
    cr_expect_eq(w[2], 1.0);
    cr_expect_eq(out[2], 1.0);
    cr_expect_eq(out[3], 2.0);
}

/* L = sum(g .* out) for the masked attention of (q, k, v); for finite differences. */
static double masked_loss(const double *q, const double *k, const double *v,
                          const unsigned char *m, const double *g)
{
    double out[3 * 2], w[3 * 4], L = 0.0;
    attention_masked(out, w, q, k, v, m, 3, 4, 2, 2, 0.7);
    for (int c = 0; c < 6; c++)
        L += g[c] * out[c];
    return L;
}

Test(mask, backward_matches_finite_differences)
{
    /* s_q = 3, s_k = 4, d_k = d_v = 2; row 1 fully masked, key 3 never seen. */
    double q[6], k[8], v[8], g[6], dq[6] = { 0 }, dk[8] = { 0 }, dv[8] = { 0 };
    double out[6], w[12], dw[12];
    const unsigned char m[12] = { 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0 };
    Rng rng;
    rng_seed(&rng, 21);
    rng_fill_normal(&rng, q, 6, 0, 1), rng_fill_normal(&rng, k, 8, 0, 1);
    rng_fill_normal(&rng, v, 8, 0, 1), rng_fill_normal(&rng, g, 6, 0, 1);
    attention_masked(out, w, q, k, v, m, 3, 4, 2, 2, 0.7);
    attention_masked_backward(dq, dk, dv, dw, g, w, q, k, v, 3, 4, 2, 2, 0.7);
    double *x[3] = { q, k, v }, *dx[3] = { dq, dk, dv };
    int n[3] = { 6, 8, 8 };
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < n[a]; c++) {
            double keep = x[a][c], h = 1e-6;
            x[a][c] = keep + h;
            double up = masked_loss(q, k, v, m, g);
            x[a][c] = keep - h;
            double down = masked_loss(q, k, v, m, g);
            x[a][c] = keep;
            double num = (up - down) / (2 * h);
            cr_expect_lt(fabs(num - dx[a][c]), 1e-7, "input %d entry %d: %g vs %g", a,
                         c, dx[a][c], num);
        }
    cr_expect_eq(dq[2], 0.0, "the fully masked query gets no gradient");
    cr_expect_eq(dq[3], 0.0);
    for (int c = 6; c < 8; c++)             /* key 3 is masked everywhere */
        cr_expect(dk[c] == 0.0 && dv[c] == 0.0, "key 3 gets no gradient");
}

Test(mask, from_options_gives_no_mask_when_no_option_is_given)
{
    cr_expect_null(mask_from_options(NULL, NULL, 3, 4));
}

Test(mask, from_options_ands_causal_and_key_padding)
{
    /* s_q = 3, s_k = 4: causal (end-aligned) lets query i see j <= i + 1;
       key 2 is padding.  Worked by hand, row by row. */
    const unsigned char want[3 * 4] = { 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1 };
    const unsigned char pad_only[3 * 4] = { 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1 };
    const char *path = temp_file("1 4\n1 1 0 1\n");
    unsigned char *both = mask_from_options("causal", path, 3, 4);
    unsigned char *pad = mask_from_options(NULL, path, 3, 4);
    unsigned char *causal = mask_from_options("causal", NULL, 3, 4);
    unlink(path);
    for (int ij = 0; ij < 3 * 4; ij++) {
        cr_expect_eq(both[ij], want[ij], "causal and padding, entry %d", ij);
        cr_expect_eq(pad[ij], pad_only[ij], "padding alone, entry %d", ij);
        cr_expect_eq(causal[ij], (ij % 4) <= (ij / 4) + 1, "causal, entry %d", ij);
    }
    free(both), free(pad), free(causal);
}

Test(mask, from_options_refuses_causal_key_padding, .exit_code = 2)
{
    mask_from_options(NULL, "causal", 3, 4);
}
