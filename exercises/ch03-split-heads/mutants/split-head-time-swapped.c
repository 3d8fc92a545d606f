/* A known wrong solution (mutant) of ch03-split-heads, kept for the grader's tests
   and its feedback: split: src is batch x s x (h*d_k): position t's head i is at src + ((b*s + t)*h + i)*d_k; you copied without reordering. */
/* Exercise 3.2 · 练习 3.2: split and merge all heads of a batch at once.
 * 一次切分、合并一批序列的所有头。
 *
 * split: (B, s, h, d_k) -> (B, h, s, d_k), so that each head's s x d_k matrix
 * is contiguous; merge: the inverse.  See split_heads.h for the index formula.
 * Grade it with:  make grade EX=ch03-split-heads
 */
#include "split_heads.h"
#include <stddef.h>

void split_heads_batched(double *dst, const double *src,
                         int batch, int s, int h, int d_k)
{
    for (int b = 0; b < batch; b++)
        for (int t = 0; t < s; t++)
            for (int i = 0; i < h; i++)
                for (int c = 0; c < d_k; c++)
                    dst[(((size_t)b * h + i) * s + t) * d_k + c] =
                        src[(((size_t)b * h + i) * s + t) * d_k + c];
}

void merge_heads_batched(double *dst, const double *src,
                         int batch, int s, int h, int d_k)
{
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < h; i++)
            for (int t = 0; t < s; t++)
                for (int c = 0; c < d_k; c++)
                    dst[(((size_t)b * s + t) * h + i) * d_k + c] =
                        src[(((size_t)b * h + i) * s + t) * d_k + c];
}
