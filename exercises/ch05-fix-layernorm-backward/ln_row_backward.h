/* Exercise 5.5: find and fix the bug in the backward pass of layer
   normalisation.  Do not edit: the grader uses its own copy of this header. */
#ifndef EX_LN_ROW_BACKWARD_H
#define EX_LN_ROW_BACKWARD_H

/* One row of layer normalisation, y_j = gamma_j xhat_j + beta_j with
   xhat_j = (x_j - mu) r, mu the row's mean, r = 1/sqrt(sigma^2 + eps) and
   sigma^2 the biased variance (divide by d).  Given dy = dL/dy (d numbers),
   write dx = dL/dx (d numbers; not accumulated).  gamma: d, or NULL for
   gamma = 1.  d >= 1.  No allocation. */
void ln_row_backward(double *dx, const double *dy, const double *x,
                     const double *gamma, int d, double eps);

#endif
