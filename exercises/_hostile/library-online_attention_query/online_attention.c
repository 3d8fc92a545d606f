#include "online_attention.h"
#include "fastattn.h"

void attention_query_online(double *out_i, const double *q_i,
                            const double *k, const double *v, int s_k,
                            int d_k, int d_v, double kappa)
{
    online_attention_query(out_i, q_i, k, v, s_k, d_k, d_v, kappa);
}
