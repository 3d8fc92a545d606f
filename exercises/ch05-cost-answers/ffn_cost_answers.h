/* Exercise 5.1: numeric answers.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_FFN_COST_ANSWERS_H
#define EX_FFN_COST_ANSWERS_H

/* The paper's big model: d_model = 1024, d_ff = 4096, h = 16, counted as
   Chapter 5 counts (biases included).
   (a) the parameters of one feed-forward network;
   (b) the parameters of one multi-head attention layer;
   (c) the sequence length s (the number of keys) at which a position spends
   as many multiply-adds in the attention sublayer as in the feed-forward
   network: above it, attention spends more. */
long long answer_ffn_params(void);
long long answer_attention_params(void);
long long answer_crossover_length(void);

#endif
