/* Exercise 7.6 · 练习 7.6: find and fix the bug.  找出并修正错误。
 *
 * This backward pass of the softmax at temperature T passes the chapter's
 * first test, six equal scores with an upstream gradient that sums to 0;
 * but its gradients change when the same constant is added to every entry
 * of dp, and they do not sum to 0.  Find what is wrong, say why, and fix
 * it; change as little as you can.  (tempered_backward.h says what the
 * function must do.)
 * 这个温度为 T 的 Softmax 的反向传播能通过本章的第一个测试（六个相等的得分，
 * 上游梯度之和为 0）；但给 dp 的每一项加上同一个常数，它的梯度就会变，而且梯度
 * 之和不为 0。找出错在哪里，说明原因，并改正；改动越少越好。
 * Grade it with:  make grade EX=ch07-fix-softmax-backward
 */
#include "tempered_backward.h"
#include <math.h>

void tempered_backward(double *dx, const double *x, const double *dp, int n,
                       double temp)
{
    double max = x[0], z = 0.0;
    for (int j = 1; j < n; j++)
        if (x[j] > max)
            max = x[j];
    for (int j = 0; j < n; j++) {       /* dx holds p for now */
        dx[j] = exp((x[j] - max) / temp);
        z += dx[j];
    }
    /* BEGIN FIX */
    double dot = 0.0;                   /* <p, dp> */
    for (int j = 0; j < n; j++) {
        dx[j] /= z;
        dot += dx[j] * dp[j];
    }
    for (int j = 0; j < n; j++)         /* (J dp)_j = p_j (dp_j - <p, dp>) */
        dx[j] = dx[j] * (dp[j] - dot) / temp;
    /* BROKEN */
    //~ for (int j = 0; j < n; j++)         /* (J dp)_j = p_j dp_j */
    //~     dx[j] = dx[j] / z * dp[j] / temp;
    /* END FIX */
}
