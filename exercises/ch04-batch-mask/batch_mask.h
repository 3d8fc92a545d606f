/* Exercise 4.3: the masks of a padded batch.  Do not edit: the grader uses
   its own copy of this header. */
#ifndef EX_BATCH_MASK_H
#define EX_BATCH_MASK_H

/* One s x s self-attention mask per sentence, sentence b's at mask + b*s*s:
   mask[b*s*s + i*s + j] = 1 when key j is a real token (j < len[b]) and, if
   causal is nonzero, j <= i; 0 otherwise.  1 <= len[b] <= s.  No allocation. */
void mask_batch(unsigned char *mask, const int *len, int batch, int s,
                int causal);

#endif
