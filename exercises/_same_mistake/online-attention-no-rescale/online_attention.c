/* The mistake of the mutant no-rescale-out written another way: the sum is
   kept as a running normalised mean's denominator, the output is never
   brought to the new maximum. */
#include "online_attention.h"
#include <math.h>
#include <stddef.h>

void attention_query_online(double *out_i, const double *q_i,
                            const double *k, const double *v, int s_k,
                            int d_k, int d_v, double kappa)
{
    double best = -INFINITY, sum = 0.0;
    for (int c = 0; c < d_v; c++)
        out_i[c] = 0.0;
    for (int j = 0; j < s_k; j++) {
        double score = 0.0;
        for (int c = 0; c < d_k; c++)
            score += kappa * q_i[c] * k[(size_t)j * d_k + c];
        double newbest = score > best ? score : best;
        sum = sum * exp(best - newbest) + exp(score - newbest);
        best = newbest;
        for (int c = 0; c < d_v; c++)                     /* the mistake: no rescale */
            out_i[c] += exp(score - best) * v[(size_t)j * d_v + c];
    }
    for (int c = 0; c < d_v; c++)
        out_i[c] = out_i[c] / sum;
}
