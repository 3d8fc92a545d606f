/* Checks of Exercise 3.3.  The reference is equation (1) for each head,
   written out here in long double, reading q, k, v by their column blocks;
   and one case by hand. */
#include "grade.h"
#include "gqa.h"
#include <math.h>

static void reference(double *out, double *w, const double *q, const double *k, const double *v,
                      int s_q, int s_k, int h, int g, int d_k)
{
    long double kappa = 1 / sqrtl(d_k);
    for (int i = 0; i < h; i++) {
        int grp = i / (h / g);
        for (int r = 0; r < s_q; r++) {
            long double s[512], max = -INFINITY, z = 0;
            for (int j = 0; j < s_k; j++) {
                s[j] = 0;
                for (int c = 0; c < d_k; c++)
                    s[j] += (long double)q[r * h * d_k + i * d_k + c] * k[j * g * d_k + grp * d_k + c];
                s[j] *= kappa;
                if (s[j] > max)
                    max = s[j];
            }
            for (int j = 0; j < s_k; j++)
                z += expl(s[j] - max);
            for (int j = 0; j < s_k; j++)
                w[(i * s_q + r) * s_k + j] = (double)(expl(s[j] - max) / z);
            for (int c = 0; c < d_k; c++) {
                long double acc = 0;
                for (int j = 0; j < s_k; j++)
                    acc += expl(s[j] - max) / z * v[j * g * d_k + grp * d_k + c];
                out[r * h * d_k + i * d_k + c] = (double)acc;
            }
        }
    }
}

static void compare(int s_q, int s_k, int h, int g, int d_k, unsigned long seed)
{
    size_t nq = (size_t)s_q * h * d_k, nk = (size_t)s_k * g * d_k, nw = (size_t)h * s_q * s_k;
    double *q = grade_doubles(nq), *k = grade_doubles(nk), *v = grade_doubles(nk);
    grade_random(q, nq, seed, -1, 1);
    grade_random(k, nk, seed + 1, -1, 1);
    grade_random(v, nk, seed + 2, -2, 2);
    double *want = grade_doubles(nq), *want_w = grade_doubles(nw);
    double *out = grade_doubles(nq), *w = grade_doubles(nw);
    double *work = grade_doubles((size_t)(2 * s_q + 2 * s_k) * d_k);
    double *qq = grade_copy(q, nq), *kk = grade_copy(k, nk), *vv = grade_copy(v, nk);
    gqa_attention(out, w, work, qq, kk, vv, s_q, s_k, h, g, d_k);
    GRADE_REFERENCE(reference(want, want_w, q, k, v, s_q, s_k, h, g, d_k));
    expect_doubles("w (h x s_q x s_k, head order)|zh:w（h x s_q x s_k，按头的顺序）", w, want_w, nw);
    expect_matrix("out", out, want, s_q, h * d_k);
    expect_same("q", qq, q, nq);
    expect_same("k", kk, k, nk);
}

CHECK(one_key_by_hand)
{
    /* s_k = 1: every weight is 1 and every head outputs its group's only value row.
       h = 2, g = 1, d_k = 2, s_q = 2: out = (v, v) on both rows. */
    double q[2 * 4] = { 1, 2, 3, 4, 5, 6, 7, 8 }, k[2] = { 0.5, -0.5 }, v[2] = { 3, -1 };
    double want[8] = { 3, -1, 3, -1, 3, -1, 3, -1 }, ones[4] = { 1, 1, 1, 1 };
    double *out = grade_doubles(8), *w = grade_doubles(4), *work = grade_doubles((2 + 2 + 2) * 2);
    gqa_attention(out, w, work, grade_copy(q, 8), grade_copy(k, 2), grade_copy(v, 2), 2, 1, 2, 1, 2);
    expect_doubles("w", w, ones, 4);
    expect_matrix("out", out, want, 2, 4);
}

CHECK(g_equals_h_is_multi_head)
{
    compare(3, 4, 2, 2, 3, 10);
}

CHECK(multi_query)
{
    compare(4, 5, 4, 1, 2, 20);
}

CHECK(two_groups_of_two)
{
    compare(3, 6, 4, 2, 4, 30);
}

/* BEGIN HIDDEN */
CHECK(many_heads)
{
    compare(7, 9, 8, 4, 4, 40);
}

CHECK(cross_attention_lengths)
{
    compare(2, 17, 6, 3, 5, 50);
}

CHECK(one_query)
{
    compare(1, 8, 4, 2, 8, 60);
}
/* END HIDDEN */
