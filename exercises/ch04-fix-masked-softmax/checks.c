/* Checks of Exercise 4.5 (find and fix: masked attention).  The expected
   values are the softmax over each row's allowed keys alone, computed here
   in long double (zeros for a row with none); or worked out by hand. */
#include "grade.h"
#include "masked_rows.h"
#include <math.h>

enum { MAXS = 32, MAXD = 8 };

static void reference(double *out, double *w, const double *q, const double *k,
                      const double *v, const unsigned char *mask, int s_q, int s_k,
                      int d_k, int d_v, double kappa)
{
    for (int i = 0; i < s_q; i++) {
        long double s[MAXS], max = -INFINITY, z = 0;
        int any = 0;
        for (int j = 0; j < s_k; j++) {
            s[j] = 0;
            for (int c = 0; c < d_k; c++)
                s[j] += (long double)q[i * d_k + c] * k[j * d_k + c];
            s[j] *= kappa;
            if (mask[i * s_k + j] && s[j] > max)
                max = s[j];
            any |= mask[i * s_k + j];
        }
        for (int j = 0; j < s_k; j++)
            if (mask[i * s_k + j])
                z += expl(s[j] - max);
        for (int j = 0; j < s_k; j++)
            w[i * s_k + j] = any && mask[i * s_k + j] ? (double)(expl(s[j] - max) / z) : 0.0;
        for (int c = 0; c < d_v; c++) {
            long double acc = 0;
            for (int j = 0; j < s_k; j++)
                if (any && mask[i * s_k + j])
                    acc += expl(s[j] - max) / z * v[j * d_v + c];
            out[i * d_v + c] = (double)acc;
        }
    }
}

static void run(const unsigned char *mask, int s_q, int s_k, int d_k, int d_v, double kappa,
                unsigned long seed, double spread)
{
    double q[MAXS * MAXD], k[MAXS * MAXD], v[MAXS * MAXD];
    double want_out[MAXS * MAXD], want_w[MAXS * MAXS];
    grade_random(q, (size_t)s_q * d_k, seed, -spread, spread);
    grade_random(k, (size_t)s_k * d_k, seed + 1, -spread, spread);
    grade_random(v, (size_t)s_k * d_v, seed + 2, -1, 1);
    unsigned char *m = grade_bytes((size_t)s_q * s_k, 0);
    for (int i = 0; i < s_q * s_k; i++)
        m[i] = mask[i];
    double *out = grade_doubles((size_t)s_q * d_v), *w = grade_doubles((size_t)s_q * s_k);
    masked_rows(out, w, grade_copy(q, (size_t)s_q * d_k), grade_copy(k, (size_t)s_k * d_k),
                grade_copy(v, (size_t)s_k * d_v), m, s_q, s_k, d_k, d_v, kappa);
    GRADE_REFERENCE(reference(want_out, want_w, q, k, v, mask, s_q, s_k, d_k, d_v, kappa));
    expect_matrix("w", w, want_w, s_q, s_k);
    expect_matrix("out", out, want_out, s_q, d_v);
}

static void causal(unsigned char *mask, int s)
{
    for (int i = 0; i < s; i++)
        for (int j = 0; j < s; j++)
            mask[i * s + j] = j <= i;
}

CHECK(causal_by_hand)
{
    /* scores all 0 (q = 0): row i spreads evenly over keys 0..i */
    double q[3] = { 0, 0, 0 }, k[3] = { 1, 2, 3 }, v[3] = { 3, 6, 9 };
    unsigned char mask[9];
    causal(mask, 3);
    double want_w[9] = { 1, 0, 0, 0.5, 0.5, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3 };
    double want[3] = { 3, 4.5, 6 };
    unsigned char *m = grade_bytes(9, 0);
    for (int i = 0; i < 9; i++)
        m[i] = mask[i];
    double *out = grade_doubles(3), *w = grade_doubles(9);
    masked_rows(out, w, grade_copy(q, 3), grade_copy(k, 3), grade_copy(v, 3), m, 3, 3, 1, 1, 1.0);
    expect_matrix("w", w, want_w, 3, 3);
    expect_doubles("out", out, want, 3);
}

CHECK(causal_random)
{
    unsigned char mask[36];
    causal(mask, 6);
    run(mask, 6, 6, 4, 3, 0.5, 10, 1.0);
}

CHECK(masked_key_scores_800_higher)
{
    /* the chapter's row: scores (0, 800), the second key masked: weights (1, 0) */
    double q[1] = { 1 }, k[2] = { 0, 800 }, v[2] = { 5, -5 };
    double want_w[2] = { 1, 0 }, want[1] = { 5 };
    unsigned char *m = grade_bytes(2, 0);
    m[0] = 1;
    double *out = grade_doubles(1), *w = grade_doubles(2);
    masked_rows(out, w, grade_copy(q, 1), grade_copy(k, 2), grade_copy(v, 2), m, 1, 2, 1, 1, 1.0);
    expect_doubles("w", w, want_w, 2);
    expect_near("out[0]", out[0], want[0]);
}

CHECK(a_row_with_every_key_masked)
{
    /* the book's rule: zero weights and a zero output for that row */
    unsigned char mask[12] = { 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1 };
    run(mask, 3, 4, 2, 2, 0.7, 20, 1.0);
}

/* BEGIN HIDDEN */
CHECK(padding_with_large_scores)
{
    /* the padded keys (the last two) score far above the others */
    enum { SQ = 4, SK = 6 };
    unsigned char mask[SQ * SK];
    for (int i = 0; i < SQ * SK; i++)
        mask[i] = i % SK < SK - 2;
    double q[SQ * 2], k[SK * 2], v[SK * 3], want_out[SQ * 3], want_w[SQ * SK];
    grade_random(q, SQ * 2, 30, 1, 2);
    grade_random(k, SK * 2, 31, -1, 1);
    grade_random(v, SK * 3, 32, -1, 1);
    k[8] = k[9] = k[10] = k[11] = 900;
    unsigned char *m = grade_bytes(SQ * SK, 0);
    for (int i = 0; i < SQ * SK; i++)
        m[i] = mask[i];
    double *out = grade_doubles(SQ * 3), *w = grade_doubles(SQ * SK);
    masked_rows(out, w, grade_copy(q, SQ * 2), grade_copy(k, SK * 2), grade_copy(v, SK * 3), m,
                SQ, SK, 2, 3, 1.0);
    GRADE_REFERENCE(reference(want_out, want_w, q, k, v, mask, SQ, SK, 2, 3, 1.0));
    expect_matrix("w", w, want_w, SQ, SK);
    expect_matrix("out", out, want_out, SQ, 3);
}

CHECK(causal_future_scores_higher)
{
    /* keys k_j = 100 j and queries in [1, 2]: every future key scores at
       least 100 above the present one, row 0's last key 900 and more */
    enum { S = 10 };
    unsigned char mask[S * S];
    causal(mask, S);
    double q[S], k[S], v[S * 2], want_out[S * 2], want_w[S * S];
    grade_random(q, S, 40, 1, 2);
    grade_random(v, S * 2, 41, -1, 1);
    for (int j = 0; j < S; j++)
        k[j] = 100.0 * j;
    unsigned char *m = grade_bytes(S * S, 0);
    for (int i = 0; i < S * S; i++)
        m[i] = mask[i];
    double *out = grade_doubles(S * 2), *w = grade_doubles(S * S);
    masked_rows(out, w, grade_copy(q, S), grade_copy(k, S), grade_copy(v, S * 2), m, S, S, 1, 2,
                1.0);
    GRADE_REFERENCE(reference(want_out, want_w, q, k, v, mask, S, S, 1, 2, 1.0));
    expect_matrix("w", w, want_w, S, S);
    expect_matrix("out", out, want_out, S, 2);
}
/* END HIDDEN */
