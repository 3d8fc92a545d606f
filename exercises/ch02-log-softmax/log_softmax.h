/* Exercise 2.3: the numerically stable log-softmax.  Do not edit: the grader
   uses its own copy of this header. */
#ifndef EX_LOG_SOFTMAX_H
#define EX_LOG_SOFTMAX_H

/* y_j = x_j - max_m x_m - log sum_m exp(x_m - max_m x_m), j = 0..n-1.
   n >= 1; y may be the same memory as x.  Finite input gives finite output. */
void log_softmax(double *y, const double *x, int n);

#endif
