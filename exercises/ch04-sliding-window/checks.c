/* Checks of Exercise 4.2.  Masks written out by hand, or the definition
   p - window < j <= p evaluated here entry by entry.  The mask buffer starts
   filled with 0xAB, so every entry must be written. */
#include "grade.h"
#include "sliding_window.h"
#include <stdio.h>

static void expect_mask(const unsigned char *got, const unsigned char *want, int s_q, int s_k)
{
    char what[64];
    for (int i = 0; i < s_q; i++)
        for (int j = 0; j < s_k; j++) {
            snprintf(what, sizeof what, "mask[%d][%d]", i, j);
            expect_int(what, got[i * s_k + j], want[i * s_k + j]);
        }
}

static void compare(int s_q, int s_k, int window)
{
    unsigned char *want = grade_bytes((size_t)s_q * s_k, 0), *mask = grade_bytes((size_t)s_q * s_k, 0xAB);
    mask_sliding_window(mask, s_q, s_k, window);
    GRADE_REFERENCE({
        for (int i = 0; i < s_q; i++)
            for (int j = 0; j < s_k; j++) {
                int p = i + s_k - s_q;
                want[i * s_k + j] = p - window < j && j <= p;
            }
    });
    expect_mask(mask, want, s_q, s_k);
}

CHECK(square_window_two_by_hand)
{
    static const unsigned char want[16] = {
        1, 0, 0, 0,
        1, 1, 0, 0,
        0, 1, 1, 0,
        0, 0, 1, 1 };
    unsigned char *mask = grade_bytes(16, 0xAB);
    mask_sliding_window(mask, 4, 4, 2);
    expect_mask(mask, want, 4, 4);
}

CHECK(end_aligned_by_hand)
{
    /* s_q = 2, s_k = 5, window 3: the queries stand at positions 3 and 4 */
    static const unsigned char want[10] = {
        0, 1, 1, 1, 0,
        0, 0, 1, 1, 1 };
    unsigned char *mask = grade_bytes(10, 0xAB);
    mask_sliding_window(mask, 2, 5, 3);
    expect_mask(mask, want, 2, 5);
}

CHECK(wide_window_is_causal)
{
    /* window >= s_k: j <= p only, the causal mask */
    compare(5, 7, 7);
    compare(6, 6, 100);
}

CHECK(window_one_is_the_diagonal)
{
    compare(5, 5, 1);
}

/* BEGIN HIDDEN */
CHECK(long_sequence)
{
    compare(64, 200, 17);
}

CHECK(one_query)
{
    compare(1, 9, 4);
}

CHECK(window_equals_s_k_minus_one)
{
    compare(8, 8, 7);
}
/* END HIDDEN */
