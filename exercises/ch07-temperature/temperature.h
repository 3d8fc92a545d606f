/* Exercise 7.3: the temperature that gives the largest weight a target value.
   Do not edit: the grader uses its own copy of this header. */
#ifndef EX_TEMPERATURE_H
#define EX_TEMPERATURE_H

/* The T > 0 with max_j Softmax(x / T)_j = target, to a relative error of at
   most 1e-9.  Contract: the maximum of x[0..n) is unique and
   1/n < target < 1; otherwise return -1.  No allocation. */
double temperature_for_max_weight(const double *x, int n, double target);

#endif
