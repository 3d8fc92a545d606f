/* Exercise 4.5: find and fix the bug in masked attention.  Do not edit: the
   grader uses its own copy of this header. */
#ifndef EX_MASKED_ROWS_H
#define EX_MASKED_ROWS_H

/* Equation (masked), as attention_masked computes it:
   out[s_q x d_v] = Softmax(kappa Q K^T + M) V, M_ij = 0 where mask[i*s_k + j]
   is 1 and -infinity where it is 0; w[s_q x s_k] receives the weights.  A
   row whose keys are all masked gets zero weights and a zero output.
   q: s_q x d_k, k: s_k x d_k, v: s_k x d_v, row-major; mask is not NULL.
   Finite scores give finite results.  No allocation. */
void masked_rows(double *out, double *w, const double *q, const double *k,
                 const double *v, const unsigned char *mask, int s_q, int s_k,
                 int d_k, int d_v, double kappa);

#endif
