/* Exercise 3.1 · 练习 3.1: your answers, worked out on paper.
 * 纸笔算出的答案。
 *
 * d_model = 1024, h = 16, s_Q = s_K = 1000 (see mha_cost_answers.h).
 * Return the two integers; check them against mha_param_count and
 * mha_multiply_adds.  Grade it with:  make grade EX=ch03-mha-cost-answers
 */
#include "mha_cost_answers.h"

long long answer_mha_params(void)
{
    /* BEGIN SOLUTION */
    return 4198400;         /* 4 d^2 + 4 d with d = 1024 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

long long answer_mha_multiply_adds(void)
{
    /* BEGIN SOLUTION */
    return 6242304000;      /* 2 (s_Q + s_K) d^2 + h * 2 s_Q s_K d_K */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}
