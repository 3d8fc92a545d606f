/* Exercise 4.1: numeric answers.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_CAUSAL_COUNT_ANSWERS_H
#define EX_CAUSAL_COUNT_ANSWERS_H

/* (a) the number of ones in the causal mask with s_Q = s_K = n, as a formula
   in n written as a C expression (n >= 1; the grader tries several n);
   (b) the ones in the causal mask with s_Q = 3, s_K = 8 under the book's
   end-aligned convention (query i sees keys j <= i + s_K - s_Q);
   (c) the same under PyTorch's top-left convention of is_causal=True
   (query i sees keys j <= i). */
long answer_causal_ones(long n);
long answer_end_aligned_ones(void);
long answer_top_left_ones(void);

#endif
