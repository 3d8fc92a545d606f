/* Exercise 2.1 · 练习 2.1: your answers, worked out by hand.
 * 用笔算出的答案。
 *
 * d_K = 2, kappa = 1/sqrt 2, q = (1, 1), keys (1, 0), (0, 1), (1, 1),
 * values 1, 2, 4.  Write the three weights and Attn(q, K, V), each to four
 * decimal places (e.g. w[0] = 0.1234;).  Then check them with the data mode
 * of ch02-attention.  Grade it with:  make grade EX=ch02-by-hand
 */
#include "by_hand.h"

void by_hand_answers(double w[3], double *attn)
{
    /* BEGIN SOLUTION */
    w[0] = 0.2483;          /* e^a / (2 e^a + e^2a), a = 1/sqrt 2 */
    w[1] = 0.2483;
    w[2] = 0.5035;          /* e^2a / (2 e^a + e^2a) */
    *attn = 2.7587;         /* a_1 + 2 a_2 + 4 a_3 */
    /* END SOLUTION */
    /* BEGIN STUB
    (void)w;
    (void)attn;
       END STUB */
}
