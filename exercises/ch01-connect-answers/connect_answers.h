/* Exercise 1.1: numeric answers.  Do not edit: the grader uses its own copy
   of this header. */
#ifndef EX_CONNECT_ANSWERS_H
#define EX_CONNECT_ANSWERS_H

/* n = 1000, k = 5.  (a) layers of contiguous causal convolution that connect
   position 1 to position n; (b) layers of dilated convolution (dilation 5^l
   in layer l) that do; (c) with d = 512 and the expressions of the paper's
   Table 1, the n at which self-attention costs as much per layer as a
   convolution with k = 5. */
long answer_contiguous_layers(void);
long answer_dilated_layers(void);
long answer_equal_cost_n(void);

#endif
