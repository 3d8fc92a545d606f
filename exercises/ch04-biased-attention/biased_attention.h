/* Exercise 4.4: attention with an additive bias.  Do not edit: the grader
   uses its own copy of this header. */
#ifndef EX_BIASED_ATTENTION_H
#define EX_BIASED_ATTENTION_H

/* out[s_q x d_v] = Softmax(kappa Q K^T + B) V, w[s_q x s_k] the weights.
   bias (s_q x s_k) holds finite numbers or -INFINITY.  A row whose biases
   are all -INFINITY gets zero weights and a zero output.  Never NaN.
   q: s_q x d_k, k: s_k x d_k, v: s_k x d_v, row-major.  No allocation. */
void attention_biased(double *out, double *w, const double *q,
                      const double *k, const double *v, const double *bias,
                      int s_q, int s_k, int d_k, int d_v, double kappa);

#endif
