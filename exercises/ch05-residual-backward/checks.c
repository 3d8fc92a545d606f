/* Checks of Exercise 5.4.  Two cases worked by hand (all weights zero, so
   y = x + b2 or y = LayerNorm(x)); then the gradients against central
   differences of L = sum y .* G, with y computed here from the definition
   (ReLU network, layer normalisation with gamma = 1, beta = 0) in long
   double.  Every gradient buffer starts at 0.5, to check that it
   accumulates.  Tolerance 1e-6, as in Exercise 5.2. */
#include "grade.h"
#include "residual_backward.h"
#include <math.h>
#include <stdio.h>

typedef struct {
    int d, dff, n;
    double eps;
    NormPlacement where;
} Case;

static int nparams(const Case *c) { return 2 * c->d * c->dff + c->dff + c->d; }

/* the network's parameters in one block, in Ffn's order: w1, b1, w2, b2 */
static Ffn make(const Case *c, double *p)
{
    Ffn f = { c->d, c->dff, p, p + c->d * c->dff, p + c->d * c->dff + c->dff,
              p + 2 * c->d * c->dff + c->dff };
    return f;
}

/* out = (v - mean) / sqrt(biased variance + eps), one row of d */
static void norm_row(long double *out, const long double *v, int d, double eps)
{
    long double mu = 0, var = 0;
    for (int j = 0; j < d; j++)
        mu += v[j];
    mu /= d;
    for (int j = 0; j < d; j++)
        var += (v[j] - mu) * (v[j] - mu);
    var /= d;
    for (int j = 0; j < d; j++)
        out[j] = (v[j] - mu) / sqrtl(var + eps);
}

/* L = sum y .* G; *min_a receives the smallest |pre-activation| (ReLU kinks) */
static long double loss(const Case *c, const double *p, const double *x, const double *G,
                        long double *min_a)
{
    int d = c->d, dff = c->dff;
    const double *w1 = p, *b1 = p + d * dff, *w2 = b1 + dff, *b2 = w2 + dff * d;
    long double in[64], v[64], hid[64], y[64], L = 0;
    if (min_a)
        *min_a = INFINITY;
    for (int t = 0; t < c->n; t++) {
        for (int j = 0; j < d; j++)
            v[j] = x[t * d + j];
        if (c->where == PRE_NORM)
            norm_row(in, v, d, c->eps);
        else
            for (int j = 0; j < d; j++)
                in[j] = v[j];
        for (int i = 0; i < dff; i++) {
            long double a = b1[i];
            for (int j = 0; j < d; j++)
                a += in[j] * w1[j * dff + i];
            if (min_a && fabsl(a) < *min_a)
                *min_a = fabsl(a);
            hid[i] = a > 0 ? a : 0;
        }
        for (int j = 0; j < d; j++) {
            long double s = b2[j];
            for (int i = 0; i < dff; i++)
                s += hid[i] * w2[i * d + j];
            v[j] += s;                              /* x + F(.) */
        }
        if (c->where == POST_NORM)
            norm_row(y, v, d, c->eps);
        else
            for (int j = 0; j < d; j++)
                y[j] = v[j];
        for (int j = 0; j < d; j++)
            L += y[j] * G[t * d + j];
    }
    return L;
}

static double central(double *z, int i, const Case *c, const double *p, const double *x,
                      const double *G)
{
    const double h = 1e-6, keep = z[i];
    z[i] = keep + h;
    double up = z[i];
    long double lu = loss(c, p, x, G, NULL);
    z[i] = keep - h;
    double down = z[i];
    long double ld = loss(c, p, x, G, NULL);
    z[i] = keep;
    return (double)((lu - ld) / (up - down));
}

/* run the student's backward pass TIMES times from buffers at 0.5 and compare
   the gradients of WHICH (1 dx, 2 w1/b1, 4 w2/b2) with TIMES x central
   differences */
static void backward(Case c, unsigned long seed, int which, double b1_shift, int times)
{
    int np = nparams(&c), nd = c.n * c.d;
    double *p = grade_doubles(np), *x = grade_doubles(nd), *G = grade_doubles(nd);
    grade_random(p, np, seed, -1, 1);
    grade_random(x, nd, seed + 1, -2, 2);
    grade_random(G, nd, seed + 2, -1, 1);
    for (int i = 0; i < c.dff; i++)
        p[c.d * c.dff + i] += b1_shift;
    long double min_a;
    loss(&c, p, x, G, &min_a);
    if (min_a < 1e-4)
        grade_fail("grader: a pre-activation is %Lg, too near the ReLU's kink (seed %lu)",
                   "评分程序：某个预激活值为 %Lg，离 ReLU 的折点太近（种子 %lu）", min_a, seed);
    Ffn f = make(&c, p);
    double *gp = grade_doubles(np), *dx = grade_doubles(nd);
    for (int i = 0; i < np; i++)
        gp[i] = 0.5;
    for (int i = 0; i < nd; i++)
        dx[i] = 0.5;
    Ffn g = make(&c, gp);
    LayerNorm ln = { c.d, NULL, NULL, c.eps };
    for (int k = 0; k < times; k++)
        residual_ffn_backward(&f, &g, &ln, c.where, dx, grade_copy(G, nd), grade_copy(x, nd),
                              c.n);
    const char *place = c.where == POST_NORM ? "post-norm" : "pre-norm";
    const char *place_zh = c.where == POST_NORM ? "后归一化" : "前归一化";
    char what[192];
    if (which & 1)
        for (int i = 0; i < nd; i++) {
            snprintf(what, sizeof what, "%s: dx[%d][%d] (started at 0.5)|zh:%s：dx[%d][%d]（初值 0.5）",
                     place, i / c.d, i % c.d, place_zh, i / c.d, i % c.d);
            expect_near(what, dx[i], 0.5 + times * central(x, i, &c, p, x, G));
        }
    static const char *names[4] = { "w1", "b1", "w2", "b2" };
    int start[5] = { 0, c.d * c.dff, c.d * c.dff + c.dff, 2 * c.d * c.dff + c.dff, np };
    for (int part = 0; part < 4; part++) {
        if (!(which & (part < 2 ? 2 : 4)))
            continue;
        for (int i = start[part]; i < start[part + 1]; i++) {
            snprintf(what, sizeof what, "%s: g->%s[%d] (started at 0.5)|zh:%s：g->%s[%d]（初值 0.5）",
                     place, names[part], i - start[part], place_zh, names[part], i - start[part]);
            expect_near(what, gp[i], 0.5 + times * central(p, i, &c, p, x, G));
        }
    }
}

static const Case post = { 4, 6, 3, LAYERNORM_EPS, POST_NORM };
static const Case pre = { 4, 6, 3, LAYERNORM_EPS, PRE_NORM };

CHECK(pre_norm_zero_weights_by_hand)
{
    /* W1 = W2 = 0: F(z) = max(0, b1) 0 + b2 = b2, so y = x + b2 and
       dL/dx = dy; h = max(0, b1) = (0.5, 0) in every row, so g->w2 gains
       h_i times the column sums (5, 7, 9) of dy; W1 and b1 gain nothing. */
    Case c = { 3, 2, 2, LAYERNORM_EPS, PRE_NORM };
    double *p = grade_doubles(nparams(&c));
    for (int i = 0; i < nparams(&c); i++)
        p[i] = 0;
    Ffn f = make(&c, p);
    f.b1[0] = 0.5, f.b1[1] = -0.25;
    f.b2[0] = 1, f.b2[1] = 2, f.b2[2] = 3;
    double x[6] = { 1, -1, 2, 0, 3, -2 }, dy[6] = { 1, 2, 3, 4, 5, 6 };
    double *gp = grade_doubles(nparams(&c)), *dx = grade_doubles(6);
    for (int i = 0; i < nparams(&c); i++)
        gp[i] = 0.5;
    for (int i = 0; i < 6; i++)
        dx[i] = 0.5;
    Ffn g = make(&c, gp);
    LayerNorm ln = { 3, NULL, NULL, LAYERNORM_EPS };
    residual_ffn_backward(&f, &g, &ln, PRE_NORM, dx, grade_copy(dy, 6), grade_copy(x, 6), 2);
    double want_dx[6] = { 1.5, 2.5, 3.5, 4.5, 5.5, 6.5 };
    expect_matrix("dx (started at 0.5)|zh:dx（初值 0.5）", dx, want_dx, 2, 3);
    double want_b2[3] = { 5.5, 7.5, 9.5 }, want_w2[6] = { 3, 4, 5, 0.5, 0.5, 0.5 };
    expect_doubles("g->b2 (started at 0.5)|zh:g->b2（初值 0.5）", g.b2, want_b2, 3);
    expect_matrix("g->w2 (started at 0.5)|zh:g->w2（初值 0.5）", g.w2, want_w2, 2, 3);
    double want_w1[6] = { 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 }, want_b1[2] = { 0.5, 0.5 };
    expect_matrix("g->w1 (started at 0.5)|zh:g->w1（初值 0.5）", g.w1, want_w1, 3, 2);
    expect_doubles("g->b1 (started at 0.5)|zh:g->b1（初值 0.5）", g.b1, want_b1, 2);
}

CHECK(post_norm_two_entries_by_hand)
{
    /* All weights and biases 0: y = LayerNorm(x).  For a row (a, b) with
       u = (a - b)/2, y = (u, -u) / sqrt(u^2 + eps) and
       dy_1/du = eps / (u^2 + eps)^(3/2).  With x = (1, 0), eps = 0.25 and
       dy = G = (1, 0): u = 0.5, dL/du = 0.25 / 0.5^1.5 = 1/sqrt 2, and
       dL/da = -dL/db = 1/(2 sqrt 2).  That is also dL/dz, z = x + F(x), so
       g->b2 gains it too. */
    Case c = { 2, 3, 1, 0.25, POST_NORM };
    double *p = grade_doubles(nparams(&c));
    for (int i = 0; i < nparams(&c); i++)
        p[i] = 0;
    Ffn f = make(&c, p);
    double x[2] = { 1, 0 }, dy[2] = { 1, 0 };
    double *gp = grade_doubles(nparams(&c)), *dx = grade_doubles(2);
    for (int i = 0; i < nparams(&c); i++)
        gp[i] = 0.5;
    dx[0] = dx[1] = 0.5;
    Ffn g = make(&c, gp);
    LayerNorm ln = { 2, NULL, NULL, 0.25 };
    residual_ffn_backward(&f, &g, &ln, POST_NORM, dx, grade_copy(dy, 2), grade_copy(x, 2), 1);
    double want[2] = { 0, 0 };
    GRADE_REFERENCE({
        double r = 1 / (2 * sqrt(2.0));
        want[0] = 0.5 + r;
        want[1] = 0.5 - r;
    });
    expect_doubles("dx, eps = 0.25 (started at 0.5)|zh:dx，eps = 0.25（初值 0.5）", dx, want, 2);
    expect_doubles("g->b2, eps = 0.25 (started at 0.5)|zh:g->b2，eps = 0.25（初值 0.5）", g.b2, want, 2);
}

CHECK(post_norm_dx)
{
    backward(post, 10, 1, 0, 1);
}

CHECK(post_norm_parameter_gradients)
{
    backward(post, 20, 6, 0, 1);
}

CHECK(pre_norm_dx)
{
    backward(pre, 30, 1, 0, 1);
}

CHECK(pre_norm_parameter_gradients)
{
    backward(pre, 40, 6, 0, 1);
}

CHECK(gradients_accumulate)
{
    /* called twice: every gradient twice, on top of the 0.5 */
    backward(post, 50, 7, 0, 2);
    backward(pre, 60, 7, 0, 2);
}

/* BEGIN HIDDEN */
CHECK(other_eps_and_shapes)
{
    Case a = { 8, 20, 5, 0.1, POST_NORM }, b = { 8, 20, 5, 0.1, PRE_NORM };
    backward(a, 70, 7, 0, 1);
    backward(b, 80, 7, 0, 1);
}

CHECK(one_position)
{
    Case a = { 3, 2, 1, LAYERNORM_EPS, POST_NORM }, b = { 3, 2, 1, LAYERNORM_EPS, PRE_NORM };
    backward(a, 90, 7, 0, 1);
    backward(b, 100, 7, 0, 1);
}

CHECK(mostly_inactive_relus)
{
    /* b1 shifted down by 1.5: most pre-activations are negative */
    backward(post, 110, 7, -1.5, 1);
    backward(pre, 120, 7, -1.5, 1);
}
/* END HIDDEN */
