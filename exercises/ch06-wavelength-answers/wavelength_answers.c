/* Exercise 6.1 · 练习 6.1: your answers, to four significant digits.
 * 答案，各保留四位有效数字。
 *
 * d_model = 512 (see wavelength_answers.h); wavelengths in positions.
 * Write each number as a literal, e.g. return 1.234; or return 1.234e5;
 * Grade it with:  make grade EX=ch06-wavelength-answers
 */
#include "wavelength_answers.h"

double answer_shortest_wavelength(void)
{
    /* BEGIN SOLUTION */
    return 6.283;           /* 2 pi: omega_0 = 1 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

double answer_longest_wavelength(void)
{
    /* BEGIN SOLUTION */
    return 6.061e4;         /* 2 pi 10000^(510/512) = 60611.5 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}

double answer_bound_factor(void)
{
    /* BEGIN SOLUTION */
    return 1.037;           /* 10000^(2/512) = 1.03663 */
    /* END SOLUTION */
    /* BEGIN STUB
    return -1;
       END STUB */
}
