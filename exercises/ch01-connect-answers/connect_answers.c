/* Exercise 1.1 · 练习 1.1: your answers, worked out on paper.
 * 纸笔算出的答案。
 *
 * n = 1000, k = 5, d = 512 (see connect_answers.h).  Return the three
 * integers; check them with --connect and --table.
 * Grade it with:  make grade EX=ch01-connect-answers
 */
#include "connect_answers.h"

long answer_contiguous_layers(void)
{
    /* BEGIN SOLUTION */
    return 250;             /* ceil((n - 1) / (k - 1)) */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

long answer_dilated_layers(void)
{
    /* BEGIN SOLUTION */
    return 5;               /* k^L - 1 >= n - 1: 5^5 = 3125 >= 1000 > 625 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

long answer_equal_cost_n(void)
{
    /* BEGIN SOLUTION */
    return 2560;            /* n^2 d = k n d^2 when n = k d */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}
