/* Exercise 1.2: restricted (local) self-attention.  Do not edit: the grader
   uses its own copy of this header. */
#ifndef EX_LOCAL_ATTENTION_H
#define EX_LOCAL_ATTENTION_H

/* x and out are n x d, row-major, and do not overlap.  Row i of out is
     sum over j with |i - j| <= radius, 0 <= j < n, of
     softmax_j(kappa <x_i, x_j>) x_j,
   the softmax normalised over that window only (cut off at the ends of the
   sequence).  w is a caller-owned workspace of 2*radius + 1 doubles.
   radius >= 0; no allocation. */
void local_attention(double *out, double *w, const double *x, int n, int d,
                     int radius, double kappa);

#endif
