/* Exercise 6.3: rotary position embedding (RoPE).  Do not edit: the grader
   uses its own copy of this header. */
#ifndef EX_ROPE_H
#define EX_ROPE_H

/* Rotates the n rows of x (n x d, d even) in place.  Pair i of row t is
   [a, b] = [x[t*d + 2i], x[t*d + 2i + 1]], the columns 2i and 2i + 1 that
   carry sin and cos in the positional encoding, equation (15); it becomes
   [a, b] R(theta) with theta = (t + offset) omega_i, omega_i = 10000^(-2i/d),
   and
   R(theta) = [[cos theta, -sin theta], [sin theta, cos theta]]:
     [a cos theta + b sin theta,  -a sin theta + b cos theta].
   No allocation. */
void rope_forward(double *x, int n, int d, int offset);

#endif
