/* Exercise 1.5: find and fix the bug in a dilated causal convolution.  Do
   not edit: the grader uses its own copy of this header. */
#ifndef EX_DILATED_CONV_H
#define EX_DILATED_CONV_H

/* Equation (C), as conv1d_forward computes it:
   y_t = b + sum_{o < k, t - o*dilation >= 0} x_{t - o*dilation} W_o.
   x: n x d_in; w: the k blocks W_o (d_in x d_out) stacked, (k*d_in) x d_out;
   b: d_out, or NULL for no bias; y: n x d_out, does not alias x.
   k >= 1, dilation >= 1.  No allocation. */
void dilated_conv(double *y, const double *x, const double *w, const double *b,
                  int n, int d_in, int d_out, int k, int dilation);

#endif
