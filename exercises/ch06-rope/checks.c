/* Checks of Exercise 6.3.  By hand for d = 2 and d = 4, otherwise the
   definition evaluated here in long double; and the property the exercise
   is about: <rope(q)_s, rope(k)_t> depends on s - t only. */
#include "grade.h"
#include "rope.h"
#include <math.h>

static void reference(double *y, const double *x, int n, int d, int offset)
{
    for (int t = 0; t < n; t++)
        for (int i = 0; i < d / 2; i++) {
            long double th = (long double)(t + offset) * powl(10000.0L, -2.0L * i / d);
            long double a = x[t * d + 2 * i], b = x[t * d + 2 * i + 1];
            y[t * d + 2 * i] = (double)(a * cosl(th) + b * sinl(th));
            y[t * d + 2 * i + 1] = (double)(-a * sinl(th) + b * cosl(th));
        }
}

static void compare(int n, int d, int offset, unsigned long seed)
{
    size_t nd = (size_t)n * d;
    double *x = grade_doubles(nd), *want = grade_doubles(nd);
    grade_random(x, nd, seed, -2, 2);
    double *y = grade_copy(x, nd);
    rope_forward(y, n, d, offset);
    GRADE_REFERENCE(reference(want, x, n, d, offset));
    expect_matrix("x after rope_forward|zh:rope_forward 之后的 x", y, want, n, d);
}

CHECK(position_zero_is_unchanged)
{
    /* t + offset = 0: theta = 0, R = I, so row 0 stays; row 1 turns (d = 2, omega = 1) */
    double x[4] = { 0.5, -1.5, 2, 0 }, want[4] = { 0.5, -1.5, 0, 0 };
    double *y = grade_copy(x, 4);
    rope_forward(y, 2, 2, 0);
    GRADE_REFERENCE(want[2] = 2 * cos(1.0), want[3] = -2 * sin(1.0));
    expect_matrix("x", y, want, 2, 2);
}

CHECK(one_pair_by_hand)
{
    /* d = 2: omega_0 = 1.  Row 1 (offset 0) rotates by 1 radian:
       [1, 0] -> [cos 1, -sin 1]; row 0 stays [0, 1] */
    double x[4] = { 0, 1, 1, 0 }, want[4] = { 0, 1, 0, 0 };
    double *y = grade_copy(x, 4);
    rope_forward(y, 2, 2, 0);
    GRADE_REFERENCE(want[2] = cos(1.0), want[3] = -sin(1.0));
    expect_matrix("x", y, want, 2, 2);
}

CHECK(second_pair_slower_and_offset)
{
    /* d = 4: omega_1 = 10000^(-1/2) = 0.01.  One row, offset 3:
       pair 0 turns by 3, pair 1 by 0.03; [0, 1] -> [sin theta, cos theta] */
    double x[4] = { 0, 1, 0, 1 }, want[4] = { 0, 0, 0, 0 };
    double *y = grade_copy(x, 4);
    rope_forward(y, 1, 4, 3);
    GRADE_REFERENCE(want[0] = sin(3.0), want[1] = cos(3.0), want[2] = sin(0.03),
                    want[3] = cos(0.03));
    expect_doubles("x", y, want, 4);
}

CHECK(random_rows)
{
    compare(6, 8, 0, 10);
}

CHECK(relative_positions)
{
    /* the same q at position s and k at position t: the dot product after
       RoPE depends on s - t only, e.g. (s, t) = (5, 2) and (9, 6) */
    enum { D = 8 };
    double q[D], k[D], rq[D], rk[D], want = 0;
    grade_random(q, D, 20, -1, 1);
    grade_random(k, D, 21, -1, 1);
    double dots[2];
    int s_t[2][2] = { { 5, 2 }, { 9, 6 } };
    for (int c = 0; c < 2; c++) {
        double *qq = grade_copy(q, D), *kk = grade_copy(k, D);
        rope_forward(qq, 1, D, s_t[c][0]);
        rope_forward(kk, 1, D, s_t[c][1]);
        dots[c] = 0;
        for (int j = 0; j < D; j++)
            dots[c] += qq[j] * kk[j];
    }
    GRADE_REFERENCE({
        reference(rq, q, 1, D, 5);
        reference(rk, k, 1, D, 2);
        for (int j = 0; j < D; j++)
            want += rq[j] * rk[j];
    });
    expect_near("<rope(q)_5, rope(k)_2>", dots[0], want);
    expect_near("<rope(q)_9, rope(k)_6>", dots[1], want);
}

/* BEGIN HIDDEN */
CHECK(large_offset)
{
    /* offset 2000: the angle in double is good to about 2000 * 1e-16 */
    compare(3, 16, 2000, 30);
}

CHECK(wide_rows)
{
    compare(40, 64, 7, 40);
}

CHECK(offset_shifts_rows)
{
    /* row t with offset o equals row t + o with offset 0 */
    enum { D = 6 };
    double x[3 * D];
    grade_random(x, 3 * D, 50, -1, 1);
    double *a = grade_copy(x, 3 * D), *b = grade_doubles(5 * D);
    for (int j = 0; j < 5 * D; j++)
        b[j] = 0;
    for (int j = 0; j < 3 * D; j++)
        b[2 * D + j] = x[j];
    double *want = grade_doubles(3 * D);
    rope_forward(a, 3, D, 2);
    rope_forward(b, 5, D, 0);
    GRADE_REFERENCE(reference(want, x, 3, D, 2));
    expect_matrix("rows with offset 2|zh:各行，offset 为 2", a, want, 3, D);
    expect_matrix("rows 2..4 with offset 0|zh:第 2..4 行，offset 为 0", b + 2 * D, a, 3, D);
}
/* END HIDDEN */
