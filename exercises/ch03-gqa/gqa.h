/* Exercise 3.3: grouped-query attention.  Do not edit: the grader uses its
   own copy of this header. */
#ifndef EX_GQA_H
#define EX_GQA_H

/* h query heads share g groups of keys and values (g divides h); query head
   i uses group i / (h / g).  q is s_q x h*d_k, k and v are s_k x g*d_k, head
   (or group) i in columns i*d_k .. i*d_k + d_k - 1, as in the chapter.
   out (s_q x h*d_k) receives the concatenated heads (no output projection);
   w receives the h x s_q x s_k weights in head order; kappa = 1/sqrt(d_k).
   work holds at least (s_q + 2*s_k + s_q)*d_k doubles.  No allocation. */
void gqa_attention(double *out, double *w, double *work,
                   const double *q, const double *k, const double *v,
                   int s_q, int s_k, int h, int g, int d_k);

#endif
