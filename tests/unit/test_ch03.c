/* Unit tests of Chapter 3's kernels (code/mha.h): head splitting, the two
   implementations of equation (3), and the cost counters worked by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include "attention.h"
#include "core.h"
#include "mask.h"
#include "mha.h"

Test(mha, split_then_merge_is_the_identity)
{
    enum { s = 3, d = 6, d_k = 2 };
    double src[s * d], dst[s * d] = { 0 }, head[s * d_k];
    for (int c = 0; c < s * d; c++)
        src[c] = c;
    for (int i = 0; i < d / d_k; i++) {
        mha_split_head(head, src, s, d, d_k, i);
        cr_expect_eq(head[0], (double)(i * d_k), "head %d starts at column %d", i, i * d_k);
        cr_expect_eq(head[d_k], (double)(d + i * d_k), "row 1 of head %d", i);
        mha_merge_head(dst, head, s, d, d_k, i);
    }
    for (int c = 0; c < s * d; c++)
        cr_expect_eq(dst[c], src[c], "entry %d", c);
}

Test(mha, projection_adds_the_bias_to_every_row)
{
    double x[2 * 2] = { 1, 2, 3, 4 }, w[2 * 3] = { 1, 0, 1, 0, 1, 1 }, b[3] = { 10, 20, 30 };
    double y[2 * 3], want[2 * 3] = { 11, 22, 33, 13, 24, 37 };
    mha_project(y, x, w, b, 2, 2, 3);
    for (int c = 0; c < 6; c++)
        cr_expect_eq(y[c], want[c], "y[%d] = %g, expected %g", c, y[c], want[c]);
    mha_project(y, x, w, NULL, 2, 2, 3);
    cr_expect_eq(y[5], 7.0);
}

static void random_layer(Rng *rng, double *store, MhaWeights *p, int d, int h, int bias)
{
    rng_fill_normal(rng, store, 4 * (size_t)d * d + 4 * (size_t)d, 0.0, 0.4);
    *p = (MhaWeights){ d, h, store, store + d * d, store + 2 * d * d, store + 3 * d * d,
                       NULL, NULL, NULL, NULL };
    if (bias) {
        double *b = store + 4 * d * d;
        p->b_q = b, p->b_k = b + d, p->b_v = b + 2 * d, p->b_o = b + 3 * d;
    }
}

Test(mha, packed_and_head_by_head_agree)
{
    const int shapes[][4] = { { 1, 4, 3, 5 }, { 2, 6, 4, 4 }, { 3, 9, 2, 7 }, { 4, 8, 6, 3 } };
    Rng rng;
    rng_seed(&rng, 99);
    for (int n = 0; n < 4; n++) {
        int h = shapes[n][0], d = shapes[n][1], s_q = shapes[n][2], s_k = shapes[n][3];
        double *store = malloc((4 * d * d + 4 * d) * sizeof *store);
        double *q = malloc(s_q * d * sizeof *q), *k = malloc(s_k * d * sizeof *k);
        double *v = malloc(s_k * d * sizeof *v), *o1 = malloc(s_q * d * sizeof *o1);
        double *o2 = malloc(s_q * d * sizeof *o2), *w1 = malloc(h * s_q * s_k * sizeof *w1);
        double *w2 = malloc(h * s_q * s_k * sizeof *w2);
        double *work = malloc(mha_work_size(s_q, s_k, d, h) * sizeof *work);
        MhaWeights p;
        random_layer(&rng, store, &p, d, h, n % 2);
        rng_fill_normal(&rng, q, s_q * d, 0, 1);
        rng_fill_normal(&rng, k, s_k * d, 0, 1);
        rng_fill_normal(&rng, v, s_k * d, 0, 1);
        mha_forward(o1, w1, work, &p, q, k, v, NULL, s_q, s_k);
        mha_forward_by_head(o2, w2, work, &p, q, k, v, NULL, s_q, s_k);
        cr_expect_lt(max_abs_diff(o1, o2, s_q * d), 1e-13, "shape %d: outputs", n);
        cr_expect_eq(max_abs_diff(w1, w2, h * s_q * s_k), 0.0, "shape %d: weights", n);
        for (int r = 0; r < h * s_q; r++) {
            double sum = 0;
            for (int j = 0; j < s_k; j++)
                sum += w1[r * s_k + j];
            cr_expect_lt(fabs(sum - 1.0), 1e-14, "shape %d: weights row %d sums to %g", n, r, sum);
        }
        free(store), free(q), free(k), free(v), free(o1), free(o2), free(w1), free(w2);
        free(work);
    }
}

Test(mha, one_head_is_chapter_2_attention_between_projections)
{
    /* h = 1, no biases: MHA = Attn(Q W_Q, K W_K, V W_V) W_O, computed here with
       Chapter 2's attention and the core's matmul. */
    enum { d = 3, s_q = 2, s_k = 4 };
    double store[4 * d * d + 4 * d], q[s_q * d], k[s_k * d], v[s_k * d];
    double qw[s_q * d], kw[s_k * d], vw[s_k * d], a[s_q * d], want[s_q * d], wa[s_q * s_k];
    double out[s_q * d], w[s_q * s_k], work[256];
    Rng rng;
    rng_seed(&rng, 5);
    MhaWeights p;
    random_layer(&rng, store, &p, d, 1, 0);
    rng_fill_normal(&rng, q, s_q * d, 0, 1);
    rng_fill_normal(&rng, k, s_k * d, 0, 1);
    rng_fill_normal(&rng, v, s_k * d, 0, 1);
    matmul(qw, q, p.w_q, s_q, d, d);
    matmul(kw, k, p.w_k, s_k, d, d);
    matmul(vw, v, p.w_v, s_k, d, d);
    attention(a, wa, qw, kw, vw, s_q, s_k, d, d, 1.0 / sqrt(d));
    matmul(want, a, p.w_o, s_q, d, d);
    cr_assert_leq(mha_work_size(s_q, s_k, d, 1), 256);
    mha_forward(out, w, work, &p, q, k, v, NULL, s_q, s_k);
    cr_expect_eq(max_abs_diff(out, want, s_q * d), 0.0);
    cr_expect_eq(max_abs_diff(w, wa, s_q * s_k), 0.0);
}

Test(mha, counts_worked_by_hand)
{
    cr_expect_eq(mha_param_count(512, 8, 1), 4L * 512 * 512 + 4 * 512);
    cr_expect_eq(mha_param_count(512, 8, 1), 1050624L);
    cr_expect_eq(mha_work_size(5, 7, 12, 3), 384u, "the chapter's demo quotes 384");
    cr_expect_eq(mha_param_count(512, 1, 0), 1048576L);
    cr_expect_eq(mha_param_count(12, 3, 1), 4L * 144 + 48);
    cr_expect_eq(mha_multiply_adds(3, 5, 8, 2), 2L * (3 + 5) * 64 + 2L * 3 * 5 * 8);
    for (int h = 1; h <= 64; h *= 2)
        cr_expect_eq(mha_multiply_adds(10, 20, 64, h), mha_multiply_adds(10, 20, 64, 1));
}

/* L = sum(g .* MHA(x, x, x)) for self-attention, with a causal mask. */
static double mha_loss(const MhaWeights *p, const double *x, const double *g,
                       const unsigned char *mask, int s, double *work)
{
    double out[4 * 6], w[3 * 4 * 4], L = 0.0;
    mha_forward(out, w, work, p, x, x, x, mask, s, s);
    for (int c = 0; c < s * p->d_model; c++)
        L += g[c] * out[c];
    return L;
}

/* dL/d(*entry) by central differences, L being mha_loss and *entry one
   number of x or of the weights and biases p points into. */
static double numeric_derivative(double *entry, const MhaWeights *p,
                                 const double *x, const double *g,
                                 const unsigned char *mask, int s, double *work)
{
    double keep = *entry, e = 1e-6;
    *entry = keep + e;
    double up = mha_loss(p, x, g, mask, s, work);
    *entry = keep - e;
    double down = mha_loss(p, x, g, mask, s, work);
    *entry = keep;
    return (up - down) / (2 * e);
}

Test(mha, backward_matches_finite_differences_for_self_attention)
{
    enum { s = 4, d = 6, h = 3 };
    double store[4 * d * d + 4 * d], grads[4 * d * d + 4 * d] = { 0 };
    double x[s * d], g[s * d], dx[s * d] = { 0 }, out[s * d], w[h * s * s];
    double work[2048];
    unsigned char mask[s * s];
    Rng rng;
    rng_seed(&rng, 23);
    MhaWeights p;
    random_layer(&rng, store, &p, d, h, 1);
    rng_fill_normal(&rng, x, s * d, 0, 1);
    rng_fill_normal(&rng, g, s * d, 0, 1);
    mask_causal(mask, s, s);
    cr_assert_leq(mha_backward_work_size(s, s, d, h), 2048);
    MhaGrads gr = { grads, grads + d * d, grads + 2 * d * d, grads + 3 * d * d,
                    grads + 4 * d * d, grads + 4 * d * d + d,
                    grads + 4 * d * d + 2 * d, grads + 4 * d * d + 3 * d };
    mha_forward(out, w, work, &p, x, x, x, mask, s, s);
    mha_backward(dx, dx, dx, &gr, work, g, &p, x, x, x, w, s, s);  /* one buffer */
    for (int c = 0; c < s * d; c++) {       /* dL/dx, through Q, K and V at once */
        double num = numeric_derivative(&x[c], &p, x, g, mask, s, work);
        cr_expect_lt(fabs(num - dx[c]), 1e-7, "dx[%d]", c);
    }
    for (int c = 0; c < 4 * d * d + 4 * d; c++) {  /* every weight and bias */
        double num = numeric_derivative(&store[c], &p, x, g, mask, s, work);
        cr_expect_lt(fabs(num - grads[c]), 1e-7, "parameter %d", c);
    }
}
