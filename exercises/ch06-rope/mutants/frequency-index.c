/* A known wrong solution (mutant) of ch06-rope, kept for the grader's tests
   and its feedback: pair i turns at omega_i = 10000^(-2i/d) (the exponent counts dimensions, two per pair). */
/* Exercise 6.3 · 练习 6.3: rotary position embedding (RoPE).
 * 旋转位置编码（RoPE）。
 *
 * Rotate each pair [x_2i, x_2i+1] of row t by the angle (t + offset) omega_i,
 * multiplying the row vector by R(theta) on the right as in equation
 * (pe-rotation).  In place; do not allocate.
 * Grade it with:  make grade EX=ch06-rope
 */
#include "rope.h"
#include <math.h>
#include <stddef.h>

void rope_forward(double *x, int n, int d, int offset)
{
    for (int i = 0; i < d / 2; i++) {
        double omega = pow(10000.0, -1.0 * i / d);
        for (int t = 0; t < n; t++) {
            double theta = (double)(t + offset) * omega;
            double c = cos(theta), s = sin(theta);
            double *p = x + (size_t)t * d + 2 * i;
            double a = p[0], b = p[1];
            p[0] = a * c + b * s;               /* [a, b] R(theta) */
            p[1] = -a * s + b * c;
        }
    }
}
