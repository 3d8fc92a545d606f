/* Exercise 5.1 · 练习 5.1: your answers, worked out on paper.
 * 纸笔算出的答案。
 *
 * d_model = 1024, d_ff = 4096, h = 16 (see ffn_cost_answers.h).  Return the
 * three integers; check the first two with ffn_param_count and
 * mha_param_count.  Grade it with:  make grade EX=ch05-cost-answers
 */
#include "ffn_cost_answers.h"

long long answer_ffn_params(void)
{
    /* BEGIN SOLUTION */
    return 8393728;         /* 2 d d_ff + d_ff + d */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

long long answer_attention_params(void)
{
    /* BEGIN SOLUTION */
    return 4198400;         /* 4 d^2 + 4 d */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

long long answer_crossover_length(void)
{
    /* BEGIN SOLUTION */
    return 2048;            /* 4 d^2 + 2 s d = 2 d d_ff at s = d_ff - 2 d */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}
