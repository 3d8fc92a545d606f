/* A known wrong solution (mutant) of ch10-causal-tiles, kept for the grader's tests
   and its feedback: m, l and the running output are set once, not for each query block: the second block starts from the first block's sums. */
/* Exercise 10.2 · 练习 10.2: the tile loop with the causal skip.
 * 带因果跳过的分块循环。
 *
 * For the query block [i0, i1) the last key any of its queries sees is
 * i1 - 1 + s_k - s_q, so the key tiles from j0 = i1 + s_k - s_q on are
 * skipped.  Inside a tile, a key j > i + s_k - s_q is masked for query i.
 * Keep m, l and the unnormalised output per query, as in Section 10.1.
 * Grade it with:  make grade EX=ch10-causal-tiles
 */
#include "causal_tiles.h"
#include <math.h>
#include <stddef.h>

long causal_tiles(double *out, const double *q, const double *k,
                  const double *v, int s_q, int s_k, int d_k, int d_v,
                  double kappa, int br, int bc, double *scratch)
{
    const int shift = s_k - s_q;
    double *p = scratch, *u = p + (size_t)br * bc, *m = u + (size_t)br * d_v;
    double *l = m + br;
    long tiles = 0;
    for (int r = 0; r < br; r++) {
        m[r] = -INFINITY; l[r] = 0.0;
        for (int t = 0; t < d_v; t++)
            u[(size_t)r * d_v + t] = 0.0;
    }
    for (int i0 = 0; i0 < s_q; i0 += br) {
        const int i1 = i0 + br < s_q ? i0 + br : s_q, n = i1 - i0;
        int j_end = i1 + shift < s_k ? i1 + shift : s_k;   /* keys past it: skipped */
        for (int j0 = 0; j0 < j_end; j0 += bc) {
            const int nc = j_end - j0 < bc ? j_end - j0 : bc;
            tiles++;
            for (int r = 0; r < n; r++) {
                const int i = i0 + r;
                double mx = -INFINITY;
                for (int c = 0; c < nc; c++) {
                    const int j = j0 + c;
                    double s = -INFINITY;
                    if (j <= i + shift) {
                        s = 0.0;
                        for (int t = 0; t < d_k; t++)
                            s += q[(size_t)i * d_k + t] * k[(size_t)j * d_k + t];
                        s *= kappa;
                    }
                    p[(size_t)r * bc + c] = s;
                    mx = s > mx ? s : mx;
                }
                if (mx == -INFINITY)            /* row r sees none of this tile */
                    continue;
                const double m_new = mx > m[r] ? mx : m[r], alpha = exp(m[r] - m_new);
                l[r] *= alpha;
                for (int t = 0; t < d_v; t++)
                    u[(size_t)r * d_v + t] *= alpha;
                for (int c = 0; c < nc; c++) {
                    const double w = exp(p[(size_t)r * bc + c] - m_new);
                    l[r] += w;
                    for (int t = 0; t < d_v; t++)
                        u[(size_t)r * d_v + t] += w * v[(size_t)(j0 + c) * d_v + t];
                }
                m[r] = m_new;
            }
        }
        for (int r = 0; r < n; r++)
            for (int t = 0; t < d_v; t++)
                out[(size_t)(i0 + r) * d_v + t] = l[r] > 0 ? u[(size_t)r * d_v + t] / l[r] : 0.0;
    }
    return tiles;
}
