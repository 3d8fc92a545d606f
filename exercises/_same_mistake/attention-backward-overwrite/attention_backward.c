/* The mistake of the mutant overwrite-dk written another way: the softmax
   backward through <dout_i, out_i>, dk written in a loop of its own. */
#include "attention_backward.h"
#include <stddef.h>

static double dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int c = 0; c < n; c++)
        s += a[c] * b[c];
    return s;
}

void attention_query_backward(double *dq_i, double *dk, double *dv,
                              const double *dout_i, const double *w_i,
                              const double *q_i, const double *k,
                              const double *v, int s_k, int d_k, int d_v,
                              double kappa)
{
    double mean = 0.0;                  /* <w_i, dw_i> */
    for (int j = 0; j < s_k; j++)
        mean += w_i[j] * dot(dout_i, v + (size_t)j * d_v, d_v);
    for (int c = 0; c < d_k; c++) {
        double s = 0.0;
        for (int j = 0; j < s_k; j++)
            s += w_i[j] * (dot(dout_i, v + (size_t)j * d_v, d_v) - mean) * k[(size_t)j * d_k + c];
        dq_i[c] = kappa * s;
    }
    for (int j = 0; j < s_k; j++) {
        double g = kappa * w_i[j] * (dot(dout_i, v + (size_t)j * d_v, d_v) - mean);
        for (int c = 0; c < d_k; c++)
            dk[(size_t)j * d_k + c] = g * q_i[c];          /* the mistake: = */
        for (int c = 0; c < d_v; c++)
            dv[(size_t)j * d_v + c] += w_i[j] * dout_i[c];
    }
}
