/* A known wrong solution (mutant) of ch04-batch-mask, kept for the grader's tests
   and its feedback: the masks of the batch are s x s each: mask b starts at mask + b*s*s. */
/* Exercise 4.3 · 练习 4.3: the self-attention masks of a padded batch.
 * 填充后的一批句子的自注意力掩码。
 *
 * Sentence b has len[b] real tokens, then padding.  Mask the padding keys,
 * and when causal is nonzero also every key after the query ("and").
 * Write every entry.  Grade it with:  make grade EX=ch04-batch-mask
 */
#include "batch_mask.h"
#include <stddef.h>

void mask_batch(unsigned char *mask, const int *len, int batch, int s,
                int causal)
{
    for (int b = 0; b < batch; b++) {
        unsigned char *m = mask + (size_t)b * s;
        for (int i = 0; i < s; i++)
            for (int j = 0; j < s; j++)
                m[(size_t)i * s + j] = (unsigned char)(j < len[b] && (!causal || j <= i));
    }
}
