/* Checks of Exercise 9.2 (find and fix: a step with a key-value cache).
   The expected rows are causal attention over the whole sequence, computed
   here at once in long double; or worked out by hand. */
#include "grade.h"
#include "kv_step.h"
#include <math.h>
#include <stdio.h>

enum { MAXS = 64, MAXD = 8 };

/* row t of causal attention: query t over keys 0..t */
static void causal_row(double *out, double *w, const double *q, const double *k,
                       const double *v, int t, int d_k, int d_v, double kappa)
{
    long double s[MAXS], max = -INFINITY, z = 0;
    for (int j = 0; j <= t; j++) {
        s[j] = 0;
        for (int c = 0; c < d_k; c++)
            s[j] += (long double)q[t * d_k + c] * k[j * d_k + c];
        s[j] *= kappa;
        if (s[j] > max)
            max = s[j];
    }
    for (int j = 0; j <= t; j++)
        z += expl(s[j] - max);
    for (int j = 0; j <= t; j++)
        w[j] = (double)(expl(s[j] - max) / z);
    for (int c = 0; c < d_v; c++) {
        long double acc = 0;
        for (int j = 0; j <= t; j++)
            acc += expl(s[j] - max) / z * v[j * d_v + c];
        out[c] = (double)acc;
    }
}

/* decode STEPS positions one at a time; compare the rows from FIRST on */
static void decode(int steps, int first, int d_k, int d_v, double kappa, unsigned long seed)
{
    double q[MAXS * MAXD], k[MAXS * MAXD], v[MAXS * MAXD];
    grade_random(q, (size_t)steps * d_k, seed, -1, 1);
    grade_random(k, (size_t)steps * d_k, seed + 1, -1, 1);
    grade_random(v, (size_t)steps * d_v, seed + 2, -1, 1);
    double *kc = grade_doubles((size_t)steps * d_k), *vc = grade_doubles((size_t)steps * d_v);
    int len = 0;
    char what[64];
    for (int t = 0; t < steps; t++) {
        double *out = grade_doubles(d_v), *w = grade_doubles(t + 1);
        double want_out[MAXD], want_w[MAXS];
        len = kv_step(out, w, kc, vc, len, grade_copy(q + t * d_k, d_k),
                      grade_copy(k + t * d_k, d_k), grade_copy(v + t * d_v, d_v), d_k, d_v, kappa);
        expect_int("returned length|zh:返回的长度", len, t + 1);
        if (t < first)
            continue;
        GRADE_REFERENCE(causal_row(want_out, want_w, q, k, v, t, d_k, d_v, kappa));
        snprintf(what, sizeof what, "w (step %d)|zh:w（第 %d 步）", t, t);
        expect_doubles(what, w, want_w, t + 1);
        snprintf(what, sizeof what, "out (step %d)|zh:out（第 %d 步）", t, t);
        expect_doubles(what, out, want_out, d_v);
    }
    expect_matrix("k_cache", kc, k, steps, d_k);
    expect_matrix("v_cache", vc, v, steps, d_v);
}

CHECK(the_cache_is_filled)
{
    /* three steps: the caches hold the three keys and values, in order */
    double kk[6] = { 1, 2, 3, 4, 5, 6 }, vv[3] = { 7, 8, 9 }, q[2] = { 0, 0 };
    double *kc = grade_doubles(6), *vc = grade_doubles(3);
    int len = 0;
    for (int t = 0; t < 3; t++)
        len = kv_step(grade_doubles(1), grade_doubles(t + 1), kc, vc, len, grade_copy(q, 2),
                      grade_copy(kk + 2 * t, 2), grade_copy(vv + t, 1), 2, 1, 1.0);
    expect_int("length", len, 3);
    expect_doubles("k_cache", kc, kk, 6);
    expect_doubles("v_cache", vc, vv, 3);
}

CHECK(first_step_sees_itself)
{
    /* position 0 sees only itself: weight 1, output its own value */
    double q[2] = { 1, 2 }, k[2] = { 3, -1 }, v[2] = { 0.5, -4 }, one[1] = { 1 };
    double *kc = grade_doubles(8), *vc = grade_doubles(8), *out = grade_doubles(2);
    double *w = grade_doubles(1);
    int len = kv_step(out, w, kc, vc, 0, grade_copy(q, 2), grade_copy(k, 2), grade_copy(v, 2),
                      2, 2, 0.5);
    expect_int("returned length|zh:返回的长度", len, 1);
    expect_doubles("w", w, one, 1);
    expect_doubles("out", out, v, 2);
}

CHECK(second_step_by_hand)
{
    /* d_k = d_v = 1, kappa = 1: keys 0 and ln 3, values 1 and 5, query 1:
       weights 1/4 and 3/4, output 4 */
    double kc0[2] = { 0 }, vc0[2] = { 1 }, q[1] = { 1 }, k[1] = { log(3.0) }, v[1] = { 5 };
    double *kc = grade_copy(kc0, 2), *vc = grade_copy(vc0, 2);
    double *out = grade_doubles(1), *w = grade_doubles(2), want_w[2] = { 0.25, 0.75 };
    int len = kv_step(out, w, kc, vc, 1, grade_copy(q, 1), grade_copy(k, 1), grade_copy(v, 1),
                      1, 1, 1.0);
    expect_int("returned length|zh:返回的长度", len, 2);
    expect_doubles("w", w, want_w, 2);
    expect_near("out[0]", out[0], 4.0);
}

CHECK(ten_steps_match_causal_attention)
{
    decode(10, 0, 4, 3, 0.5, 100);
}

/* BEGIN HIDDEN */
CHECK(long_decoding)
{
    decode(60, 1, 8, 8, 0.35355339059327373, 200);
}

CHECK(one_dimensional)
{
    decode(5, 1, 1, 1, 1.0, 300);
}
/* END HIDDEN */
