/* Checks of Exercise 1.3.  By hand for d = 1; otherwise the definition is
   checked directly: the schedule is run here (in long double, in the
   reference build only) and the returned m must be the first round within
   tol.  The data are chosen so that no round's difference lies within a
   relative 1e-6 of tol (the reference run fails if one does): rounding
   differences between implementations cannot change the answer. */
#include "grade.h"
#include "rnn_rounds.h"
#include <math.h>

enum { MAXN = 256, MAXD = 8 };

static void lstep(long double *h, const long double *h_prev, const double *x_t, const double *w,
                  const double *u, const double *b, int d_in, int d)
{
    for (int j = 0; j < d; j++) {
        long double s = b[j];
        if (h_prev)
            for (int i = 0; i < d; i++)
                s += h_prev[i] * w[i * d + j];
        for (int i = 0; i < d_in; i++)
            s += (long double)x_t[i] * u[i * d + j];
        h[j] = tanhl(s);
    }
}

/* errs[m] = max |round m - step-by-step| for m = 1..n */
static void round_errors(double *errs, const double *x, const double *w, const double *u,
                         const double *b, int n, int d_in, int d)
{
    static long double ref[MAXN * MAXD], cur[MAXN * MAXD], next[MAXN * MAXD];
    for (int t = 0; t < n; t++)
        lstep(ref + t * d, t ? ref + (t - 1) * d : NULL, x + t * d_in, w, u, b, d_in, d);
    for (int i = 0; i < n * d; i++)
        cur[i] = 0;
    for (int m = 1; m <= n; m++) {
        long double err = 0;
        for (int t = 0; t < n; t++)
            lstep(next + t * d, t ? cur + (t - 1) * d : NULL, x + t * d_in, w, u, b, d_in, d);
        for (int i = 0; i < n * d; i++) {
            if (fabsl(next[i] - ref[i]) > err)
                err = fabsl(next[i] - ref[i]);
            cur[i] = next[i];
        }
        errs[m] = (double)err;
    }
}

static int call(const double *x, const double *w, const double *u, const double *b,
                int n, int d_in, int d, double tol)
{
    double *xx = grade_copy(x, (size_t)n * d_in), *work = grade_doubles(3 * (size_t)n * d);
    int m = rnn_rounds_to_tolerance(xx, grade_copy(w, (size_t)d * d),
                                    grade_copy(u, (size_t)d_in * d), grade_copy(b, d),
                                    n, d_in, d, tol, work);
    expect_same("x", xx, x, (size_t)n * d_in);
    return m;
}

static void check_definition(int n, int d_in, int d, double sigma, double tol, unsigned long seed)
{
    static double x[MAXN * MAXD], w[MAXD * MAXD], u[MAXD * MAXD], b[MAXD], errs[MAXN + 1];
    grade_random(x, (size_t)n * d_in, seed, -1, 1);
    grade_random(w, (size_t)d * d, seed + 1, -sigma * 1.7320508, sigma * 1.7320508);
    grade_random(u, (size_t)d_in * d, seed + 2, -0.866, 0.866);
    grade_random(b, d, seed + 3, -0.1, 0.1);
    int m = call(x, w, u, b, n, d_in, d, tol), want = 0;
    if (m < 1 || m > n)
        grade_fail("returned %d rounds: expected a count from 1 to n", "返回了 %d 轮：应在 1 到 n 之间", m);
    GRADE_REFERENCE({
        round_errors(errs, x, w, u, b, n, d_in, d);    /* after the call: it gets copies */
        for (int r = n; r >= 1; r--) {
            if (fabs(errs[r] - tol) <= 1e-6 * tol)
                grade_fail("the check's data: round %d is within 1e-6 of tol", "检查的数据：第 %d 轮"
                           "与 tol 相差不到 1e-6", r);
            if (errs[r] <= tol)
                want = r;
        }
    });
    expect_int("rounds|zh:轮数", m, want);
}

CHECK(one_position)
{
    /* n = 1: round 1 computes h_1 = tanh(x_1 U + b) exactly */
    double x[2] = { 0.3, -0.7 }, w[1] = { 0.5 }, u[2] = { 1, 2 }, b[1] = { 0.1 };
    expect_int("rounds for n = 1|zh:n = 1 时的轮数", call(x, w, u, b, 1, 2, 1, 0.0), 1);
}

CHECK(three_positions_by_hand)
{
    /* d_in = d = 1, W = U = 1, b = 0, x = (1, 0, 0): h = (tanh 1, tanh tanh 1, tanh tanh tanh 1)
       = (0.762, 0.642, 0.566).  Round 1 gives (0.762, 0, 0): off by 0.642; round 2
       (0.762, 0.642, 0): off by 0.566; round 3 is exact. */
    double x[3] = { 1, 0, 0 }, w[1] = { 1 }, u[1] = { 1 }, b[1] = { 0 };
    expect_int("rounds for tol = 0.6|zh:tol = 0.6 时的轮数", call(x, w, u, b, 3, 1, 1, 0.6), 2);
    expect_int("rounds for tol = 0.65|zh:tol = 0.65 时的轮数", call(x, w, u, b, 3, 1, 1, 0.65), 1);
    expect_int("rounds for tol = 0.1|zh:tol = 0.1 时的轮数", call(x, w, u, b, 3, 1, 1, 0.1), 3);
}

CHECK(small_weights_converge_fast)
{
    check_definition(64, 4, 4, 0.25, 1e-9, 10);
}

CHECK(larger_weights)
{
    check_definition(48, 4, 4, 1.0, 1e-9, 20);
}

/* BEGIN HIDDEN */
CHECK(large_tolerance_is_one_round)
{
    /* every state lies in (-1, 1): with tol = 2 round 1 already qualifies */
    check_definition(20, 3, 2, 0.5, 2.0, 30);
}

CHECK(saturating_weights)
{
    check_definition(40, 4, 4, 2.0, 1e-9, 40);
}

CHECK(long_sequence_d_in_differs)
{
    check_definition(256, 3, 5, 0.5, 1e-9, 50);
}
/* END HIDDEN */
