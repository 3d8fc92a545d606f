/* Exercise 5.2: the feed-forward network with the GELU.  Do not edit: the
   grader uses its own copy of this header. */
#ifndef EX_GELU_FFN_H
#define EX_GELU_FFN_H
#include "ffn.h"

/* For each of the n rows: a = x W1 + b1, h = GELU(a) = a Phi(a),
   y = h W2 + b2.  a and h are n x d_ff, y is n x d_model. */
void ffn_gelu_forward(const Ffn *f, double *y, double *a, double *h,
                      const double *x, int n);
/* Given dy (n x d_model): accumulate dx += dL/dx and the parameter gradients
   into g (an Ffn of the same shape), as ffn_backward does; x, a, h from the
   forward pass; dh (n x d_ff) is scratch. */
void ffn_gelu_backward(const Ffn *f, Ffn *g, double *dx, double *dh,
                       const double *dy, const double *x, const double *a,
                       const double *h, int n);

#endif
