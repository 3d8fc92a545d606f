/* Exercise 8.1: the label-smoothed cross-entropy.  Do not edit: the grader
   uses its own copy of this header. */
#ifndef EX_SMOOTHED_H
#define EX_SMOOTHED_H

/* One position with logits z[V] and right class y (0 <= y < V):
   p = softmax(z), q_k = (1 - eps) [k == y] + eps / V, and the loss
   L = -sum_k q_k log p_k is returned; dz[k] receives dL/dz_k = p_k - q_k.
   Must not overflow for logits as large as 1000 (and differences between
   them as large).  z is not changed.  No allocation. */
double smoothed_loss(const double *z, int V, int y, double eps, double *dz);

#endif
