/* Exercise 10.4: find and fix the bug in the tiled online softmax.  Do not
   edit: the grader uses its own copy of this header. */
#ifndef EX_TILED_QUERY_H
#define EX_TILED_QUERY_H

/* Equation (2) for one query in one pass over the keys, a tile of TILE keys
   at a time, keeping only (m, l, u) of the online softmax (equation (24))
   between tiles:
   out[d_v] = sum_j w_j v_j, w = softmax(kappa <q, k_j>), as attention_query
   gives it.  k: s_k x d_k, v: s_k x d_v.  s_k >= 1, 1 <= tile <= 64.
   Finite scores give finite results.  No allocation. */
void tiled_query(double *out, const double *q, const double *k, const double *v,
                 int s_k, int d_k, int d_v, double kappa, int tile);

#endif
