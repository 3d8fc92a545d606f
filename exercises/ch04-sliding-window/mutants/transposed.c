/* A known wrong solution (mutant) of ch04-sliding-window, kept for the grader's tests
   and its feedback: the mask is s_q x s_k row-major: entry (i, j) is mask[i*s_k + j]; you wrote the transpose. */
/* Exercise 4.2 · 练习 4.2: the sliding-window mask.
 * 滑动窗口掩码。
 *
 * Query i stands at p = i + s_k - s_q and sees itself and the window - 1
 * positions before it: mask[i*s_k + j] = 1 exactly when p - window < j <= p.
 * Write every entry, 0 or 1.  Grade it with:  make grade EX=ch04-sliding-window
 */
#include "sliding_window.h"
#include <stddef.h>

void mask_sliding_window(unsigned char *mask, int s_q, int s_k, int window)
{
    for (int i = 0; i < s_q; i++) {
        int p = i + s_k - s_q;                  /* the query's position among the keys */
        for (int j = 0; j < s_k; j++)
            mask[(size_t)j * s_q + i] = (unsigned char)(j > p - window && j <= p);
    }
}
