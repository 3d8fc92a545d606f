/* The mistake of the mutant causal-strict written another way: zero the
   masks, then open the keys each query may see, stopping before itself. */
#include "batch_mask.h"
#include <stddef.h>
#include <string.h>

void mask_batch(unsigned char *mask, const int *len, int batch, int s,
                int causal)
{
    memset(mask, 0, (size_t)batch * s * s);
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < s; i++) {
            int last = len[b];
            if (causal && i < last)
                last = i;                                  /* the mistake: j < i */
            for (int j = 0; j < last; j++)
                mask[((size_t)b * s + i) * s + j] = 1;
        }
}
