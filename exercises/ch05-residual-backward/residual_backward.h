/* Exercise 5.4: the backward pass of the residual wrapper around a
   feed-forward network.  Do not edit: the grader uses its own copy of this
   header. */
#ifndef EX_RESIDUAL_BACKWARD_H
#define EX_RESIDUAL_BACKWARD_H
#include "ffn.h"
#include "layernorm.h"
#include "residual.h"

/* y[n x d] = residual_sublayer(x) with the sublayer F = ffn_sublayer of f
   (the ReLU network of ffn_forward), d = ln->d = f->d_model:
     POST_NORM: y = LayerNorm(x + F(x));  PRE_NORM: y = x + F(LayerNorm(x)).
   The layer normalisation has ln->gamma == ln->beta == NULL (gamma = 1,
   beta = 0) and the epsilon ln->eps.  Given dy = dL/dy (n x d), accumulate
   dx += dL/dx (n x d) and the gradients of f's w1, b1, w2, b2 into the same
   arrays of g (an Ffn of the same shape): add, never overwrite.  Recompute
   from x whatever intermediate values it needs, in memory it allocates and
   frees itself; x and dy are not changed. */
void residual_ffn_backward(const Ffn *f, Ffn *g, const LayerNorm *ln,
                           NormPlacement where, double *dx,
                           const double *dy, const double *x, int n);

#endif
