/* Checks of Exercise 5.2.  The forward pass against GELU(a) = a Phi(a)
   written out here; the backward pass against central differences of
   L = sum y .* G (tolerance 1e-6, as the exercise states), with every
   gradient buffer starting at 0.5 to check that it accumulates. */
#include "grade.h"
#include "gelu_ffn.h"
#include <math.h>
#include <stdio.h>

enum { D = 3, DFF = 5, N = 2 };

static double gelu(double a) { return a * 0.5 * (1 + erf(a / sqrt(2.0))); }

/* the network's parameters in one block, in Ffn's order: w1, b1, w2, b2 */
static Ffn make(double *p)
{
    Ffn f = { D, DFF, p, p + D * DFF, p + D * DFF + DFF, p + D * DFF + DFF + DFF * D };
    return f;
}
enum { NP = D * DFF + DFF + DFF * D + D };

static void reference_forward(double *y, const double *p, const double *x)
{
    const double *w1 = p, *b1 = p + D * DFF, *w2 = b1 + DFF, *b2 = w2 + DFF * D;
    for (int t = 0; t < N; t++)
        for (int j = 0; j < D; j++) {
            long double s = b2[j];
            for (int i = 0; i < DFF; i++) {
                long double a = b1[i];
                for (int c = 0; c < D; c++)
                    a += (long double)x[t * D + c] * w1[c * DFF + i];
                s += gelu((double)a) * w2[i * D + j];
            }
            y[t * D + j] = (double)s;
        }
}

static double loss(const double *p, const double *x, const double *G)
{
    double y[N * D], l = 0;
    reference_forward(y, p, x);
    for (int i = 0; i < N * D; i++)
        l += y[i] * G[i];
    return l;
}

static double central(double *z, int i, const double *p, const double *x, const double *G)
{
    const double h = 1e-6;
    double keep = z[i];
    z[i] = keep + h;
    double up = loss(p, x, G);
    z[i] = keep - h;
    double down = loss(p, x, G);
    z[i] = keep;
    return (up - down) / (2 * h);
}

static void setup(double *p, double *x, double *G, unsigned long seed)
{
    grade_random(p, NP, seed, -1, 1);
    grade_random(x, N * D, seed + 1, -2, 2);
    grade_random(G, N * D, seed + 2, -1, 1);
}

CHECK(gelu_forward_by_hand)
{
    /* W1 = identity-like, b1 = 0: a = x padded; with x = (1, 0, -1) the hidden
       values are GELU(1) = 0.8413447460685429, 0, GELU(-1) = -0.15865525393145707 */
    double *p = grade_doubles(NP);
    for (int i = 0; i < NP; i++)
        p[i] = 0;
    for (int c = 0; c < D; c++)
        p[c * DFF + c] = 1;                     /* w1[c][c] = 1 */
    double x[N * D] = { 1, 0, -1, 0, 0, 0 };
    double *a = grade_doubles(N * DFF), *h = grade_doubles(N * DFF), *y = grade_doubles(N * D);
    Ffn f = make(p);
    ffn_gelu_forward(&f, y, a, h, grade_copy(x, N * D), N);
    expect_near_tol("h[0][0] = GELU(1)", h[0], 0.8413447460685429, 1e-15, 1e-13);
    expect_near_tol("h[0][1] = GELU(0)", h[1], 0.0, 1e-15, 0);
    expect_near_tol("h[0][2] = GELU(-1)", h[2], -0.15865525393145707, 1e-15, 1e-13);
    expect_near_tol("a[0][2]", a[2], -1.0, 1e-15, 0);
}

CHECK(forward_matches_the_definition)
{
    double *p = grade_doubles(NP), x[N * D], G[N * D], want[N * D];
    setup(p, x, G, 10);
    double *a = grade_doubles(N * DFF), *h = grade_doubles(N * DFF), *y = grade_doubles(N * D);
    Ffn f = make(p);
    ffn_gelu_forward(&f, y, a, h, grade_copy(x, N * D), N);
    GRADE_REFERENCE(reference_forward(want, p, x));
    expect_matrix("y", y, want, N, D);
}

/* run forward and backward; compare the gradients of WHICH (1 dx, 2 w1/b1, 4 w2/b2) */
static void backward(unsigned long seed, int which)
{
    double *p = grade_doubles(NP), x[N * D], G[N * D];
    setup(p, x, G, seed);
    Ffn f = make(p);
    double *a = grade_doubles(N * DFF), *h = grade_doubles(N * DFF), *y = grade_doubles(N * D);
    ffn_gelu_forward(&f, y, a, h, x, N);
    double *gp = grade_doubles(NP), *dx = grade_doubles(N * D), *dh = grade_doubles(N * DFF);
    for (int i = 0; i < NP; i++)
        gp[i] = 0.5;
    for (int i = 0; i < N * D; i++)
        dx[i] = 0.5;
    Ffn g = make(gp);
    ffn_gelu_backward(&f, &g, dx, dh, grade_copy(G, N * D), x, a, h, N);
    char what[128];
    if (which & 1)
        for (int i = 0; i < N * D; i++) {
            snprintf(what, sizeof what, "dx[%d][%d] (started at 0.5)|zh:dx[%d][%d]（初值 0.5）",
                     i / D, i % D, i / D, i % D);
            expect_near(what, dx[i], 0.5 + central(x, i, p, x, G));
        }
    static const char *names[4] = { "w1", "b1", "w2", "b2" };
    int start[5] = { 0, D * DFF, D * DFF + DFF, D * DFF + DFF + DFF * D, NP };
    for (int part = 0; part < 4; part++) {
        if (!(which & (part < 2 ? 2 : 4)))
            continue;
        for (int i = start[part]; i < start[part + 1]; i++) {
            snprintf(what, sizeof what, "g->%s[%d] (started at 0.5)|zh:g->%s[%d]（初值 0.5）",
                     names[part], i - start[part], names[part], i - start[part]);
            expect_near(what, gp[i], 0.5 + central(p, i, p, x, G));
        }
    }
}

CHECK(dx_matches_central_differences)
{
    backward(20, 1);
}

CHECK(second_layer_gradients)
{
    backward(30, 4);
}

CHECK(first_layer_gradients)
{
    backward(40, 2);
}

/* BEGIN HIDDEN */
CHECK(all_gradients_other_weights)
{
    backward(50, 7);
}

CHECK(negative_preactivations)
{
    /* GELU'(a) = Phi(a) + a phi(a) is not 0 for a < 0, unlike the ReLU's */
    double *p = grade_doubles(NP), x[N * D], G[N * D];
    setup(p, x, G, 60);
    for (int i = D * DFF; i < D * DFF + DFF; i++)
        p[i] = -1.5;                           /* b1: mostly negative a */
    Ffn f = make(p);
    double *a = grade_doubles(N * DFF), *h = grade_doubles(N * DFF), *y = grade_doubles(N * D);
    ffn_gelu_forward(&f, y, a, h, x, N);
    double *gp = grade_doubles(NP), *dx = grade_doubles(N * D), *dh = grade_doubles(N * DFF);
    for (int i = 0; i < NP; i++)
        gp[i] = 0;
    for (int i = 0; i < N * D; i++)
        dx[i] = 0;
    Ffn g = make(gp);
    ffn_gelu_backward(&f, &g, dx, dh, G, x, a, h, N);
    for (int i = 0; i < N * D; i++)
        expect_near("dx", dx[i], central(x, i, p, x, G));
    for (int i = 0; i < NP; i++)
        expect_near("parameter gradient|zh:参数的梯度", gp[i], central(p, i, p, x, G));
}
/* END HIDDEN */
