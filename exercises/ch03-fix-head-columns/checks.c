/* Checks of Exercise 3.5 (find and fix: multi-head attention on packed
   projections).  The expected values come from copying each head's columns
   out and running equation (1) on them here, in long double; or by hand. */
#include "grade.h"
#include "head_columns.h"
#include <math.h>

enum { MAXS = 16, MAXDM = 16 };

static void reference(double *out, double *w, const double *q, const double *k,
                      const double *v, int s_q, int s_k, int h, int d_k)
{
    int dm = h * d_k;
    for (int i = 0; i < h; i++) {
        double qi[MAXS * MAXDM], ki[MAXS * MAXDM], vi[MAXS * MAXDM];
        for (int r = 0; r < s_q; r++)           /* the head's own matrices */
            for (int c = 0; c < d_k; c++)
                qi[r * d_k + c] = q[r * dm + i * d_k + c];
        for (int r = 0; r < s_k; r++)
            for (int c = 0; c < d_k; c++) {
                ki[r * d_k + c] = k[r * dm + i * d_k + c];
                vi[r * d_k + c] = v[r * dm + i * d_k + c];
            }
        for (int t = 0; t < s_q; t++) {
            long double s[MAXS], max = -INFINITY, z = 0;
            for (int j = 0; j < s_k; j++) {
                s[j] = 0;
                for (int c = 0; c < d_k; c++)
                    s[j] += (long double)qi[t * d_k + c] * ki[j * d_k + c];
                s[j] /= sqrtl(d_k);
                if (s[j] > max)
                    max = s[j];
            }
            for (int j = 0; j < s_k; j++)
                z += expl(s[j] - max);
            for (int j = 0; j < s_k; j++)
                w[(i * s_q + t) * s_k + j] = (double)(expl(s[j] - max) / z);
            for (int c = 0; c < d_k; c++) {
                long double acc = 0;
                for (int j = 0; j < s_k; j++)
                    acc += expl(s[j] - max) / z * vi[j * d_k + c];
                out[t * dm + i * d_k + c] = (double)acc;
            }
        }
    }
}

static void run(int s_q, int s_k, int h, int d_k, unsigned long seed)
{
    int dm = h * d_k;
    double q[MAXS * MAXDM], k[MAXS * MAXDM], v[MAXS * MAXDM];
    double want_out[MAXS * MAXDM], want_w[MAXDM * MAXS * MAXS];
    grade_random(q, (size_t)s_q * dm, seed, -1.5, 1.5);
    grade_random(k, (size_t)s_k * dm, seed + 1, -1.5, 1.5);
    grade_random(v, (size_t)s_k * dm, seed + 2, -1, 1);
    double *out = grade_doubles((size_t)s_q * dm), *w = grade_doubles((size_t)h * s_q * s_k);
    heads_attention(out, w, grade_copy(q, (size_t)s_q * dm), grade_copy(k, (size_t)s_k * dm),
                    grade_copy(v, (size_t)s_k * dm), s_q, s_k, h, d_k);
    GRADE_REFERENCE(reference(want_out, want_w, q, k, v, s_q, s_k, h, d_k));
    expect_matrix("w", w, want_w, h * s_q, s_k);
    expect_matrix("out", out, want_out, s_q, dm);
}

CHECK(one_head_of_width_one)
{
    /* h = d_k = 1: scores q_t k_j, plain softmax attention */
    run(3, 4, 1, 1, 10);
}

CHECK(one_key)
{
    /* one key: every weight is 1, every head's output is its value columns */
    double q[4] = { 3, -1, 0.5, 2 }, k[4] = { 1, 2, 3, 4 }, v[4] = { 9, 8, 7, 6 };
    double want[4] = { 9, 8, 7, 6 }, ones[2] = { 1, 1 };
    double *out = grade_doubles(4), *w = grade_doubles(2);
    heads_attention(out, w, grade_copy(q, 4), grade_copy(k, 4), grade_copy(v, 4), 1, 1, 2, 2);
    expect_doubles("w", w, ones, 2);
    expect_doubles("out", out, want, 4);
}

CHECK(two_heads_by_hand)
{
    /* h = 2, d_k = 1, one query (1, 1), two keys (ln 3, ln 3) and (0, 0),
       values (1, 10) and (2, 20).  Each head scores ln 3 and 0: weights 3/4
       and 1/4; head 0 outputs 3/4 + 2/4 = 1.25, head 1 30/4 + 20/4 = 12.5. */
    double l3 = log(3.0);
    double q[2] = { 1, 1 }, k[4] = { l3, l3, 0, 0 }, v[4] = { 1, 10, 2, 20 };
    double want_w[4] = { 0.75, 0.25, 0.75, 0.25 }, want[2] = { 1.25, 12.5 };
    double *out = grade_doubles(2), *w = grade_doubles(4);
    heads_attention(out, w, grade_copy(q, 2), grade_copy(k, 4), grade_copy(v, 4), 1, 2, 2, 1);
    expect_matrix("w", w, want_w, 2, 2);
    expect_doubles("out", out, want, 2);
}

CHECK(four_heads_random)
{
    run(3, 5, 4, 2, 20);
}

/* BEGIN HIDDEN */
CHECK(cross_attention_lengths)
{
    run(2, 7, 3, 4, 30);
}

CHECK(many_heads_of_width_one)
{
    run(4, 4, 8, 1, 40);
}
/* END HIDDEN */
