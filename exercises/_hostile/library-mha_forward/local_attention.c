/* Exercise 1.2 by the book's own multi-head attention (mha.h), which the
   exercise does not forbid: one head, identity projections (W_Q scaled by
   kappa sqrt(d) to undo mha_forward's 1/sqrt(d_k)), and a band mask
   |i - j| <= radius.  Static buffers, so no allocation is called. */
#include "local_attention.h"
#include "mha.h"
#include <math.h>
#include <stdlib.h>

enum { MAXN = 128, MAXD = 16 };
static double wq[MAXD * MAXD], wid[MAXD * MAXD], weights[MAXN * MAXN];
static double work[1 << 16];
static unsigned char band[MAXN * MAXN];

void local_attention(double *out, double *w, const double *x, int n, int d,
                     int radius, double kappa)
{
    (void)w;
    for (int i = 0; i < d * d; i++)
        wq[i] = wid[i] = 0;
    for (int i = 0; i < d; i++) {
        wq[i * d + i] = kappa * sqrt((double)d);
        wid[i * d + i] = 1;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            band[i * n + j] = abs(i - j) <= radius;
    MhaWeights p = { d, 1, wq, wid, wid, wid, NULL, NULL, NULL, NULL };
    mha_forward(out, weights, work, &p, x, x, x, band, n, n);
}
