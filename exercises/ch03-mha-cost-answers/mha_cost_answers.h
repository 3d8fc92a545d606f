/* Exercise 3.1: numeric answers.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_MHA_COST_ANSWERS_H
#define EX_MHA_COST_ANSWERS_H

/* The paper's big model: d_model = 1024, h = 16 (so d_K = d_V = 64).
   (a) the parameters of one multi-head attention layer, biases included;
   (b) the multiply-adds of one layer of self-attention over
   s_Q = s_K = 1000 positions, counted as mha_multiply_adds counts them
   (the four projections and, per head, the scores and the weighted sum). */
long long answer_mha_params(void);
long long answer_mha_multiply_adds(void);

#endif
