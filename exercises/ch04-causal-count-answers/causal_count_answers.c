/* Exercise 4.1 · 练习 4.1: your answers, worked out on paper.
 * 纸笔算出的答案。
 *
 * (a) a formula in n, written as a C expression; (b) and (c) integers (see
 * causal_count_answers.h).  Check them by counting the ones that
 * mask_causal writes.  Grade it with:  make grade EX=ch04-causal-count-answers
 */
#include "causal_count_answers.h"

long answer_causal_ones(long n)
{
    /* BEGIN SOLUTION */
    return n * (n + 1) / 2;     /* row i holds i + 1 ones */
    /* END SOLUTION */
    /* BEGIN STUB
    (void)n;
    return -1;
       END STUB */
}

long answer_end_aligned_ones(void)
{
    /* BEGIN SOLUTION */
    return 21;                  /* rows of 6, 7 and 8 ones */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

long answer_top_left_ones(void)
{
    /* BEGIN SOLUTION */
    return 6;                   /* rows of 1, 2 and 3 ones */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}
