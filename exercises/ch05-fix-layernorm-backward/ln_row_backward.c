/* Exercise 5.5 · 练习 5.5: find and fix the bug.  找出并修正错误。
 *
 * This backward pass of one row of layer normalisation agrees with
 * layernorm_backward on some upstream gradients dy but not on others, and
 * its dx do not always sum to zero.  Find the faulty line, say why it is
 * wrong, and fix it; change as little as you can.
 * (ln_row_backward.h says what the function must do.)
 * 这个单行层归一化的反向传播，对有些上游梯度 dy 与 layernorm_backward 一致，
 * 对另一些则不然，而且它给出的 dx 之和不总是零。找出出错的那一行，说明错在哪里，
 * 并改正；改动越少越好。
 * Grade it with:  make grade EX=ch05-fix-layernorm-backward
 */
#include "ln_row_backward.h"
#include <math.h>

void ln_row_backward(double *dx, const double *dy, const double *x,
                     const double *gamma, int d, double eps)
{
    double mu = 0.0, var = 0.0;
    for (int j = 0; j < d; j++)
        mu += x[j];
    mu /= d;
    for (int j = 0; j < d; j++)
        var += (x[j] - mu) * (x[j] - mu);
    double r = 1.0 / sqrt(var / d + eps);
    /* BEGIN FIX */
    double gsum = 0.0, gxsum = 0.0;     /* g = gamma dy: sum g, sum g xhat */
    /* BROKEN */
    //~ double gxsum = 0.0;                 /* g = gamma dy: sum g xhat */
    /* END FIX */
    for (int j = 0; j < d; j++) {
        double g = (gamma ? gamma[j] : 1.0) * dy[j];
        /* BEGIN FIX */
        gsum += g;
        /* BROKEN */
        /* END FIX */
        gxsum += g * (x[j] - mu) * r;
    }
    for (int j = 0; j < d; j++) {
        double xhat = (x[j] - mu) * r, g = (gamma ? gamma[j] : 1.0) * dy[j];
        /* BEGIN FIX */
        dx[j] = r * (g - gsum / d - xhat * gxsum / d);
        /* BROKEN */
        //~ dx[j] = r * (g - xhat * gxsum / d);
        /* END FIX */
    }
}
