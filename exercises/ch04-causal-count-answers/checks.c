/* Checks of Exercise 4.1: the ones of each mask counted here, entry by
   entry, from the rule that defines it. */
#include "grade.h"
#include "causal_count_answers.h"
#include <stdio.h>

/* the ones of the s_q x s_k mask where query i sees keys j <= i + shift */
static long count_ones(long s_q, long s_k, long shift)
{
    long ones = 0;
    for (long i = 0; i < s_q; i++)
        for (long j = 0; j < s_k; j++)
            ones += j <= i + shift;
    return ones;
}

static void formula_at(long n)
{
    char what[128];
    snprintf(what, sizeof what, "(a) ones of the causal mask, n = %ld|zh:（a）因果掩码里 1 的个数，n = %ld",
             n, n);
    expect_int(what, answer_causal_ones(n), count_ones(n, n, 0));
}

CHECK(square_mask_formula)
{
    for (long n = 1; n <= 6; n++)
        formula_at(n);
}

CHECK(end_aligned_3_by_8)
{
    expect_int("(b) ones, s_Q = 3, s_K = 8, end-aligned|zh:（b）1 的个数，s_Q = 3，s_K = 8，右下对齐", answer_end_aligned_ones(),
               count_ones(3, 8, 8 - 3));
}

CHECK(top_left_3_by_8)
{
    expect_int("(c) ones, s_Q = 3, s_K = 8, top-left (is_causal=True)|zh:（c）1 的个数，s_Q = 3，s_K = 8，左上对齐（is_causal=True）",
               answer_top_left_ones(), count_ones(3, 8, 0));
}

/* BEGIN HIDDEN */
CHECK(formula_for_other_n)
{
    formula_at(17);
    formula_at(100);
    formula_at(1000);
    formula_at(2049);
}
/* END HIDDEN */
