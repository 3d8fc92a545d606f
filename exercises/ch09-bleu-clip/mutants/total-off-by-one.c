/* A known wrong solution (mutant) of ch09-bleu-clip, kept for the grader's tests
   and its feedback: a sentence of length L has L - n + 1 n-grams, not L - n. */
/* Exercise 9.1 · 练习 9.1: BLEU's clipped n-gram counts.
 * BLEU 的截断 n-gram 计数。
 *
 * Count the n-grams of the hypothesis, each clipped to how often it occurs
 * in the reference, and the hypothesis's n-grams in all.
 * Grade it with:  make grade EX=ch09-bleu-clip
 */
#include "bleu_clip.h"
#include <string.h>

static int occurrences(const int *gram, const int *s, int len, int n)
{
    int c = 0;
    for (int i = 0; i + n <= len; i++)
        c += memcmp(gram, s + i, (size_t)n * sizeof *s) == 0;
    return c;
}

void bleu_clipped_counts(const int *hyp, int hl, const int *ref, int rl, int n,
                         long *match, long *total)
{
    *match = 0;
    *total = hl >= n ? hl - n : 0;
    for (int i = 0; i + n <= hl; i++) {
        int seen = 0;               /* count each distinct n-gram once */
        for (int j = 0; j < i && !seen; j++)
            seen = memcmp(hyp + i, hyp + j, (size_t)n * sizeof *hyp) == 0;
        if (seen)
            continue;
        int in_hyp = occurrences(hyp + i, hyp, hl, n);
        int in_ref = occurrences(hyp + i, ref, rl, n);
        *match += in_hyp < in_ref ? in_hyp : in_ref;
    }
}
