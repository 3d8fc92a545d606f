/* A known wrong solution (mutant) of ch05-gelu-ffn, kept for the grader's tests
   and its feedback: you use the ReLU's derivative (1 for a > 0, else 0); the GELU's is Phi(a) + a phi(a). */
/* Exercise 5.2 · 练习 5.2: the feed-forward network with the GELU.
 * 使用 GELU 的前馈网络：前向与反向。
 *
 * GELU(a) = a Phi(a), Phi(a) = 0.5 (1 + erf(a / sqrt 2)); its derivative is
 * Phi(a) + a phi(a), phi the standard normal density.  The backward pass
 * accumulates (+=) into dx and into every array of g.
 * Grade it with:  make grade EX=ch05-gelu-ffn
 */
#include "gelu_ffn.h"
#include <math.h>
#include <stddef.h>

static double phi_cdf(double a) { return 0.5 * (1.0 + erf(a / sqrt(2.0))); }
static double phi_pdf(double a) { return exp(-0.5 * a * a) / sqrt(2.0 * M_PI); }

void ffn_gelu_forward(const Ffn *f, double *y, double *a, double *h,
                      const double *x, int n)
{
    int d = f->d_model, dff = f->d_ff;
    for (int t = 0; t < n; t++) {
        for (int j = 0; j < dff; j++) {         /* a = x W1 + b1, h = GELU(a) */
            double s = f->b1[j];
            for (int i = 0; i < d; i++)
                s += x[(size_t)t * d + i] * f->w1[(size_t)i * dff + j];
            a[(size_t)t * dff + j] = s;
            h[(size_t)t * dff + j] = s * phi_cdf(s);
        }
        for (int j = 0; j < d; j++) {           /* y = h W2 + b2 */
            double s = f->b2[j];
            for (int i = 0; i < dff; i++)
                s += h[(size_t)t * dff + i] * f->w2[(size_t)i * d + j];
            y[(size_t)t * d + j] = s;
        }
    }
}

void ffn_gelu_backward(const Ffn *f, Ffn *g, double *dx, double *dh,
                       const double *dy, const double *x, const double *a,
                       const double *h, int n)
{
    int d = f->d_model, dff = f->d_ff;
    for (int t = 0; t < n; t++) {
        const double *dy_t = dy + (size_t)t * d, *h_t = h + (size_t)t * dff;
        double *dh_t = dh + (size_t)t * dff;
        for (int j = 0; j < d; j++)
            g->b2[j] += dy_t[j];
        for (int i = 0; i < dff; i++) {         /* dW2 += h^T dy; dh = dy W2^T */
            double s = 0.0;
            for (int j = 0; j < d; j++) {
                g->w2[(size_t)i * d + j] += h_t[i] * dy_t[j];
                s += dy_t[j] * f->w2[(size_t)i * d + j];
            }
            double a_ti = a[(size_t)t * dff + i];    /* da = dh GELU'(a) */
            dh_t[i] = a_ti > 0 ? s : 0.0;
        }
        for (int j = 0; j < dff; j++)
            g->b1[j] += dh_t[j];
        for (int i = 0; i < d; i++) {           /* dW1 += x^T da; dx += da W1^T */
            double s = 0.0;
            for (int j = 0; j < dff; j++) {
                g->w1[(size_t)i * dff + j] += x[(size_t)t * d + i] * dh_t[j];
                s += dh_t[j] * f->w1[(size_t)i * dff + j];
            }
            dx[(size_t)t * d + i] += s;
        }
    }
}
