/* Checks of Exercise 3.2.  Each entry's value names its place (b, t, i, c),
   so the expected layout is written down directly from the formula. */
#include "grade.h"
#include "split_heads.h"
#include <stdio.h>

static double tag(int b, int t, int i, int c)
{
    return 1000.0 * b + 100.0 * t + 10.0 * i + c + 0.5;
}

/* src in (B, s, h, d_k) order with src = tag(b, t, i, c) */
static double *bshd(int B, int s, int h, int d_k)
{
    double *x = grade_doubles((size_t)B * s * h * d_k);
    for (int b = 0; b < B; b++)
        for (int t = 0; t < s; t++)
            for (int i = 0; i < h; i++)
                for (int c = 0; c < d_k; c++)
                    x[((b * s + t) * h + i) * d_k + c] = tag(b, t, i, c);
    return x;
}

/* the same values in (B, h, s, d_k) order */
static double *bhsd(int B, int s, int h, int d_k)
{
    double *x = grade_doubles((size_t)B * s * h * d_k);
    for (int b = 0; b < B; b++)
        for (int i = 0; i < h; i++)
            for (int t = 0; t < s; t++)
                for (int c = 0; c < d_k; c++)
                    x[((b * h + i) * s + t) * d_k + c] = tag(b, t, i, c);
    return x;
}

static void split(int B, int s, int h, int d_k)
{
    size_t n = (size_t)B * s * h * d_k;
    double *src = bshd(B, s, h, d_k), *dst = grade_doubles(n);
    double *orig = grade_copy(src, n);
    split_heads_batched(dst, src, B, s, h, d_k);
    expect_doubles("dst (entry b*1000 + t*100 + i*10 + c + 0.5)"
                   "|zh:dst（元素为 b*1000 + t*100 + i*10 + c + 0.5）",
                   dst, bhsd(B, s, h, d_k), n);
    expect_same("src", src, orig, n);
}

static void merge(int B, int s, int h, int d_k)
{
    size_t n = (size_t)B * s * h * d_k;
    double *src = bhsd(B, s, h, d_k), *dst = grade_doubles(n);
    merge_heads_batched(dst, src, B, s, h, d_k);
    expect_doubles("dst (entry b*1000 + t*100 + i*10 + c + 0.5)"
                   "|zh:dst（元素为 b*1000 + t*100 + i*10 + c + 0.5）",
                   dst, bshd(B, s, h, d_k), n);
}

CHECK(split_one_sequence)
{
    /* B = 1, s = 2, h = 2, d_k = 1: (t0h0, t0h1, t1h0, t1h1) -> (t0h0, t1h0, t0h1, t1h1) */
    double src[4] = { 1, 2, 3, 4 }, want[4] = { 1, 3, 2, 4 };
    double *dst = grade_doubles(4);
    split_heads_batched(dst, grade_copy(src, 4), 1, 2, 2, 1);
    expect_doubles("dst", dst, want, 4);
}

CHECK(split_a_batch)
{
    split(2, 3, 4, 2);
}

CHECK(merge_a_batch)
{
    merge(2, 3, 4, 2);
}

CHECK(merge_undoes_split)
{
    enum { B = 3, S = 5, H = 2, DK = 3, N = B * S * H * DK };
    double x[N];
    grade_random(x, N, 9, -1, 1);
    double *mid = grade_doubles(N), *back = grade_doubles(N);
    split_heads_batched(mid, grade_copy(x, N), B, S, H, DK);
    merge_heads_batched(back, mid, B, S, H, DK);
    expect_same("merge(split(x))", back, x, N);
}

/* BEGIN HIDDEN */
CHECK(one_head_is_a_copy)
{
    split(2, 4, 1, 3);
    merge(2, 4, 1, 3);
}

CHECK(larger_shapes)
{
    split(4, 9, 8, 5);
    merge(3, 7, 6, 4);
}

CHECK(one_position)
{
    split(5, 1, 3, 2);
    merge(5, 1, 3, 2);
}
/* END HIDDEN */
