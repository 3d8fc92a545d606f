/* Exercise 7.5 · 练习 7.5: your answer, to two decimals.
 * 答案，保留两位小数。
 *
 * c in mean |J|_F ~ c / sqrt(d_K), for s_K = 16 (see tie_answers.h).  Find
 * the expression for c on paper, evaluate it numerically (a short program
 * of your own is fine), and write the number as a literal here; compare
 * c / 32 with the saturation table's mean J_u at d_K = 1024.
 * Grade it with:  make grade EX=ch07-tie-answers
 */
#include "tie_answers.h"

double answer_tie_constant(void)
{
    /* BEGIN SOLUTION */
    return 1.77;            /* c = f(0) = 16 * 15 * int phi^2 Phi^14 = 1.76599 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}
