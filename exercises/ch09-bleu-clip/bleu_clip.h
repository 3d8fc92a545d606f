/* Exercise 9.1: BLEU's clipped n-gram counts.  Do not edit: the grader uses
   its own copy of this header. */
#ifndef EX_BLEU_CLIP_H
#define EX_BLEU_CLIP_H

/* For one hypothesis hyp[0..hl-1] and its reference ref[0..rl-1] (tokens
   are ints) and an order n >= 1: *match = the sum over the distinct n-grams
   g of the hypothesis of min(count of g in hyp, count of g in ref), and
   *total = the number of n-grams in the hypothesis, max(0, hl - n + 1).
   Reads hyp and ref without changing them.  It may allocate memory (and
   free it), though counting needs none. */
void bleu_clipped_counts(const int *hyp, int hl, const int *ref, int rl, int n,
                         long *match, long *total);

#endif
