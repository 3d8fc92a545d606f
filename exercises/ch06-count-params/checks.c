/* Checks of Exercise 6.2.  The base model's count is worked out by hand
   below; other configurations (hidden checks) against the count written
   out here from the shapes of Chapters 3, 5 and 6 (W_Q, W_K: d x h d_k;
   W_V: d x h d_v; W_O: h d_v x d; each with its bias; the network
   2 d d_ff + d_ff + d; a layer normalisation 2 d). */
#include "grade.h"
#include "count_params_with.h"
#include <stdio.h>

/* base: vocabulary 37000 x 512 = 18,944,000
   self-attention 4 x 512^2 + 4 x 512 = 1,050,624; network 2 x 512 x 2048 +
   2048 + 512 = 2,099,712; layer normalisation 1,024
   encoder layer 1,050,624 + 2,099,712 + 2 x 1,024 = 3,152,384
   decoder layer 2 x 1,050,624 + 2,099,712 + 3 x 1,024 = 4,204,032
   6 x (3,152,384 + 4,204,032) = 44,138,496; total 63,082,496 */
static const ModelConfig base = { "base", 6, 512, 2048, 8, 64, 64, 37000, 65 };
enum { BASE_SHARED = 63082496, BASE_MATRIX = 18944000, BASE_NORM = 1024 };

static void expect_count(const ModelConfig *c, int shared, int final_norms, long long want)
{
    char what[120];
    snprintf(what, sizeof what, "count_params_with(%s, shared = %d, final_norms = %d)",
             c->name, shared, final_norms);
    expect_int(what, count_params_with(c, shared, final_norms), want);
}

CHECK(base_shared_by_hand)
{
    expect_count(&base, 1, 0, BASE_SHARED);
}

CHECK(base_three_matrices)
{
    expect_count(&base, 0, 0, BASE_SHARED + 2L * BASE_MATRIX);
}

CHECK(base_final_norms)
{
    expect_count(&base, 1, 1, BASE_SHARED + 2L * BASE_NORM);
}

CHECK(base_both)
{
    expect_count(&base, 0, 1, BASE_SHARED + 2L * BASE_MATRIX + 2L * BASE_NORM);
}

/* BEGIN HIDDEN */
static long long expected(const ModelConfig *c, int shared, int final_norms)
{
    long long d = c->d_model, h = c->heads, dk = c->d_k, dv = c->d_v;
    long long attn = 2 * (d * h * dk + h * dk) + (d * h * dv + h * dv) + (h * dv * d + d);
    long long ffn = 2 * d * c->d_ff + c->d_ff + d, norm = 2 * d;
    long long enc = attn + ffn + 2 * norm, dec = 2 * attn + ffn + 3 * norm;
    return (shared ? 1 : 3) * (long long)c->vocab * d + c->layers * (enc + dec)
           + (final_norms ? 2 * norm : 0);
}

CHECK(every_table3_row)
{
    for (int i = 0; config_at(i); i++)
        for (int s = 0; s <= 1; s++)
            for (int f = 0; f <= 1; f++) {
                long long want = 0;
                GRADE_REFERENCE(want = expected(config_at(i), s, f));
                expect_count(config_at(i), s, f, want);
            }
}

CHECK(big_model)
{
    static const ModelConfig big = { "big", 6, 1024, 4096, 16, 64, 64, 37000, 213 };
    long long want = 0;
    GRADE_REFERENCE(want = expected(&big, 0, 1));
    expect_count(&big, 0, 1, want);
    GRADE_REFERENCE(want = expected(&big, 1, 0));
    expect_count(&big, 1, 0, want);
}

CHECK(a_configuration_not_in_the_table)
{
    /* h d_k != d_model, d_k != d_v, one layer, a small vocabulary */
    static const ModelConfig odd = { "odd", 1, 10, 7, 3, 4, 5, 11, 0 };
    long long want = 0;
    for (int s = 0; s <= 1; s++)
        for (int f = 0; f <= 1; f++) {
            GRADE_REFERENCE(want = expected(&odd, s, f));
            expect_count(&odd, s, f, want);
        }
    static const ModelConfig deep = { "deep", 12, 96, 384, 6, 16, 16, 500, 0 };
    GRADE_REFERENCE(want = expected(&deep, 0, 1));
    expect_count(&deep, 0, 1, want);
}
/* END HIDDEN */
