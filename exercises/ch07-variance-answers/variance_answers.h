/* Exercise 7.1: numeric answers.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_VARIANCE_ANSWERS_H
#define EX_VARIANCE_ANSWERS_H

/* (a) the variance of q.k / sqrt(64) when the 64 components of q and k are
   independent, mean 0, variance 4 (an integer). */
long answer_variance(void);
/* (b) kappa = 1/m makes the variance of kappa q.k equal to 1: the integer m. */
long answer_kappa_denominator(void);

#endif
