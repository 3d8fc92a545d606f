/* Exercise 4.2: the sliding-window mask.  Do not edit: the grader uses its
   own copy of this header. */
#ifndef EX_SLIDING_WINDOW_H
#define EX_SLIDING_WINDOW_H

/* Aligned at the end like mask_causal: query i stands at position
   p = i + s_k - s_q, and mask[i*s_k + j] is 1 when p - window < j <= p,
   0 otherwise.  window >= 1, s_q <= s_k.  No allocation. */
void mask_sliding_window(unsigned char *mask, int s_q, int s_k, int window);

#endif
