/* A known wrong solution (mutant) of ch05-rmsnorm, kept for the grader's tests
   and its feedback: this is a LayerNorm: RMSNorm does not subtract the mean; it divides x by sqrt(mean(x^2) + eps). */
/* Exercise 5.3 · 练习 5.3: RMSNorm, layer normalisation without the mean.
 * RMSNorm：不减均值的层归一化。
 *
 * Divide each row by its root mean square sqrt(mean(x^2) + eps) and multiply
 * by gamma (ln->gamma, NULL meaning ones); no mean, no beta.
 * Grade it with:  make grade EX=ch05-rmsnorm
 */
#include "rmsnorm.h"
#include <math.h>
#include <stddef.h>

void rmsnorm_forward(const LayerNorm *ln, double *y, double *rms_inv,
                     const double *x, int n)
{
    int d = ln->d;
    for (int t = 0; t < n; t++) {
        const double *x_t = x + (size_t)t * d;
        double mu = 0.0, ms = 0.0;
        for (int j = 0; j < d; j++)
            mu += x_t[j] / d;
        for (int j = 0; j < d; j++)
            ms += (x_t[j] - mu) * (x_t[j] - mu);
        ms /= d;
        double r = 1.0 / sqrt(ms + ln->eps);
        if (rms_inv)
            rms_inv[t] = r;
        for (int j = 0; j < d; j++)
            y[(size_t)t * d + j] = (ln->gamma ? ln->gamma[j] : 1.0) * (x_t[j] - mu) * r;
    }
}
