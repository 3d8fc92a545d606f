/* Exercise 5.4 · 练习 5.4: the backward pass of the residual wrapper around
 * a feed-forward network.
 * 残差外壳（子层为前馈网络）的反向传播。
 *
 * POST_NORM: y = LayerNorm(x + F(x)); PRE_NORM: y = x + F(LayerNorm(x)).
 * Accumulate (+=) into dx and into every array of g.  The library's
 * ffn_forward, ffn_backward, layernorm_forward and layernorm_backward are
 * yours to use.  Grade it with:  make grade EX=ch05-residual-backward
 */
#include "residual_backward.h"
#include <stdlib.h>

void residual_ffn_backward(const Ffn *f, Ffn *g, const LayerNorm *ln,
                           NormPlacement where, double *dx,
                           const double *dy, const double *x, int n)
{
    /* BEGIN SOLUTION */
    size_t nd = (size_t)n * ln->d, nh = (size_t)n * f->d_ff;
    double *z = xcalloc(nd, sizeof *z), *dz = xcalloc(nd, sizeof *dz);
    double *y = xcalloc(nd, sizeof *y);         /* outputs not needed */
    double *h = xcalloc(nh, sizeof *h), *dh = xcalloc(nh, sizeof *dh);
    double *mean = xcalloc((size_t)n, sizeof *mean);
    double *rstd = xcalloc((size_t)n, sizeof *rstd);
    if (where == POST_NORM) {
        ffn_forward(f, z, h, x, n);                 /* z = x + F(x) */
        for (size_t i = 0; i < nd; i++)
            z[i] += x[i];
        layernorm_forward(ln, y, mean, rstd, z, n); /* its mean and rstd */
        layernorm_backward(ln, NULL, dz, dy, z, mean, rstd, n);   /* dL/dz */
        for (size_t i = 0; i < nd; i++)             /* the residual path */
            dx[i] += dz[i];
        ffn_backward(f, g, dx, dh, dz, x, h, n);    /* and through F */
    } else {
        layernorm_forward(ln, z, mean, rstd, x, n); /* z = LayerNorm(x) */
        ffn_forward(f, y, h, z, n);                 /* h = max(0, z W1 + b1) */
        ffn_backward(f, g, dz, dh, dy, z, h, n);    /* dz = dL/dz */
        for (size_t i = 0; i < nd; i++)             /* the residual path */
            dx[i] += dy[i];
        layernorm_backward(ln, NULL, dx, dz, x, mean, rstd, n);   /* and through LN */
    }
    free(z); free(dz); free(y); free(h); free(dh); free(mean); free(rstd);
    /* END SOLUTION */
    /* BEGIN STUB
    (void)f;
    (void)g;
    (void)ln;
    (void)where;
    (void)dx;
    (void)dy;
    (void)x;
    (void)n;
       END STUB */
}
