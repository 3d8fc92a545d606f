/* Exercise 10.4 · 练习 10.4: find and fix the bug.  找出并修正错误。
 *
 * This one-pass attention, a tile of keys at a time, agrees with
 * attention_query when all the keys fit in one tile, and when the largest
 * score is in the first tile; when the scores grow along the keys it does
 * not.  Find what is wrong, say why, and fix it; change as little as you
 * can.  (tiled_query.h says what the function must do.)
 * 这个按块扫描键的单遍注意力，在所有键都在一块之内、或最大得分落在第一块时与
 * attention_query 一致；得分沿着键逐渐增大时就不一致了。找出错在哪里，说明原因，
 * 并改正；改动越少越好。
 * Grade it with:  make grade EX=ch10-fix-online-rescale
 */
#include "tiled_query.h"
#include <math.h>
#include <stddef.h>

void tiled_query(double *out, const double *q, const double *k, const double *v,
                 int s_k, int d_k, int d_v, double kappa, int tile)
{
    double m = -INFINITY, l = 0.0, s[64];  /* out holds u until the end */
    for (int c = 0; c < d_v; c++)
        out[c] = 0.0;
    for (int j0 = 0; j0 < s_k; j0 += tile) {
        int j1 = j0 + tile < s_k ? j0 + tile : s_k;
        double m_new = m;
        for (int j = j0; j < j1; j++) {     /* the tile's scores */
            double dot = 0.0;
            for (int c = 0; c < d_k; c++)
                dot += q[c] * k[(size_t)j * d_k + c];
            s[j - j0] = kappa * dot;
            if (s[j - j0] > m_new)
                m_new = s[j - j0];
        }
        double alpha = exp(m - m_new);      /* old terms to the new maximum */
        /* BEGIN FIX */
        l *= alpha;
        /* BROKEN */
        /* END FIX */
        for (int c = 0; c < d_v; c++)
            out[c] *= alpha;
        for (int j = j0; j < j1; j++) {
            double e = exp(s[j - j0] - m_new);
            l += e;
            for (int c = 0; c < d_v; c++)
                out[c] += e * v[(size_t)j * d_v + c];
        }
        m = m_new;
    }
    for (int c = 0; c < d_v; c++)           /* o = u / l */
        out[c] /= l;
}
