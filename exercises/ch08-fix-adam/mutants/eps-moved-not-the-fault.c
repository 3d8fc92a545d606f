/* A known wrong solution (mutant) of ch08-fix-adam, kept for the grader's tests
   and its feedback: eps was moved inside the square root, which is not the fault (eps is 1e-9 and changes nothing at the first step): the 2.24 lr comes from a bias correction. */
/* Exercise 8.5 · 练习 8.5: find and fix the bug.  找出并修正错误。
 *
 * This Adam update keeps the moments m and v right, and late in training
 * it moves the parameters as model_adam does; but its first step moves
 * every parameter by about 2.24 lr, where the chapter's Adam moves it by
 * lr.  Find the faulty line, say why it is wrong, and fix it; change as
 * little as you can.  (adam_step.h says what the function must do.)
 * 这个 Adam 更新把矩 m 和 v 算得都对，训练后期移动参数的方式也与 model_adam 相同；
 * 但它的第一步把每个参数移动约 2.24 lr，而本章的 Adam 只移动 lr。找出出错的那一行，
 * 说明错在哪里，并改正；改动越少越好。
 * Grade it with:  make grade EX=ch08-fix-adam
 */
#include "adam_step.h"
#include <math.h>

void adam_step(double *theta, double *m, double *v, const double *g, size_t n,
               long t, double lr)
{
    const double beta1 = 0.9, beta2 = 0.98, eps = 1e-9;     /* section 5.3 */
    double bc1 = 1.0 - pow(beta1, (double)t);               /* bias corrections */
    double bc2 = 1.0 - pow(beta1, (double)t);
    for (size_t i = 0; i < n; i++) {
        m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
        v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
        double mhat = m[i] / bc1, vhat = v[i] / bc2;
        theta[i] -= lr * mhat / sqrt(vhat + eps);
    }
}
