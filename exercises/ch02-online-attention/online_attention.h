/* Exercise 2.4: attention for one query in a single pass over the keys.
   Do not edit: the grader uses its own copy of this header. */
#ifndef EX_ONLINE_ATTENTION_H
#define EX_ONLINE_ATTENTION_H

/* out_i[d_v] = sum_j softmax_j(kappa <q_i, k_j>) v_j  (equation (2)),
   reading each k_j and v_j once, in the order j = 0..s_k-1, keeping only the
   largest score so far, the sum of exp(score - max) and the unnormalised
   output.  k is s_k x d_k and v is s_k x d_v, row-major; s_k >= 1.
   No weight buffer, no allocation. */
void attention_query_online(double *out_i, const double *q_i,
                            const double *k, const double *v, int s_k,
                            int d_k, int d_v, double kappa);

#endif
