/* Exercise 2.6: find and fix the bug in a one-query attention.  Do not
   edit: the grader uses its own copy of this header. */
#ifndef EX_QUERY_ATTENTION_H
#define EX_QUERY_ATTENTION_H

/* Equation (2) for one query, as attention_query computes it:
   w_i[j] = softmax_j(kappa <q_i, k_j>) and out_i = sum_j w_ij v_j.
   q_i: d_k; k: s_k x d_k; v: s_k x d_v (row-major); w_i: s_k; out_i: d_v.
   s_k >= 1.  Any finite scores, however large or small, give finite
   weights that sum to 1 and a finite output.  No allocation. */
void query_attention(double *out_i, double *w_i, const double *q_i,
                     const double *k, const double *v, int s_k, int d_k,
                     int d_v, double kappa);

#endif
