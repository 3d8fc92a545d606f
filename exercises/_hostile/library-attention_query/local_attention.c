#include "local_attention.h"
#include "attention.h"

void local_attention(double *out, double *w, const double *x, int n, int d,
                     int radius, double kappa)
{
    for (int i = 0; i < n; i++) {
        int lo = i - radius < 0 ? 0 : i - radius;
        int hi = i + radius > n - 1 ? n - 1 : i + radius;
        const double *win = x + (long)lo * d;
        attention_query(out + (long)i * d, w, x + (long)i * d, win, win, hi - lo + 1, d, d, kappa);
    }
}
