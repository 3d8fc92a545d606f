/* Exercise 6.4: a stack of encoder layers.  Do not edit: the grader uses its
   own copy of this header. */
#ifndef EX_ENCODER_STACK_H
#define EX_ENCODER_STACK_H
#include "transformer.h"

/* Applies layers[0], layers[1], ..., layers[n_layers - 1] (n_layers >= 1,
   all of one shape: d = layers[0].d_model, h = layers[0].heads,
   d_ff = layers[0].d_ff) in turn to x[n x d], each as encoder_layer_forward
   with the same mask (n x n, or NULL) and placement; then, when final is not
   NULL, the layer normalisation final (final->d = d, with its own gamma,
   beta and eps).  y[n x d] receives the result; it overlaps neither x nor
   work, and x is not changed.  work holds at least
   layer_work_size(n, n, d, h, d_ff) + 2 n d doubles, of any contents on
   entry; nothing else is needed. */
void encoder_stack_forward(const EncoderLayer *layers, int n_layers,
                           const LayerNorm *final, double *y,
                           const double *x, int n,
                           const unsigned char *mask, NormPlacement where,
                           double *work);

#endif
