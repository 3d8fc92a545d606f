/* Unit tests of Chapter 8's model: the whole model's gradient against
 * central finite differences (with dropout and label smoothing on, for both
 * placements of the normalisation), the fast products against Appendix A's,
 * the model's encoder against Chapter 6's layer code run on the same
 * weights, and checkpoints that refuse corruption. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core.h"
#include "embed.h"
#include "gemm.h"
#include "mask.h"
#include "model.h"
#include "transformer.h"

static Batch tiny_batch(void)
{
    /* three sequences of different lengths: padding in src and tgt */
    static const int src[3][5] = { { 3, 4, 5, 6, 7 }, { 8, 9, 3, 0, 0 }, { 10, 0, 0, 0, 0 } };
    static const int tin[3][6] = { { 1, 7, 6, 5, 4, 3 }, { 1, 3, 9, 8, 0, 0 }, { 1, 10, 0, 0, 0, 0 } };
    static const int tout[3][6] = { { 7, 6, 5, 4, 3, 2 }, { 3, 9, 8, 2, 0, 0 }, { 10, 2, 0, 0, 0, 0 } };
    Batch b = batch_new(3, 5, 6);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 5; j++)
            b.src[i * 5 + j] = src[i][j];
        for (int j = 0; j < 6; j++)
            b.tgt_in[i * 6 + j] = tin[i][j], b.tgt_out[i * 6 + j] = tout[i][j];
    }
    return b;
}

static Model tiny_model(NormPlacement norm, int scale, double dropout)
{
    TransformerConfig c = { 11, 8, 2, 12, 2, 8, norm, scale, dropout, 0.1 };
    Model m = model_new(&c, 7);
    Rng r;
    rng_seed(&r, 3);        /* move gammas, betas and biases off 1 and 0 */
    for (size_t i = 0; i < m.n_params; i++)
        m.params[i] += 0.05 * rng_normal(&r);
    return m;
}

/* Every one of the model's parameters: |analytic - numeric| small relative
   to their size.  The dropout RNG is rewound before every forward pass, so
   the same units are dropped each time. */
static void check_gradient(NormPlacement norm, int scale)
{
    Model m = tiny_model(norm, scale, 0.2);
    Batch b = tiny_batch();
    Rng saved = m.rng;
    model_forward(&m, &b, 1, NULL, NULL);
    model_backward(&m);
    double worst = 0.0;
    size_t at = 0;
    for (size_t i = 0; i < m.n_params; i++) {
        double keep = m.params[i], h = 1e-5;
        m.params[i] = keep + h, m.rng = saved;
        double up = model_forward(&m, &b, 1, NULL, NULL);
        m.params[i] = keep - h, m.rng = saved;
        double down = model_forward(&m, &b, 1, NULL, NULL);
        m.params[i] = keep;
        double num = (up - down) / (2 * h), err = fabs(num - m.grads[i]);
        if (err > worst)
            worst = err, at = i;
    }
    cr_expect_lt(worst, 1e-8, "parameter %zu: gradient off by %g", at, worst);
    batch_free(&b);
    model_free(&m);
}

Test(model, gradient_post_norm) { check_gradient(POST_NORM, 1); }
Test(model, gradient_pre_norm) { check_gradient(PRE_NORM, 1); }
Test(model, gradient_unscaled_scores) { check_gradient(POST_NORM, 0); }

/* model_grad_check, which ch08-training --grad-check runs: the true
   gradient agrees, and one entry spoiled on purpose (made the largest of its
   array, so that it is always among those checked) is reported, wherever it
   is: in the embedding, a bias, a gamma, the unused final norm. */
Test(model, grad_check_reports_a_spoiled_gradient)
{
    Model m = tiny_model(POST_NORM, 1, 0.2);
    Batch b = tiny_batch();
    Rng start = m.rng;
    double loss = model_forward(&m, &b, 1, NULL, NULL);
    model_backward(&m);
    cr_assert(freopen("/dev/null", "w", stdout) != NULL);   /* its table */
    cr_expect_eq(model_grad_check(&m, &b, start, loss, 2, 5), 0, "the true gradient fails");
    size_t at[] = { 3, (size_t)(m.p.dec[1].cross.b_v - m.params) + 1,
                    (size_t)(m.p.enc[0].norm2.gamma - m.params) + 2,
                    (size_t)(m.p.dec_final.beta - m.params) };
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        double keep = m.grads[at[k]];
        m.grads[at[k]] += 1.0;
        cr_expect_eq(model_grad_check(&m, &b, start, loss, 2, 5), 1,
                     "a gradient off by 1 at parameter %zu was not reported", at[k]);
        m.grads[at[k]] = keep;
    }
    /* a NaN or an infinity disagrees too (every comparison with NaN is false) */
    const double odd[] = { NAN, INFINITY, -INFINITY };
    for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
        double keep = m.grads[at[1]];
        m.grads[at[1]] = odd[k];
        cr_expect_eq(model_grad_check(&m, &b, start, loss, 2, 5), 1,
                     "a gradient of %g was not reported", odd[k]);
        m.grads[at[1]] = keep;
    }
    batch_free(&b);
    model_free(&m);
}

Test(model, padding_changes_nothing)
{
    /* The padded batch's loss, times its token count, must equal the sum of
       the losses of each sequence run alone without any padding. */
    Model m = tiny_model(POST_NORM, 1, 0.0);
    Batch b = tiny_batch();
    long n;
    double total = model_forward(&m, &b, 0, NULL, &n) * n, sum = 0.0;
    static const int len[3] = { 5, 3, 1 };
    for (int i = 0; i < 3; i++) {
        Batch one = batch_new(1, len[i], len[i] + 1);
        memcpy(one.src, b.src + i * 5, len[i] * sizeof(int));
        memcpy(one.tgt_in, b.tgt_in + i * 6, (len[i] + 1) * sizeof(int));
        memcpy(one.tgt_out, b.tgt_out + i * 6, (len[i] + 1) * sizeof(int));
        long k;
        sum += model_forward(&m, &one, 0, NULL, &k) * k;
        batch_free(&one);
    }
    cr_expect_eq(n, 6 + 4 + 2);
    cr_expect_float_eq(total, sum, 1e-12 * fabs(sum));
    batch_free(&b);
    model_free(&m);
}

Test(gemm, same_bits_as_appendix_a)
{
    enum { N = 13, K = 300, M = 19 };   /* K > KC: the sum is split into slices */
    double a[N * K], b[K * M], bt[M * K], want[N * M], got[N * M], work[K * M];
    Rng r;
    rng_seed(&r, 11);
    rng_fill_normal(&r, a, N * K, 0, 1);
    rng_fill_normal(&r, b, K * M, 0, 1);
    transpose(bt, b, K, M);
    matmul(want, a, b, N, K, M);
    gemm_nn(got, a, b, N, K, M, 0);
    cr_expect(memcmp(want, got, sizeof got) == 0, "gemm_nn differs from matmul");
    matmul_bt(want, a, bt, N, K, M);
    gemm_nt(got, a, bt, N, K, M, 0, work);
    cr_expect(memcmp(want, got, sizeof got) == 0, "gemm_nt differs from matmul_bt");
    /* a^T b with a = (K x N)... use c[K x M] = a'[N x K]^T b'[N x M] */
    double at[K * N], c1[K * M], c2[K * M], w2[N * K];
    rng_fill_normal(&r, c1, K * M, 0, 1);
    memcpy(c2, c1, sizeof c1);
    double b2[N * M];
    rng_fill_normal(&r, b2, N * M, 0, 1);
    gemm_tn(c1, a, b2, N, K, M, 1, w2);
    transpose(at, a, N, K);
    for (int p = 0; p < K; p++)
        for (int j = 0; j < M; j++) {
            double s = c2[p * M + j];
            for (int i = 0; i < N; i++)
                s += at[p * N + i] * b2[i * M + j];
            c2[p * M + j] = s;
        }
    cr_expect(memcmp(c1, c2, sizeof c1) == 0, "gemm_tn (acc) differs from the plain sum");
}

Test(model, encoder_matches_chapter_6_layers)
{
    /* post-norm, scaled, no dropout: model_encode must equal embed_forward
       followed by Chapter 6's encoder_layer_forward on the same weights */
    Model m = tiny_model(POST_NORM, 1, 0.0);
    int src[5] = { 3, 4, 5, 6, 7 }, d = m.cfg.d_model;
    double got[5 * 8], x[5 * 8], y[5 * 8];
    model_encode(&m, src, 5, got);
    embed_forward(x, src, 5, m.p.embedding, d, sqrt((double)d), m.pe);
    double *work = xcalloc(layer_work_size(5, 5, d, m.cfg.heads, m.cfg.d_ff), sizeof *work);
    for (int l = 0; l < m.cfg.layers; l++) {
        EncoderLayer el = model_encoder_layer(&m, l);
        encoder_layer_forward(&el, y, x, 5, NULL, POST_NORM, work);
        memcpy(x, y, sizeof x);
    }
    cr_expect_lt(max_abs_diff(got, x, 5 * 8), 1e-12);
    free(work);
    model_free(&m);
}

Test(checkpoint, round_trip_and_refusals)
{
    Model m = tiny_model(PRE_NORM, 1, 0.1), n;
    memset(&n, 0, sizeof n);
    Batch b = tiny_batch();
    model_train_step(&m, &b, 10, 1.0);
    char path[] = "/tmp/test_ch08_ckpt_XXXXXX", err[512];
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(model_save(&m, path, err, sizeof err), 0, "%s", err);
    cr_assert_eq(model_load(&n, path, &m.cfg, err, sizeof err), 0, "%s", err);
    cr_expect(memcmp(m.params, n.params, m.n_params * sizeof *m.params) == 0);
    cr_expect(memcmp(m.adam_v, n.adam_v, m.n_params * sizeof *m.adam_v) == 0);
    cr_expect_eq(n.step, 1);
    cr_expect_eq(n.rng.state, m.rng.state);
    /* a flipped bit in the middle: the checksum catches it */
    FILE *f = fopen(path, "r+b");
    fseek(f, 500, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, 500, SEEK_SET);
    fputc(ch ^ 4, f);
    fclose(f);
    cr_expect_eq(model_load(&n, path, NULL, err, sizeof err), -1);
    cr_expect(strstr(err, "checksum") && strstr(err, path), "%s", err);
    /* truncated */
    cr_assert_eq(model_save(&m, path, err, sizeof err), 0);
    cr_assert_eq(truncate(path, 300), 0);
    cr_expect_eq(model_load(&n, path, NULL, err, sizeof err), -1);
    cr_expect(strstr(err, "truncated") != NULL, "%s", err);
    /* another shape */
    cr_assert_eq(model_save(&m, path, err, sizeof err), 0);
    TransformerConfig other = m.cfg;
    other.d_ff = 16;
    cr_expect_eq(model_load(&n, path, &other, err, sizeof err), -1);
    cr_expect(strstr(err, "not the one asked for") != NULL, "%s", err);
    char want[64];
    snprintf(want, sizeof want, ": d_ff %d (asked for 16)", m.cfg.d_ff);
    cr_expect(strstr(err, want) != NULL && !strstr(err, "heads"), "%s", err);
    /* only the norm's placement, or only the scaling, differs: still named */
    other = m.cfg;
    other.norm = m.cfg.norm == PRE_NORM ? POST_NORM : PRE_NORM;
    cr_expect_eq(model_load(&n, path, &other, err, sizeof err), -1);
    cr_expect(strstr(err, other.norm == PRE_NORM ? "post-norm (asked for pre-norm)"
                                                 : "pre-norm (asked for post-norm)"), "%s", err);
    other = m.cfg;
    other.scale_scores = !m.cfg.scale_scores;
    cr_expect_eq(model_load(&n, path, &other, err, sizeof err), -1);
    cr_expect(strstr(err, "scaled scores (asked for ") != NULL, "%s", err);
    remove(path);
    batch_free(&b);
    model_free(&m);
    model_free(&n);
}
