/* A known wrong solution (mutant) of ch08-smoothed-loss, kept for the grader's tests
   and its feedback: the loss is -log p_y, the unsmoothed one, while the gradient uses q: the loss must be -sum_k q_k log p_k with the same q. */
/* Exercise 8.1 · 练习 8.1: the label-smoothed cross-entropy and its gradient.
 * 带标签平滑的交叉熵及其梯度。
 *
 * q_k = (1 - eps) [k == y] + eps / V;  L = -sum_k q_k log softmax(z)_k;
 * dz_k = softmax(z)_k - q_k.
 * Grade it with:  make grade EX=ch08-smoothed-loss
 */
#include "smoothed.h"
#include <math.h>

double smoothed_loss(const double *z, int V, int y, double eps, double *dz)
{
    double m = z[0];
    for (int k = 1; k < V; k++)
        if (z[k] > m)
            m = z[k];
    double sum = 0.0;
    for (int k = 0; k < V; k++)
        sum += exp(z[k] - m);
    double lse = m + log(sum), loss = 0.0;  /* log sum_k exp(z_k) */
    for (int k = 0; k < V; k++) {
        double q = eps / V + (k == y ? 1.0 - eps : 0.0);
        loss -= (k == y) * (z[k] - lse);
        dz[k] = exp(z[k] - lse) - q;
    }
    return loss;
}
