/* Checks of Exercise 2.6 (find and fix: one-query attention).  The expected
   weights and output are equation (2) computed here in long double, with
   the maximum found first; or worked out by hand. */
#include "grade.h"
#include "query_attention.h"
#include <math.h>

enum { MAXS = 256, MAXD = 8 };

static void reference(double *out, double *w, const double *q, const double *k,
                      const double *v, int s_k, int d_k, int d_v, double kappa)
{
    long double s[MAXS], max = -INFINITY, z = 0;
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
    for (int j = 0; j < s_k; j++)
        w[j] = (double)(expl(s[j] - max) / z);
    for (int c = 0; c < d_v; c++) {
        long double acc = 0;
        for (int j = 0; j < s_k; j++)
            acc += expl(s[j] - max) / z * v[j * d_v + c];
        out[c] = (double)acc;
    }
}

static void run(const double *q, const double *k, const double *v, int s_k, int d_k,
                int d_v, double kappa)
{
    double want_out[MAXD], want_w[MAXS];
    double *out = grade_doubles(d_v), *w = grade_doubles(s_k);
    query_attention(out, w, grade_copy(q, d_k), grade_copy(k, (size_t)s_k * d_k),
                    grade_copy(v, (size_t)s_k * d_v), s_k, d_k, d_v, kappa);
    GRADE_REFERENCE(reference(want_out, want_w, q, k, v, s_k, d_k, d_v, kappa));
    expect_doubles("w_i", w, want_w, s_k);
    expect_doubles("out_i", out, want_out, d_v);
}

CHECK(the_worked_example)
{
    /* Exercise 2.1: weights (e^a, e^a, e^2a) / (2 e^a + e^2a), a = 1/sqrt 2 */
    double q[2] = { 1, 1 }, k[6] = { 1, 0, 0, 1, 1, 1 }, v[3] = { 1, 2, 4 };
    double a = 0.70710678118654752, want_w[3] = { 0 }, want = 0;
    double *out = grade_doubles(1), *w = grade_doubles(3);
    query_attention(out, w, grade_copy(q, 2), grade_copy(k, 6), grade_copy(v, 3), 3, 2, 1, a);
    GRADE_REFERENCE({
        double ea = exp(a);
        want_w[0] = want_w[1] = 1 / (2 + ea);
        want_w[2] = ea / (2 + ea);
        want = (3 + 4 * ea) / (2 + ea);
    });
    expect_doubles("w_i", w, want_w, 3);
    expect_near("out_i[0]", out[0], want);
}

CHECK(large_positive_scores)
{
    /* scores 1000, 999, 990: the shift by the maximum keeps exp finite */
    double q[1] = { 1 }, k[3] = { 1000, 999, 990 }, v[3] = { 1, -1, 5 };
    run(q, k, v, 3, 1, 1, 1.0);
}

CHECK(every_score_far_below_zero)
{
    /* keys that point away from the query: scores -1000, -1001, -1003.
       The weights are those of (0, -1, -3), whatever the common shift. */
    double q[1] = { -1 }, k[3] = { 1000, 1001, 1003 }, v[6] = { 1, 2, 3, 4, 5, 6 };
    double want_w[3] = { 0 }, want_out[2] = { 0 };
    double *out = grade_doubles(2), *w = grade_doubles(3);
    query_attention(out, w, grade_copy(q, 1), grade_copy(k, 3), grade_copy(v, 6), 3, 1, 2, 1.0);
    GRADE_REFERENCE({
        double e1 = exp(-1.0), e3 = exp(-3.0), z = 1 + e1 + e3;
        want_w[0] = 1 / z;
        want_w[1] = e1 / z;
        want_w[2] = e3 / z;
        want_out[0] = (1 + 3 * e1 + 5 * e3) / z;
        want_out[1] = (2 + 4 * e1 + 6 * e3) / z;
    });
    expect_doubles("w_i", w, want_w, 3);
    expect_doubles("out_i", out, want_out, 2);
}

CHECK(small_random)
{
    double q[4], k[6 * 4], v[6 * 3];
    grade_random(q, 4, 11, -1, 1);
    grade_random(k, 24, 12, -1, 1);
    grade_random(v, 18, 13, -2, 2);
    run(q, k, v, 6, 4, 3, 0.5);
}

/* BEGIN HIDDEN */
CHECK(one_key_far_below)
{
    /* one key scoring -1e4: its weight is 1 and the output is its value */
    double q[2] = { -100, 0 }, k[2] = { 100, 3 }, v[2] = { 0.5, -7 };
    run(q, k, v, 1, 2, 2, 1.0);
}

CHECK(long_random_negative)
{
    /* 200 keys whose scores are all between -900 and -800 */
    double q[1] = { 1 }, k[200], v[200 * 2];
    grade_random(k, 200, 14, -900, -800);
    grade_random(v, 400, 15, -1, 1);
    run(q, k, v, 200, 1, 2, 1.0);
}
/* END HIDDEN */
