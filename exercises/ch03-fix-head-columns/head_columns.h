/* Exercise 3.5: find and fix the bug in multi-head attention over packed
   projections.  Do not edit: the grader uses its own copy of this header. */
#ifndef EX_HEAD_COLUMNS_H
#define EX_HEAD_COLUMNS_H

/* The h heads' attention, on projections already made, with the book's
   convention that head i owns columns i*d_k + c (c < d_k) of a row:
   q: s_q x (h*d_k), k and v: s_k x (h*d_k), all row-major.  For each head i,
   w_i = softmax(kappa Q_i K_i^T) (kappa = 1/sqrt(d_k)) goes to
   w + i*s_q*s_k (s_q x s_k), and Q_i's output w_i V_i to head i's columns of
   out (s_q x (h*d_k)).  No allocation. */
void heads_attention(double *out, double *w, const double *q, const double *k,
                     const double *v, int s_q, int s_k, int h, int d_k);

#endif
