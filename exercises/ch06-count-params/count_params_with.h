/* Exercise 6.2: the parameter count with and without sharing, with and
   without final layer normalisations.  Do not edit: the grader uses its own
   copy of this header. */
#ifndef EX_COUNT_PARAMS_WITH_H
#define EX_COUNT_PARAMS_WITH_H
#include "params.h"

/* The parameters of the whole encoder-decoder model c, counted as
   count_params counts them (biases and LayerNorm's gamma and beta included).
   shared == 1: one vocab x d_model matrix serves as the encoder's input
   embedding, the decoder's input embedding and the output projection (the
   same total as count_params(c).total); shared == 0: three separate such
   matrices (the output projection still without a bias).
   final_norms == 1: one more layer normalisation at the end of the encoder
   stack and one at the end of the decoder stack; final_norms == 0: none.
   Uses every field of c that matters (layers, d_model, d_ff, heads, d_k, d_v,
   vocab), for any configuration, not only those of Table 3. */
long long count_params_with(const ModelConfig *c, int shared, int final_norms);

#endif
