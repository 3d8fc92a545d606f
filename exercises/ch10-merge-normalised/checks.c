/* Checks of Exercise 10.1.  Expected values by hand, or from attention over
   the union computed here directly, in long double. */
#include "grade.h"
#include "merge_normalised.h"
#include <math.h>

/* attention and lse of one query over scores s[0..n) and values v[n x d_v] */
static long double attend(double *o, const double *s, const double *v, int n, int d_v)
{
    long double m = -INFINITY, z = 0;
    for (int j = 0; j < n; j++)
        m = s[j] > m ? s[j] : m;
    for (int j = 0; j < n; j++)
        z += expl(s[j] - m);
    for (int t = 0; t < d_v; t++) {
        long double acc = 0;
        for (int j = 0; j < n; j++)
            acc += expl(s[j] - m) / z * v[j * d_v + t];
        o[t] = (double)acc;
    }
    return m + logl(z);
}

/* split n keys at `cut`, merge the two halves, compare with the whole */
static void split_and_merge(int n, int cut, int d_v, double spread, unsigned long seed)
{
    double *s = grade_doubles(n), *v = grade_doubles((size_t)n * d_v);
    grade_random(s, n, seed, -spread, spread);
    grade_random(v, (size_t)n * d_v, seed + 1, -2, 2);
    double *want = grade_doubles(d_v), *oa = grade_doubles(d_v), *ob = grade_doubles(d_v);
    double la = (double)attend(oa, s, v, cut, d_v);
    double lb = (double)attend(ob, s + cut, v + (size_t)cut * d_v, n - cut, d_v);
    double *obb = grade_copy(ob, d_v);
    double got = merge_normalised(oa, la, obb, lb, d_v);
    long double lse = 0;
    GRADE_REFERENCE(lse = attend(want, s, v, n, d_v));
    expect_doubles("o_a (merged output)|zh:o_a（合并后的输出）", oa, want, d_v);
    expect_near_tol("the returned lse|zh:返回的 lse", got, (double)lse, 1e-12, 1e-12);
    expect_same("o_b", obb, ob, d_v);
}

CHECK(two_keys_by_hand)
{
    /* A = {score 0, v = 1}, B = {score log 3, v = 5}: weights 1/4, 3/4,
       output 4, lse = log(1 + 3) = log 4 */
    double *oa = grade_doubles(1), ob[1] = { 5.0 };
    oa[0] = 1.0;
    double lse = merge_normalised(oa, 0.0, grade_copy(ob, 1), log(3.0), 1);
    expect_near("o_a[0]", oa[0], 4.0);
    expect_near("the returned lse|zh:返回的 lse", lse, log(4.0));
}

CHECK(random_split)
{
    split_and_merge(20, 7, 3, 4.0, 11);
}

CHECK(empty_side)
{
    /* B empty: the result is A, whatever o_b holds */
    double *oa = grade_doubles(2), ob[2] = { 123.0, -7.0 };
    oa[0] = 0.5, oa[1] = -1.5;
    double lse = merge_normalised(oa, 2.5, grade_copy(ob, 2), -INFINITY, 2);
    double want[2] = { 0.5, -1.5 };
    expect_doubles("o_a", oa, want, 2);
    expect_near("the returned lse|zh:返回的 lse", lse, 2.5);
    /* A empty: the result is B */
    oa[0] = 99.0, oa[1] = 99.0;
    lse = merge_normalised(oa, -INFINITY, grade_copy(ob, 2), 1.0, 2);
    expect_doubles("o_a", oa, ob, 2);
    expect_near("the returned lse|zh:返回的 lse", lse, 1.0);
}

CHECK(both_empty)
{
    double *oa = grade_doubles(3), ob[3] = { 1, 2, 3 }, zero[3] = { 0, 0, 0 };
    oa[0] = oa[1] = oa[2] = 4.0;
    double lse = merge_normalised(oa, -INFINITY, grade_copy(ob, 3), -INFINITY, 3);
    expect_true(lse == -INFINITY, "both empty: the lse must be -INFINITY",
                "两边都为空时 lse 必须是 -INFINITY");
    expect_doubles("o_a", oa, zero, 3);
}

CHECK(huge_lse_stays_finite)
{
    double *oa = grade_doubles(1), ob[1] = { 3.0 };
    oa[0] = 1.0;
    double lse = merge_normalised(oa, 1e300, grade_copy(ob, 1), 1e300, 1);
    expect_near("o_a[0]", oa[0], 2.0);
    expect_true(isfinite(lse) && lse == 1e300 + log(2.0),
                "equal lse 1e300: the merged lse must be 1e300 + log 2, finite",
                "两个 lse 都是 1e300 时，合并后的 lse 应为有限的 1e300 + log 2");
}

/* BEGIN HIDDEN */
CHECK(far_apart)
{
    /* lse_b is 2000 below lse_a: B's weight underflows to 0, the result is A */
    double *oa = grade_doubles(2), ob[2] = { 1e6, 1e6 }, want[2] = { 0.25, 0.75 };
    oa[0] = 0.25, oa[1] = 0.75;
    double lse = merge_normalised(oa, -500.0, grade_copy(ob, 2), -2500.0, 2);
    expect_doubles("o_a", oa, want, 2);
    expect_near("the returned lse|zh:返回的 lse", lse, -500.0);
    /* and the other way round: B 2000 above A, so the result is B */
    double *oa2 = grade_doubles(2), ob2[2] = { 0.5, -0.5 };
    oa2[0] = 1e6, oa2[1] = 1e6;
    double lse2 = merge_normalised(oa2, -2500.0, grade_copy(ob2, 2), -500.0, 2);
    expect_doubles("o_a (B far above A)|zh:o_a（B 远大于 A）", oa2, ob2, 2);
    expect_near("the returned lse (B far above A)|zh:返回的 lse（B 远大于 A）", lse2, -500.0);
}

CHECK(long_random_split)
{
    split_and_merge(300, 211, 17, 30.0, 12);
}

CHECK(negative_huge)
{
    /* equal weights: o = (1 - 0.5) / 2, and lse = -1e300 + log 2, which is
       -1e300 in double (log 2 is far below half its ulp) */
    double *oa = grade_doubles(1), ob[1] = { -0.5 };
    oa[0] = 1.0;
    double lse = merge_normalised(oa, -1e300, grade_copy(ob, 1), -1e300 + 0.0, 1);
    expect_near("o_a[0]", oa[0], 0.25);
    expect_near("the returned lse|zh:返回的 lse", lse, -1e300);
}
/* END HIDDEN */
