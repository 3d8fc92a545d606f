/* Exercise 7.1 · 练习 7.1: your answers.
 * 你的答案。
 *
 * q, k in R^64, components independent, mean 0, variance 4.
 * (a) the variance of q.k / sqrt(64); (b) the m with kappa = 1/m giving
 * kappa q.k variance 1.  Return the integers; check them by experiment with
 * appA-matrix --std 2.  Grade it with:  make grade EX=ch07-variance-answers
 */
#include "variance_answers.h"

long answer_variance(void)
{
    /* BEGIN SOLUTION */
    return 16;              /* Var(q.k) = 64 * 4 * 4 = 1024; divided by 64 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

long answer_kappa_denominator(void)
{
    /* BEGIN SOLUTION */
    return 32;              /* kappa^2 * 1024 = 1 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}
