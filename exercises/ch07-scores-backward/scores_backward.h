/* Exercise 7.4: the gradient that reaches the query from the scores.
   Do not edit: the grader uses its own copy of this header. */
#ifndef EX_SCORES_BACKWARD_H
#define EX_SCORES_BACKWARD_H

/* With scores x_j = kappa <q, k_j>: dq[0..d_k) = kappa sum_j dx[j] k_j
   (written, not accumulated).  k is s_k x d_k, row-major.  No allocation. */
void scores_backward_query(double *dq, const double *dx, const double *k,
                           int s_k, int d_k, double kappa);

#endif
