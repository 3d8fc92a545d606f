/* Exercise 7.6: find and fix the bug in the backward pass of a softmax at
   temperature T.  Do not edit: the grader uses its own copy of this header. */
#ifndef EX_TEMPERED_BACKWARD_H
#define EX_TEMPERED_BACKWARD_H

/* p = Softmax(x / T) over n scores x; given dp = dL/dp, write
   dx = dL/dx = (1/T) J dp, J_jm = p_j (delta_jm - p_m) the softmax's
   Jacobian.  n >= 1, T > 0; finite scores give finite results.  dx may use
   its n entries as scratch before the final values are written.
   No allocation. */
void tempered_backward(double *dx, const double *x, const double *dp, int n,
                       double temp);

#endif
