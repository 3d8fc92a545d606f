/* Checks of Exercise 10.2.  The expected output is causal attention computed
   here row by row in long double (two passes, no tiles); the expected tile
   count is counted here from the definition: a pair (query block, key tile)
   is needed when some query of the block sees some key of the tile. */
#include "grade.h"
#include "causal_tiles.h"
#include <math.h>
#include <stdlib.h>

static void reference(double *out, const double *q, const double *k, const double *v,
                      int s_q, int s_k, int d_k, int d_v, double kappa)
{
    long double *s = calloc((size_t)s_k + 1, sizeof *s);
    for (int i = 0; i < s_q; i++) {
        int seen = i + s_k - s_q + 1;
        seen = seen < 0 ? 0 : seen > s_k ? s_k : seen;
        long double m = -INFINITY, z = 0;
        for (int j = 0; j < seen; j++) {
            s[j] = 0;
            for (int t = 0; t < d_k; t++)
                s[j] += (long double)q[i * d_k + t] * k[j * d_k + t];
            s[j] *= kappa;
            m = s[j] > m ? s[j] : m;
        }
        for (int j = 0; j < seen; j++)
            z += expl(s[j] - m);
        for (int t = 0; t < d_v; t++) {
            long double acc = 0;
            for (int j = 0; j < seen; j++)
                acc += expl(s[j] - m) / z * v[j * d_v + t];
            out[i * d_v + t] = seen ? (double)acc : 0.0;
        }
    }
    free(s);
}

static long needed_tiles(int s_q, int s_k, int br, int bc)
{
    long n = 0;
    for (int i0 = 0; i0 < s_q; i0 += br) {
        int last = (i0 + br < s_q ? i0 + br : s_q) - 1;   /* the block's last query */
        for (int j0 = 0; j0 < s_k; j0 += bc)
            n += j0 <= last + s_k - s_q;                /* it sees key j0 */
    }
    return n;
}

static void compare(int s_q, int s_k, int d_k, int d_v, int br, int bc, double spread,
                    unsigned long seed)
{
    double *q = grade_doubles((size_t)s_q * d_k), *k = grade_doubles((size_t)s_k * d_k);
    double *v = grade_doubles((size_t)s_k * d_v);
    grade_random(q, (size_t)s_q * d_k, seed, -spread, spread);
    grade_random(k, (size_t)s_k * d_k, seed + 1, -spread, spread);
    grade_random(v, (size_t)s_k * d_v, seed + 2, -1, 1);
    double kappa = 1 / sqrt((double)d_k);
    double *want = grade_doubles((size_t)s_q * d_v), *out = grade_doubles((size_t)s_q * d_v);
    double *qq = grade_copy(q, (size_t)s_q * d_k), *kk = grade_copy(k, (size_t)s_k * d_k);
    double *vv = grade_copy(v, (size_t)s_k * d_v);
    double *scratch = grade_doubles((size_t)br * (bc + d_v + 2));
    long tiles = causal_tiles(out, qq, kk, vv, s_q, s_k, d_k, d_v, kappa, br, bc, scratch);
    GRADE_REFERENCE(reference(want, q, k, v, s_q, s_k, d_k, d_v, kappa));
    /* the count first: a tile skipped too early shows as a count, not as an
       output that only looks wrong */
    expect_int("the number of tiles computed|zh:算过的块数", tiles, needed_tiles(s_q, s_k, br, bc));
    expect_matrix("out", out, want, s_q, d_v);
    expect_same("q", qq, q, (size_t)s_q * d_k);
    expect_same("k", kk, k, (size_t)s_k * d_k);
}

CHECK(one_query_one_key)
{
    /* s = 1: the output is v_0, one tile */
    double q[2] = { 1, 2 }, k[2] = { 3, 4 }, v[3] = { 5, 6, 7 };
    double *out = grade_doubles(3), *scratch = grade_doubles(4 * (4 + 3 + 2));
    long tiles = causal_tiles(out, grade_copy(q, 2), grade_copy(k, 2), grade_copy(v, 3),
                              1, 1, 2, 3, 1.0, 4, 4, scratch);
    expect_doubles("out", out, v, 3);
    expect_int("the number of tiles computed|zh:算过的块数", tiles, 1);
}

CHECK(square_tiles_divide)
{
    compare(16, 16, 4, 3, 4, 4, 1.0, 21);
}

CHECK(ragged_tiles)
{
    compare(23, 23, 5, 6, 4, 8, 1.0, 22);
}

CHECK(more_keys_than_queries)
{
    compare(10, 37, 3, 2, 3, 5, 1.0, 23);
}

CHECK(tile_starts_at_the_last_visible_key)
{
    /* br = 3, bc = 2: the tile j0 = 2 starts at block 0's last query's last
       key, so it is needed (and so are j0 = 4 and j0 = 8 for blocks 1, 2) */
    compare(9, 9, 4, 3, 3, 2, 1.0, 28);
}

CHECK(fully_masked_rows)
{
    /* s_q > s_k: the first s_q - s_k queries see nothing, zero output */
    compare(30, 12, 4, 4, 8, 4, 1.0, 24);
}

/* BEGIN HIDDEN */
CHECK(large_scores)
{
    compare(20, 20, 8, 3, 4, 4, 40.0, 25);
}

CHECK(long_sequence)
{
    compare(130, 130, 16, 12, 32, 64, 1.0, 26);
}

CHECK(tall_blocks_wide_tiles)
{
    compare(45, 61, 3, 7, 16, 3, 2.0, 27);
}
/* END HIDDEN */
