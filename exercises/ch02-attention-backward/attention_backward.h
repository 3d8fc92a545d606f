/* Exercise 2.5: the backward pass of equation (2).  Do not edit: the grader
   uses its own copy of this header. */
#ifndef EX_ATTENTION_BACKWARD_H
#define EX_ATTENTION_BACKWARD_H

/* For out_i = sum_j w_ij v_j with w_ij = softmax_j(kappa <q_i, k_j>):
   given w_i[s_k] (the weights of attention_query on the same inputs) and
   dout_i[d_v] = dL/d out_i,
     WRITE dq_i[d_k]         = dL/dq_i,
     ADD   dL/dK into dk[s_k x d_k] and dL/dV into dv[s_k x d_v]
   (as matmul_backward accumulates).  k is s_k x d_k, v is s_k x d_v,
   row-major.  No buffer of its own, no allocation. */
void attention_query_backward(double *dq_i, double *dk, double *dv,
                              const double *dout_i, const double *w_i,
                              const double *q_i, const double *k,
                              const double *v, int s_k, int d_k, int d_v,
                              double kappa);

#endif
