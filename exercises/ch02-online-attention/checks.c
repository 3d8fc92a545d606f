/* Checks of Exercise 2.4 (one-pass attention for one query).  The expected
   output is equation (2) computed the plain two-pass way, in long double,
   right here; or worked out by hand. */
#include "grade.h"
#include "online_attention.h"
#include <math.h>

/* equation (2) in two passes, long double: the reference */
static void reference(double *out, const double *q, const double *k, const double *v,
                      int s_k, int d_k, int d_v, double kappa)
{
    long double s[2048], max = -INFINITY, z = 0;
    for (int j = 0; j < s_k; j++) {
        s[j] = 0;
        for (int c = 0; c < d_k; c++)
            s[j] += (long double)q[c] * k[j * d_k + c];
        s[j] *= kappa;
        if (s[j] > max)
            max = s[j];
    }
    for (int j = 0; j < s_k; j++)
        z += expl(s[j] - max);
    for (int c = 0; c < d_v; c++) {
        long double acc = 0;
        for (int j = 0; j < s_k; j++)
            acc += expl(s[j] - max) / z * v[j * d_v + c];
        out[c] = (double)acc;
    }
}

static void run(const char *what, const double *q, const double *k, const double *v,
                int s_k, int d_k, int d_v, double kappa)
{
    double want[64];
    double *qq = grade_copy(q, d_k), *kk = grade_copy(k, (size_t)s_k * d_k);
    double *vv = grade_copy(v, (size_t)s_k * d_v), *out = grade_doubles(d_v);
    attention_query_online(out, qq, kk, vv, s_k, d_k, d_v, kappa);
    GRADE_REFERENCE(reference(want, q, k, v, s_k, d_k, d_v, kappa));
    for (int c = 0; c < d_v; c++)
        expect_true(isfinite(out[c]), "the output must be finite",
                    "输出必须是有限的数");
    expect_doubles(what, out, want, d_v);
    expect_same("k", kk, k, (size_t)s_k * d_k);
    expect_same("v", vv, v, (size_t)s_k * d_v);
}

CHECK(the_worked_example)
{
    /* Exercise 2.1: q = (1, 1), keys (1,0), (0,1), (1,1), values 1, 2, 4,
       kappa = 1/sqrt 2: weights (e^a, e^a, e^2a)/(2e^a + e^2a), a = 1/sqrt 2,
       so the output is (3 + 4 e^a) / (2 + e^a) = 2.7587... */
    double q[2] = { 1, 1 }, k[6] = { 1, 0, 0, 1, 1, 1 }, v[3] = { 1, 2, 4 };
    double a = 0.70710678118654752;
    double *out = grade_doubles(1);
    attention_query_online(out, grade_copy(q, 2), grade_copy(k, 6), grade_copy(v, 3), 3, 2, 1, a);
    expect_near("out_i[0]", out[0], (3 + 4 * exp(a)) / (2 + exp(a)));
}

CHECK(one_key)
{
    /* one key: its weight is 1 and the output is its value */
    double q[3] = { 0.3, -2, 5 }, k[3] = { 1, 1, 1 }, v[2] = { -7.5, 0.25 };
    run("out_i", q, k, v, 1, 3, 2, 0.5);
}

CHECK(small_random)
{
    double q[4], k[5 * 4], v[5 * 3];
    grade_random(q, 4, 1, -1, 1);
    grade_random(k, 20, 2, -1, 1);
    grade_random(v, 15, 3, -2, 2);
    run("out_i", q, k, v, 5, 4, 3, 0.5);
}

CHECK(growing_maximum)
{
    /* scores 1, 2, 3, ...: the maximum grows at every key, so every step rescales */
    enum { S = 12 };
    double q[1] = { 1 }, k[S], v[S * 2];
    for (int j = 0; j < S; j++) {
        k[j] = j + 1;
        v[2 * j] = j;
        v[2 * j + 1] = -1.0 / (j + 1);
    }
    run("out_i", q, k, v, S, 1, 2, 1.0);
}

CHECK(huge_scores_stay_finite)
{
    /* scores +-1e4: a naive exp overflows; the key with score 1e4 takes all the weight */
    double q[2] = { 100, 0 }, k[8] = { 100, 1, -100, 2, 99, 3, 0, 4 }, v[4] = { 1, 2, 3, 4 };
    run("out_i", q, k, v, 4, 2, 1, 1.0);
}

/* BEGIN HIDDEN */
CHECK(maximum_first)
{
    /* the largest score comes first: no rescaling ever happens */
    double q[2] = { 1, 2 }, k[8] = { 3, 3, 1, 0, 0, 1, -1, -1 }, v[8] = { 1, -1, 2, -2, 3, -3, 4, -4 };
    run("out_i", q, k, v, 4, 2, 2, 0.7);
}

CHECK(long_random)
{
    enum { S = 700, DK = 16, DV = 24 };
    double *q = grade_doubles(DK), *k = grade_doubles(S * DK), *v = grade_doubles(S * DV);
    grade_random(q, DK, 11, -2, 2);
    grade_random(k, S * DK, 12, -2, 2);
    grade_random(v, S * DV, 13, -5, 5);
    run("out_i", q, k, v, S, DK, DV, 0.25);
}

CHECK(huge_negative_scores)
{
    /* every score about -1e4: exp(score) underflows to 0 for all of them */
    double q[1] = { -100 }, k[3] = { 100, 100.5, 101 }, v[3] = { 10, 20, 30 };
    run("out_i", q, k, v, 3, 1, 1, 1.0);
}
/* END HIDDEN */
