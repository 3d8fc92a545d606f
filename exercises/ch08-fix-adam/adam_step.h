/* Exercise 8.5: find and fix the bug in an Adam update.  Do not edit: the
   grader uses its own copy of this header. */
#ifndef EX_ADAM_STEP_H
#define EX_ADAM_STEP_H
#include <stddef.h>

/* Update t (t >= 1: 1 for the first) of Adam with the paper's
   beta1 = 0.9, beta2 = 0.98, eps = 1e-9, as model_adam does, for n
   parameters theta with gradients g:
     m = beta1 m + (1 - beta1) g,  v = beta2 v + (1 - beta2) g^2,
     theta -= lr mhat / (sqrt(vhat) + eps),
     mhat = m / (1 - beta1^t),  vhat = v / (1 - beta2^t).
   theta, m and v are updated in place.  No allocation. */
void adam_step(double *theta, double *m, double *v, const double *g, size_t n,
               long t, double lr);

#endif
