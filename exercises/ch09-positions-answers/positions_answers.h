/* Exercise 9.3: numeric answers.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_POSITIONS_ANSWERS_H
#define EX_POSITIONS_ANSWERS_H

/* Greedy decoding of a sentence that ends after n tokens (EOS included)
   calls the scorer for the prefixes of lengths 1, ..., n.
   (a) the decoder positions it computes when it recomputes the prefix,
       for n = 12;
   (b) the positions it computes with the key-value cache, for n = 12;
   (c) three sentences end after 6, 8 and 10 tokens: how much the mean of
       the positions recomputed exceeds m(m+1)/2, m their mean length, to
       three decimals (e.g. 1.234). */
long long answer_recomputed_positions(void);
long long answer_cached_positions(void);
double answer_excess_over_mean(void);

#endif
