/* Exercise 6.5: find and fix the bug in the sinusoidal positional
   encoding.  Do not edit: the grader uses its own copy of this header. */
#ifndef EX_SINUSOIDS_H
#define EX_SINUSOIDS_H

/* As positional_encoding: pe[rows x d_model] with
   pe[pos][2i] = sin(pos w_i), pe[pos][2i+1] = cos(pos w_i),
   w_i = 10000^(-2i/d_model).  d_model even, >= 2.  No allocation. */
void sinusoids(double *pe, int rows, int d_model);

#endif
