/* Checks of Exercise 6.4.  A stack whose weights are all zero, worked out
   by hand; otherwise the expected output is the chapter's
   encoder_layer_forward applied layer after layer here, in buffers of the
   check's own, then layernorm_forward.  work is exactly the stated size and
   starts full of NaN. */
#include "grade.h"
#include "encoder_stack.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int layers, n, d, h, dff;
} Shape;

static EncoderLayer *make_layers(const Shape *s, unsigned long seed)
{
    Rng rng;
    rng_seed(&rng, seed);
    EncoderLayer *l = malloc(sizeof *l * s->layers);
    for (int i = 0; i < s->layers; i++) {
        l[i] = encoder_layer_new(s->d, s->h, s->dff, &rng);
        /* nonzero biases too: the attention's four, then b1, b2 */
        double *b = l[i].store + 4 * (size_t)s->d * s->d;
        grade_random(b, 4 * (size_t)s->d, seed * 100 + i, -0.5, 0.5);
        grade_random(l[i].ffn.b1, s->dff, seed * 100 + 50 + i, -0.5, 0.5);
        grade_random(l[i].ffn.b2, s->d, seed * 100 + 80 + i, -0.5, 0.5);
    }
    return l;
}

static double *work_for(const Shape *s)
{
    return grade_doubles(layer_work_size(s->n, s->n, s->d, s->h, s->dff)
                         + 2 * (size_t)s->n * s->d);
}

/* the expected output, one layer at a time */
static void reference(double *want, const EncoderLayer *l, const Shape *s,
                      const LayerNorm *final, const double *x,
                      const unsigned char *mask, NormPlacement where)
{
    size_t nd = (size_t)s->n * s->d;
    double *cur = malloc(sizeof *cur * nd), *next = malloc(sizeof *next * nd);
    double *work = malloc(sizeof *work * layer_work_size(s->n, s->n, s->d, s->h, s->dff));
    memcpy(cur, x, sizeof *cur * nd);
    for (int i = 0; i < s->layers; i++) {
        encoder_layer_forward(&l[i], next, cur, s->n, mask, where, work);
        double *t = cur;
        cur = next, next = t;
    }
    if (final)
        layernorm_forward(final, cur, NULL, NULL, cur, s->n);
    memcpy(want, cur, sizeof *want * nd);
    free(cur), free(next), free(work);
}

static unsigned char *causal(int n)
{
    unsigned char *m = grade_bytes((size_t)n * n, 0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            m[i * n + j] = 1;
    return m;
}

/* run the student's stack and compare with the reference */
static void compare(const Shape *s, unsigned long seed, const LayerNorm *final,
                    const unsigned char *mask, NormPlacement where, const char *what)
{
    size_t nd = (size_t)s->n * s->d;
    EncoderLayer *l = make_layers(s, seed);
    double *x = grade_doubles(nd), *y = grade_doubles(nd), *want = grade_doubles(nd);
    grade_random(x, nd, seed + 7, -2, 2);
    double *xin = grade_copy(x, nd);
    encoder_stack_forward(l, s->layers, final, y, xin, s->n, mask, where, work_for(s));
    GRADE_REFERENCE(reference(want, l, s, final, x, mask, where));
    expect_same("x", xin, x, nd);
    expect_matrix(what, y, want, s->n, s->d);
}

CHECK(zero_weights_pre_norm_by_hand)
{
    /* Every weight and bias 0: each sublayer outputs 0, so pre-norm gives
       y = x + 0 = x through any number of layers.  With a final layer
       normalisation: the row (1, 3, 1, 3) has mean 2 and variance 1, so
       (-1, 1, -1, 1) / sqrt(1 + eps); the row (0, 0, 0, 4) mean 1 and
       variance 3, so (-1, -1, -1, 3) / sqrt(3 + eps). */
    Shape s = { 2, 2, 4, 2, 8 };
    EncoderLayer *l = make_layers(&s, 1);
    for (int i = 0; i < s.layers; i++) {
        memset(l[i].store, 0, sizeof(double) * 4 * s.d * (s.d + 1));
        memset(l[i].ffn.w1, 0, sizeof(double) * ffn_param_count(s.d, s.dff));
    }
    double x[8] = { 1, 3, 1, 3, 0, 0, 0, 4 };
    double *y = grade_doubles(8);
    encoder_stack_forward(l, 2, NULL, y, grade_copy(x, 8), 2, NULL, PRE_NORM, work_for(&s));
    expect_matrix("y, no final norm (= x)|zh:y，不做最后的归一化（= x）", y, x, 2, 4);
    LayerNorm final = { 4, NULL, NULL, LAYERNORM_EPS };
    y = grade_doubles(8);
    encoder_stack_forward(l, 2, &final, y, grade_copy(x, 8), 2, NULL, PRE_NORM, work_for(&s));
    double want[8] = { 0 };
    GRADE_REFERENCE({
        double a = 1 / sqrt(1 + LAYERNORM_EPS), b = 1 / sqrt(3 + LAYERNORM_EPS);
        double rows[8] = { -a, a, -a, a, -b, -b, -b, 3 * b };
        memcpy(want, rows, sizeof want);
    });
    expect_matrix("y, with the final norm|zh:y，做最后的归一化", y, want, 2, 4);
}

CHECK(one_layer_is_the_layer)
{
    Shape s = { 1, 3, 4, 2, 8 };
    compare(&s, 2, NULL, NULL, POST_NORM, "y (one post-norm layer)|zh:y（一层后归一化）");
}

CHECK(post_norm_stack)
{
    Shape s = { 3, 4, 6, 2, 12 };
    compare(&s, 3, NULL, NULL, POST_NORM, "y (3 post-norm layers)|zh:y（三层后归一化）");
}

CHECK(pre_norm_stack_with_final_norm)
{
    Shape s = { 3, 4, 6, 3, 10 };
    LayerNorm final = { 6, NULL, NULL, LAYERNORM_EPS };
    compare(&s, 4, &final, NULL, PRE_NORM, "y (3 pre-norm layers, final norm)|zh:y（三层前归一化，最后再归一化）");
}

CHECK(mask_in_every_layer)
{
    Shape s = { 2, 5, 4, 2, 8 };
    compare(&s, 5, NULL, causal(5), POST_NORM, "y (2 layers, causal mask)|zh:y（两层，因果掩码）");
}

/* BEGIN HIDDEN */
CHECK(six_layers_padding_and_a_final_norm_of_its_own)
{
    /* the paper's depth; the last two keys are padding; the final norm has
       its own gamma, beta and eps */
    Shape s = { 6, 7, 16, 4, 32 };
    unsigned char *mask = grade_bytes(49, 1);
    for (int i = 0; i < 7; i++)
        mask[i * 7 + 5] = mask[i * 7 + 6] = 0;
    double *gamma = grade_doubles(16), *beta = grade_doubles(16);
    grade_random(gamma, 16, 61, 0.5, 1.5);
    grade_random(beta, 16, 62, -1, 1);
    LayerNorm final = { 16, gamma, beta, 1e-3 };
    compare(&s, 6, &final, mask, PRE_NORM, "y (6 pre-norm layers, padding mask)|zh:y（六层前归一化，填充掩码）");
}

CHECK(one_position)
{
    Shape s = { 3, 1, 4, 2, 6 };
    LayerNorm final = { 4, NULL, NULL, LAYERNORM_EPS };
    compare(&s, 7, &final, NULL, POST_NORM, "y (one position)|zh:y（一个位置）");
}

CHECK(many_layers_few_heads)
{
    Shape s = { 9, 3, 2, 1, 3 };
    compare(&s, 8, NULL, causal(3), PRE_NORM, "y (9 pre-norm layers, d = 2)|zh:y（九层前归一化，d = 2）");
}
/* END HIDDEN */
