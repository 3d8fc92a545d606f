/* Checks of Exercise 4.3.  Masks by hand, or the definition evaluated here
   entry by entry.  The mask buffer starts filled with 0xAB. */
#include "grade.h"
#include "batch_mask.h"
#include <stdio.h>

static void expect_masks(const unsigned char *got, const unsigned char *want, int batch, int s)
{
    char what[128];
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < s; i++)
            for (int j = 0; j < s; j++) {
                size_t at = ((size_t)b * s + i) * s + j;
                snprintf(what, sizeof what, "sentence %d: mask[%d][%d]|zh:第 %d 句：mask[%d][%d]",
                         b, i, j, b, i, j);
                expect_int(what, got[at], want[at]);
            }
}

static void compare(const int *len, int batch, int s, int causal)
{
    size_t n = (size_t)batch * s * s;
    unsigned char *want = grade_bytes(n, 0), *mask = grade_bytes(n, 0xAB);
    int *lens = grade_ints(batch, 0);
    for (int b = 0; b < batch; b++)
        lens[b] = len[b];
    mask_batch(mask, lens, batch, s, causal);
    GRADE_REFERENCE({
        for (int b = 0; b < batch; b++)
            for (int i = 0; i < s; i++)
                for (int j = 0; j < s; j++)
                    want[((size_t)b * s + i) * s + j] = j < len[b] && (!causal || j <= i);
    });
    expect_masks(mask, want, batch, s);
}

CHECK(padding_by_hand)
{
    /* two sentences of length 2 and 3, padded to s = 3, not causal */
    static const unsigned char want[18] = {
        1, 1, 0,  1, 1, 0,  1, 1, 0,
        1, 1, 1,  1, 1, 1,  1, 1, 1 };
    int *len = grade_ints(2, 0);
    len[0] = 2;
    len[1] = 3;
    unsigned char *mask = grade_bytes(18, 0xAB);
    mask_batch(mask, len, 2, 3, 0);
    expect_masks(mask, want, 2, 3);
}

CHECK(causal_and_padding_by_hand)
{
    /* one sentence of length 2 padded to 3, causal: (j < 2) and (j <= i) */
    static const unsigned char want[9] = {
        1, 0, 0,
        1, 1, 0,
        1, 1, 0 };
    int *len = grade_ints(1, 2);
    unsigned char *mask = grade_bytes(9, 0xAB);
    mask_batch(mask, len, 1, 3, 1);
    expect_masks(mask, want, 1, 3);
}

CHECK(no_padding_causal)
{
    int len[3] = { 4, 4, 4 };
    compare(len, 3, 4, 1);
}

CHECK(mixed_lengths)
{
    int len[4] = { 1, 5, 3, 2 };
    compare(len, 4, 5, 0);
    compare(len, 4, 5, 1);
}

/* BEGIN HIDDEN */
CHECK(large_batch)
{
    int len[16];
    for (int b = 0; b < 16; b++)
        len[b] = 1 + (b * 7) % 23;
    compare(len, 16, 23, 1);
}

CHECK(causal_flag_any_nonzero)
{
    int len[2] = { 3, 2 };
    size_t n = 2 * 3 * 3;
    unsigned char *want = grade_bytes(n, 0), *mask = grade_bytes(n, 0xAB);
    int *lens = grade_ints(2, 0);
    lens[0] = 3;
    lens[1] = 2;
    mask_batch(mask, lens, 2, 3, 7);
    GRADE_REFERENCE({
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    want[(b * 3 + i) * 3 + j] = j < len[b] && j <= i;
    });
    expect_masks(mask, want, 2, 3);
}

CHECK(one_token_sentences)
{
    int len[3] = { 1, 1, 1 };
    compare(len, 3, 6, 0);
}
/* END HIDDEN */
