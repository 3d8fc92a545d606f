/* Checks of Exercise 10.4 (find and fix: the tiled online softmax).  The
   expected output is equation (2) in two passes, computed here in long
   double; or worked out by hand. */
#include "grade.h"
#include "tiled_query.h"
#include <math.h>

enum { MAXS = 512, MAXD = 8 };

static void reference(double *out, const double *q, const double *k, const double *v,
                      int s_k, int d_k, int d_v, double kappa)
{
    static long double s[MAXS];
    long double max = -INFINITY, z = 0;
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

static void run(const double *q, const double *k, const double *v, int s_k, int d_k, int d_v,
                double kappa, int tile)
{
    double want[MAXD];
    double *out = grade_doubles(d_v);
    tiled_query(out, grade_copy(q, d_k), grade_copy(k, (size_t)s_k * d_k),
                grade_copy(v, (size_t)s_k * d_v), s_k, d_k, d_v, kappa, tile);
    GRADE_REFERENCE(reference(want, q, k, v, s_k, d_k, d_v, kappa));
    expect_doubles("out", out, want, d_v);
}

CHECK(one_tile)
{
    double q[3], k[10 * 3], v[10 * 2];
    grade_random(q, 3, 1, -1, 1);
    grade_random(k, 30, 2, -1, 1);
    grade_random(v, 20, 3, -1, 1);
    run(q, k, v, 10, 3, 2, 0.6, 16);
}

CHECK(maximum_in_the_first_tile)
{
    /* scores 5, 4, 3, 2, 1, 0 in tiles of 2: the maximum never changes */
    double q[1] = { 1 }, k[6] = { 5, 4, 3, 2, 1, 0 }, v[6] = { 1, 2, 3, 4, 5, 6 };
    run(q, k, v, 6, 1, 1, 1.0, 2);
}

CHECK(two_tiles_by_hand)
{
    /* tiles of 1, scores 0 then ln 3, values 1 and 5: weights 1/4 and 3/4,
       output 4 */
    double q[1] = { 1 }, k[2] = { 0, log(3.0) }, v[2] = { 1, 5 };
    double *out = grade_doubles(1);
    tiled_query(out, grade_copy(q, 1), grade_copy(k, 2), grade_copy(v, 2), 2, 1, 1, 1.0, 1);
    expect_near("out[0]", out[0], 4.0);
}

CHECK(growing_scores)
{
    /* scores 0, 1, ..., 11 in tiles of 4: the maximum grows at every tile */
    double q[1] = { 1 }, k[12], v[12 * 2];
    for (int j = 0; j < 12; j++) {
        k[j] = j;
        v[2 * j] = j % 3;
        v[2 * j + 1] = 1 - j;
    }
    run(q, k, v, 12, 1, 2, 1.0, 4);
}

/* BEGIN HIDDEN */
CHECK(long_random_odd_tile)
{
    static double k[300 * 4], v[300 * 3];
    double q[4];
    grade_random(q, 4, 10, -2, 2);
    grade_random(k, 1200, 11, -2, 2);
    grade_random(v, 900, 12, -1, 1);
    run(q, k, v, 300, 4, 3, 0.5, 7);
}

CHECK(huge_late_scores)
{
    /* the last tile scores 1e4 above the first: finite, and the first
       tiles' weights vanish */
    double q[1] = { 1 }, k[9], v[9];
    for (int j = 0; j < 9; j++) {
        k[j] = j < 6 ? -j : 1e4 + j;
        v[j] = j;
    }
    run(q, k, v, 9, 1, 1, 1.0, 3);
}
/* END HIDDEN */
