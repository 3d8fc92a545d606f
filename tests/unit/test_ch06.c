/* Unit tests of Chapter 6's kernels, with Criterion: values worked by hand,
 * backward passes against central differences, and the algebraic
 * properties the chapter states. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"
#include "embed.h"
#include "transformer.h"
#include "mha.h"
#include "params.h"

Test(posenc, values_by_hand)
{
    /* d_model = 4: w_0 = 1, w_1 = 10000^(-1/2) = 1/100 */
    double pe[3 * 4];
    positional_encoding(pe, 3, 4);
    double want[12] = { 0, 1, 0, 1,
                        sin(1), cos(1), sin(0.01), cos(0.01),
                        sin(2), cos(2), sin(0.02), cos(0.02) };
    for (int i = 0; i < 12; i++)
        cr_assert_float_eq(pe[i], want[i], 1e-15, "entry %d", i);
}

Test(posenc, rotation_gives_the_shifted_rows)
{
    /* [sin(a+b), cos(a+b)] = [sin a, cos a] [[cos b, -sin b], [sin b, cos b]] */
    enum { D = 16, ROWS = 40, K = 7 };
    double pe[ROWS * D];
    positional_encoding(pe, ROWS, D);
    for (int pos = 0; pos + K < ROWS; pos++)
        for (int i = 0; i < D / 2; i++) {
            double b = K * pow(10000.0, -2.0 * i / D);
            double s = pe[pos * D + 2 * i], c = pe[pos * D + 2 * i + 1];
            cr_assert_float_eq(pe[(pos + K) * D + 2 * i], s * cos(b) + c * sin(b), 1e-12);
            cr_assert_float_eq(pe[(pos + K) * D + 2 * i + 1], -s * sin(b) + c * cos(b), 1e-12);
        }
}

Test(embed, forward_by_hand)
{
    double we[3 * 2] = { 1, 2, 3, 4, 5, 6 }, pe[2 * 2] = { 0.5, 0.5, -1, 1 }, x[2 * 2];
    int tokens[2] = { 2, 0 };
    embed_forward(x, tokens, 2, we, 2, 2.0, pe);
    double want[4] = { 10.5, 12.5, 1, 5 };
    for (int i = 0; i < 4; i++)
        cr_assert_float_eq(x[i], want[i], 0.0, "entry %d", i);
}

/* L = <g, f(params)>; returns it for the current parameters. */
static double loss_of_logits(const double *y, const double *we, const double *g,
                             int n, int d, int vocab)
{
    double *logits = malloc(sizeof *logits * n * vocab), s = 0.0;
    tied_logits(logits, y, we, n, d, vocab);
    for (int i = 0; i < n * vocab; i++)
        s += g[i] * logits[i];
    free(logits);
    return s;
}

Test(embed, tied_logits_backward_matches_central_differences)
{
    enum { n = 3, d = 4, vocab = 5 };
    Rng rng;
    rng_seed(&rng, 21);
    double y[n * d], we[vocab * d], g[n * vocab], dy[n * d] = { 0 }, dwe[vocab * d] = { 0 };
    rng_fill_normal(&rng, y, n * d, 0.0, 1.0);
    rng_fill_normal(&rng, we, vocab * d, 0.0, 1.0);
    rng_fill_normal(&rng, g, n * vocab, 0.0, 1.0);
    tied_logits_backward(dy, dwe, g, y, we, n, d, vocab);
    double *params[2] = { y, we }, *grads[2] = { dy, dwe };
    int sizes[2] = { n * d, vocab * d };
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < sizes[p]; i++) {
            double keep = params[p][i], h = 1e-6;
            params[p][i] = keep + h;
            double lp = loss_of_logits(y, we, g, n, d, vocab);
            params[p][i] = keep - h;
            double lm = loss_of_logits(y, we, g, n, d, vocab);
            params[p][i] = keep;
            cr_assert_float_eq(grads[p][i], (lp - lm) / (2 * h), 1e-7, "group %d entry %d", p, i);
        }
}

Test(embed, backward_scatters_to_the_rows_looked_up)
{
    /* token 1 appears twice: its row receives both gradients, scaled */
    double dwe[3 * 2] = { 0 }, dx[3 * 2] = { 1, 2, 3, 4, 5, 6 };
    int tokens[3] = { 1, 2, 1 };
    embed_backward(dwe, dx, tokens, 3, 2, 0.5);
    double want[6] = { 0, 0, 3, 4, 1.5, 2 };
    for (int i = 0; i < 6; i++)
        cr_assert_float_eq(dwe[i], want[i], 0.0, "entry %d", i);
}

Test(params, general_count_agrees_with_chapter_3)
{
    /* with d_k = d_v = d_model / h the general count is Chapter 3's */
    cr_assert_eq(attention_param_count(512, 8, 64, 64), mha_param_count(512, 8, 1));
    cr_assert_eq(attention_param_count(1024, 16, 64, 64), mha_param_count(1024, 16, 1));
    /* d_k = 16, d_v = 64, d = 512, h = 8: 2 (512*128 + 128) + (512*512 + 512) + (512*512 + 512) */
    cr_assert_eq(attention_param_count(512, 8, 16, 64), 2 * (65536 + 128) + 2 * (262144 + 512));
    cr_assert_null(find_config("tiny"));
    cr_assert_str_eq(find_config("big")->name, "big");
}

Test(layers, encoder_layer_is_permutation_equivariant_without_a_mask)
{
    enum { n = 5, d = 8, h = 2, dff = 16 };
    Rng rng;
    rng_seed(&rng, 22);
    EncoderLayer l = encoder_layer_new(d, h, dff, &rng);
    double x[n * d], xp[n * d], y[n * d], yp[n * d];
    double *work = malloc(sizeof *work * layer_work_size(n, n, d, h, dff));
    int perm[n] = { 3, 0, 4, 1, 2 };
    rng_fill_normal(&rng, x, n * d, 0.0, 1.0);
    for (int t = 0; t < n; t++)
        memcpy(xp + t * d, x + perm[t] * d, sizeof *x * d);
    for (int where = 0; where < 2; where++) {
        encoder_layer_forward(&l, y, x, n, NULL, where ? PRE_NORM : POST_NORM, work);
        encoder_layer_forward(&l, yp, xp, n, NULL, where ? PRE_NORM : POST_NORM, work);
        for (int t = 0; t < n; t++)
            for (int j = 0; j < d; j++)
                cr_assert_float_eq(yp[t * d + j], y[perm[t] * d + j], 1e-12);
    }
    free(work);
    encoder_layer_free(&l);
}
