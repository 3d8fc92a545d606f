/* Exercise 7.2: the Frobenius norm of the softmax Jacobian in O(n).
   Do not edit: the grader uses its own copy of this header. */
#ifndef EX_JACOBIAN_FROBENIUS_H
#define EX_JACOBIAN_FROBENIUS_H

/* ||diag(p) - p^T p||_F for a probability vector p of length n >= 1,
   without forming the n x n matrix: O(n) time, no allocation. */
double softmax_jacobian_frobenius(const double *p, int n);

#endif
