/* Exercise 7.5: numeric answer.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_TIE_ANSWERS_H
#define EX_TIE_ANSWERS_H

/* Unscaled, the mean of |J|_F over queries is about c / sqrt(d_K) for large
   d_K.  The constant c for s_K = 16 keys, to two decimals (e.g. 1.23). */
double answer_tie_constant(void);

#endif
