/* A known wrong solution (mutant) of ch01-local-attention, kept for the grader's tests
   and its feedback: the scale kappa is missing: the scores are kappa <x_i, x_j>. */
/* Exercise 1.2 · 练习 1.2: restricted self-attention over a window.
 * 受限自注意力：查询 i 只看距离不超过 radius 的位置。
 *
 * For each query i the window is j = max(0, i - radius) .. min(n - 1, i + radius).
 * Put the window's scores kappa <x_i, x_j> in w, take their (stable) softmax
 * and sum the weighted rows.  Do not allocate.
 * Grade it with:  make grade EX=ch01-local-attention
 */
#include "local_attention.h"
#include <math.h>
#include <stddef.h>

void local_attention(double *out, double *w, const double *x, int n, int d,
                     int radius, double kappa)
{
    for (int i = 0; i < n; i++) {
        int lo = i - radius < 0 ? 0 : i - radius;
        int hi = i + radius > n - 1 ? n - 1 : i + radius;
        const double *x_i = x + (size_t)i * d;
        double max = -INFINITY, z = 0.0;
        for (int j = lo; j <= hi; j++) {        /* scores, in w[0 .. hi-lo] */
            double s = 0.0;
            for (int c = 0; c < d; c++)
                s += x_i[c] * x[(size_t)j * d + c];
            w[j - lo] = s;
            if (w[j - lo] > max)
                max = w[j - lo];
        }
        for (int j = lo; j <= hi; j++)          /* the window's softmax */
            z += (w[j - lo] = exp(w[j - lo] - max));
        double *out_i = out + (size_t)i * d;
        for (int c = 0; c < d; c++)
            out_i[c] = 0.0;
        for (int j = lo; j <= hi; j++)
            for (int c = 0; c < d; c++)
                out_i[c] += w[j - lo] / z * x[(size_t)j * d + c];
    }
}
