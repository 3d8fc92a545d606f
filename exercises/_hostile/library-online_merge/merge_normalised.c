#include <math.h>
#include <string.h>
#include "merge_normalised.h"
#include "fastattn.h"

double merge_normalised(double *o_a, double lse_a, const double *o_b,
                        double lse_b, int d_v)
{
    /* (m, l, u) = (lse, 1, o): the book's online_merge does the rest */
    OnlinePartial a = { lse_a, isinf(lse_a) ? 0.0 : 1.0, o_a };
    OnlinePartial b = { lse_b, isinf(lse_b) ? 0.0 : 1.0, (double *)o_b };
    if (isinf(lse_a))
        memset(o_a, 0, sizeof *o_a * (size_t)d_v);
    if (isinf(lse_b)) {
        b.m = -INFINITY;
        return isinf(lse_a) ? -INFINITY : lse_a;
    }
    online_merge(&a, &b, d_v);
    if (a.l == 0)
        return -INFINITY;
    for (int c = 0; c < d_v; c++)
        o_a[c] /= a.l;
    return a.m + log(a.l);
}
