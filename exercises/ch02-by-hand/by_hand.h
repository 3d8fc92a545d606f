/* Exercise 2.1: numeric answers.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_BY_HAND_H
#define EX_BY_HAND_H

/* The three attention weights a_1, a_2, a_3 and Attn(q, K, V) of
   Exercise 2.1, each to four decimal places. */
void by_hand_answers(double w[3], double *attn);

#endif
