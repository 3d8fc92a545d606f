/* Checks of Exercise 2.5 (backward of equation (2)).  The expected gradients
   are central differences of L = <dout_i, Attn(q_i, K, V)>, with the forward
   pass written out here; or worked by hand. */
#include "grade.h"
#include "attention_backward.h"
#include <math.h>
#include <stdio.h>

enum { MAXS = 64, MAXD = 16 };

/* equation (2): out[d_v] and the weights w[s_k] */
static void forward(double *out, double *w, const double *q, const double *k,
                    const double *v, int s_k, int d_k, int d_v, double kappa)
{
    double max = -INFINITY, z = 0;
    for (int j = 0; j < s_k; j++) {
        double s = 0;
        for (int c = 0; c < d_k; c++)
            s += q[c] * k[j * d_k + c];
        w[j] = kappa * s;
        if (w[j] > max)
            max = w[j];
    }
    for (int j = 0; j < s_k; j++)
        z += (w[j] = exp(w[j] - max));
    for (int j = 0; j < s_k; j++)
        w[j] /= z;
    for (int c = 0; c < d_v; c++) {
        out[c] = 0;
        for (int j = 0; j < s_k; j++)
            out[c] += w[j] * v[j * d_v + c];
    }
}

static double loss(const double *dout, const double *q, const double *k, const double *v,
                   int s_k, int d_k, int d_v, double kappa)
{
    double out[MAXD], w[MAXS], l = 0;
    forward(out, w, q, k, v, s_k, d_k, d_v, kappa);
    for (int c = 0; c < d_v; c++)
        l += dout[c] * out[c];
    return l;
}

/* central difference of the loss along entry i of x (x is one of q, k, v) */
static double numeric(double *x, int i, const double *dout, const double *q, const double *k,
                      const double *v, int s_k, int d_k, int d_v, double kappa)
{
    const double h = 1e-6;
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(dout, q, k, v, s_k, d_k, d_v, kappa);
    x[i] = keep - h;
    double down = loss(dout, q, k, v, s_k, d_k, d_v, kappa);
    x[i] = keep;
    return (up - down) / (2 * h);
}

/* call the student's function with dk, dv starting at START; compare all three */
static void check_gradients(int s_k, int d_k, int d_v, double kappa, unsigned long seed,
                            double start, int which)
{
    double q[MAXD], k[MAXS * MAXD], v[MAXS * MAXD], dout[MAXD], w[MAXS], out[MAXD];
    grade_random(q, d_k, seed, -1, 1);
    grade_random(k, (size_t)s_k * d_k, seed + 1, -1, 1);
    grade_random(v, (size_t)s_k * d_v, seed + 2, -2, 2);
    grade_random(dout, d_v, seed + 3, -1, 1);
    forward(out, w, q, k, v, s_k, d_k, d_v, kappa);
    double *dq = grade_doubles(d_k), *dk = grade_doubles((size_t)s_k * d_k);
    double *dv = grade_doubles((size_t)s_k * d_v);
    for (int i = 0; i < s_k * d_k; i++)
        dk[i] = start;
    for (int i = 0; i < s_k * d_v; i++)
        dv[i] = start;
    double *qq = grade_copy(q, d_k), *kk = grade_copy(k, (size_t)s_k * d_k);
    double *vv = grade_copy(v, (size_t)s_k * d_v), *ww = grade_copy(w, s_k);
    double *dd = grade_copy(dout, d_v);
    attention_query_backward(dq, dk, dv, dd, ww, qq, kk, vv, s_k, d_k, d_v, kappa);
    char what[64];
    if (which & 1)
        for (int c = 0; c < d_k; c++) {
            snprintf(what, sizeof what, "dq_i[%d]", c);
            expect_near(what, dq[c], numeric(q, c, dout, q, k, v, s_k, d_k, d_v, kappa));
        }
    if (which & 2)
        for (int i = 0; i < s_k * d_k; i++) {
            snprintf(what, sizeof what, "dk[%d][%d]", i / d_k, i % d_k);
            expect_near(what, dk[i], start + numeric(k, i, dout, q, k, v, s_k, d_k, d_v, kappa));
        }
    if (which & 4)
        for (int i = 0; i < s_k * d_v; i++) {
            snprintf(what, sizeof what, "dv[%d][%d]", i / d_v, i % d_v);
            expect_near(what, dv[i], start + numeric(v, i, dout, q, k, v, s_k, d_k, d_v, kappa));
        }
    expect_same("q_i", qq, q, d_k);
    expect_same("w_i", ww, w, s_k);
}

CHECK(one_key_by_hand)
{
    /* one key: w = 1, out = v_1 whatever q and k are, so dq = dk = 0 and dv = dout */
    double q[2] = { 0.5, -1 }, k[2] = { 2, 3 }, v[2] = { 4, 5 }, dout[2] = { 1, -2 }, w[1] = { 1 };
    double *dq = grade_doubles(2), *dk = grade_doubles(2), *dv = grade_doubles(2);
    dk[0] = dk[1] = dv[0] = dv[1] = 0;
    attention_query_backward(dq, dk, dv, grade_copy(dout, 2), grade_copy(w, 1), grade_copy(q, 2),
                             grade_copy(k, 2), grade_copy(v, 2), 1, 2, 2, 0.7);
    double zero[2] = { 0, 0 };
    expect_doubles("dq_i", dq, zero, 2);
    expect_doubles("dk", dk, zero, 2);
    expect_doubles("dv", dv, dout, 2);
}

CHECK(dv_is_weighted_dout)
{
    check_gradients(3, 2, 2, 0.7, 100, 0.0, 4);
}

CHECK(dq_matches_finite_differences)
{
    check_gradients(4, 3, 2, 0.5, 200, 0.0, 1);
}

CHECK(dk_matches_finite_differences)
{
    check_gradients(4, 3, 2, 0.5, 300, 0.0, 2);
}

CHECK(dk_dv_accumulate)
{
    /* dk and dv start at 0.25: the gradients are added, not written */
    check_gradients(3, 2, 3, 1.0, 400, 0.25, 6);
}

/* BEGIN HIDDEN */
CHECK(larger_all_gradients)
{
    check_gradients(20, 8, 5, 0.35355339059327373, 500, -0.5, 7);
}

CHECK(dq_is_written_not_added)
{
    /* dq starts as NaN (as every output buffer here): it must be overwritten */
    check_gradients(5, 4, 4, 0.5, 600, 1.0, 1);
}

CHECK(peaked_weights)
{
    /* a large kappa: one weight near 1, the others tiny */
    check_gradients(6, 3, 2, 6.0, 700, 0.0, 7);
}
/* END HIDDEN */
