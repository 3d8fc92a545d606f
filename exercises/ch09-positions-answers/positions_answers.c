/* Exercise 9.3 · 练习 9.3: your answers, worked out on paper.
 * 纸笔算出的答案。
 *
 * See positions_answers.h for the three questions.  Return the numbers;
 * the record of Section 9.9 (ch09-translate --kv-bench) counts the same
 * positions over 400 sentences.  Grade it with:
 *   make grade EX=ch09-positions-answers
 */
#include "positions_answers.h"

long long answer_recomputed_positions(void)
{
    /* BEGIN SOLUTION */
    return 78;              /* 1 + 2 + ... + 12 = 12 * 13 / 2 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

long long answer_cached_positions(void)
{
    /* BEGIN SOLUTION */
    return 12;              /* one position a step */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

double answer_excess_over_mean(void)
{
    /* BEGIN SOLUTION */
    return 1.333;           /* (21 + 36 + 55) / 3 - 8 * 9 / 2 = 4/3, half the variance 8/3 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}
