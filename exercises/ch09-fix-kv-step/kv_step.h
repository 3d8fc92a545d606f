/* Exercise 9.2: find and fix the bug in one step of attention with a
   key-value cache.  Do not edit: the grader uses its own copy of this
   header. */
#ifndef EX_KV_STEP_H
#define EX_KV_STEP_H

/* One decoding step of causal self-attention with a cache.  k_cache
   (cap x d_k) and v_cache (cap x d_v) hold in their first len rows the keys
   and values of positions 0..len-1.  The new position is len, with query
   q, key k and value v: append k and v as row len of the caches, then
   write out[d_v] = row len of Softmax(kappa Q K^T + M) V under the causal
   mask, that is the attention of q over positions 0..len, and the weights
   into w (len + 1 of them).  Return the new length, len + 1.
   0 <= len < cap.  No allocation. */
int kv_step(double *out, double *w, double *k_cache, double *v_cache, int len,
            const double *q, const double *k, const double *v, int d_k,
            int d_v, double kappa);

#endif
