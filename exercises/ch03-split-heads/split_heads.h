/* Exercise 3.2: splitting and merging the heads of a batch at once.
   Do not edit: the grader uses its own copy of this header. */
#ifndef EX_SPLIT_HEADS_H
#define EX_SPLIT_HEADS_H

/* (B, s, h, d_k) -> (B, h, s, d_k):
   dst[((b*h + i)*s + t)*d_k + c] = src[((b*s + t)*h + i)*d_k + c]
   for all 0 <= b < batch, 0 <= i < h, 0 <= t < s, 0 <= c < d_k.
   dst and src do not overlap; no allocation. */
void split_heads_batched(double *dst, const double *src,
                         int batch, int s, int h, int d_k);
/* The inverse, (B, h, s, d_k) -> (B, s, h, d_k): same parameters. */
void merge_heads_batched(double *dst, const double *src,
                         int batch, int s, int h, int d_k);

#endif
