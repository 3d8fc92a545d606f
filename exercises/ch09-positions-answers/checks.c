/* Checks of Exercise 9.3, each answer counted here: greedy decoding of a
   sentence of n tokens calls the scorer for prefixes of lengths 1..n; the
   recomputation runs the decoder over all t positions of a prefix of
   length t, the cache over its last one.  The excess of the mean of
   n(n+1)/2 over m(m+1)/2 is half the variance of n; an answer to three
   decimals is within 0.0005 of it. */
#include "grade.h"
#include "positions_answers.h"

static long long recomputed(int n)
{
    long long sum = 0;
    for (int t = 1; t <= n; t++)
        sum += t;                   /* the prefix of length t, all of it */
    return sum;
}

CHECK(recomputed_for_12)
{
    expect_int("(a) positions recomputed for n = 12|zh:（a）n = 12 时重新计算的位置数",
               answer_recomputed_positions(), recomputed(12));
}

CHECK(cached_for_12)
{
    expect_int("(b) positions with the cache for n = 12|zh:（b）n = 12 时用缓存计算的位置数",
               answer_cached_positions(), 12);      /* the new position, each of 12 steps */
}

CHECK(excess_for_6_8_10)
{
    const int n[3] = { 6, 8, 10 };
    double mean_rec = 0.0, m = 0.0;
    for (int i = 0; i < 3; i++) {
        mean_rec += recomputed(n[i]) / 3.0;
        m += n[i] / 3.0;
    }
    expect_near("(c) mean recomputed minus m(m+1)/2 for 6, 8, 10|zh:（c）6、8、10 时重新计算的平均位置数减 m(m+1)/2",
                answer_excess_over_mean(), mean_rec - m * (m + 1) / 2);
}
