/* Checks of Exercise 7.2.  Expected values: the text's closed forms (two
   keys at 1/2 give 1/2, n uniform keys sqrt(n-1)/n, one-hot gives 0), or the
   Frobenius norm of the explicit matrix diag(p) - p^T p summed in long
   double here.  Tolerance 1e-12 absolute, as the exercise states. */
#include "grade.h"
#include "jacobian_frobenius.h"
#include <math.h>
#include <stdio.h>

static double explicit_norm(const double *p, int n)
{
    long double sum = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            long double e = (i == j ? (long double)p[i] : 0) - (long double)p[i] * p[j];
            sum += e * e;
        }
    return (double)sqrtl(sum);
}

/* a random probability vector with entries drawn then normalised */
static void random_p(double *p, int n, unsigned long seed, double spread)
{
    double z = 0;
    grade_random(p, n, seed, -spread, spread);
    for (int j = 0; j < n; j++)
        z += (p[j] = exp(p[j]));
    for (int j = 0; j < n; j++)
        p[j] /= z;
}

static void compare(const char *what, const double *p, int n, double want)
{
    double *pp = grade_copy(p, n);
    double got = softmax_jacobian_frobenius(pp, n);
    expect_near(what, got, want);
    expect_same("p", pp, p, n);
}

CHECK(two_keys_at_one_half)
{
    double p[2] = { 0.5, 0.5 };
    compare("||J||_F for p = (1/2, 1/2)|zh:p = (1/2, 1/2) 时的 ||J||_F", p, 2, 0.5);
}

CHECK(uniform_keys)
{
    /* n uniform keys: sqrt(n - 1) / n */
    double p[8];
    for (int n = 1; n <= 8; n++) {
        for (int j = 0; j < n; j++)
            p[j] = 1.0 / n;
        char what[96];
        snprintf(what, sizeof what, "||J||_F for %d uniform keys|zh:%d 个均匀的键时的 ||J||_F", n, n);
        double want = 0;
        GRADE_REFERENCE(want = sqrt(n - 1.0) / n);
        compare(what, p, n, want);
    }
}

CHECK(one_hot_is_zero)
{
    /* a saturated softmax: J = 0 */
    double p[4] = { 0, 0, 1, 0 };
    compare("||J||_F for a one-hot p|zh:p 为独热向量时的 ||J||_F", p, 4, 0.0);
}

CHECK(random_p_matches_the_matrix)
{
    double p[10];
    random_p(p, 10, 5, 2.0);
    double want = 0;
    GRADE_REFERENCE(want = explicit_norm(p, 10));
    compare("||J||_F", p, 10, want);
}

/* BEGIN HIDDEN */
CHECK(long_random_p)
{
    enum { N = 300 };
    double *p = grade_doubles(N);
    random_p(p, N, 77, 4.0);
    double want = 0;
    GRADE_REFERENCE(want = explicit_norm(p, N));
    compare("||J||_F", p, N, want);
}

CHECK(peaked_p)
{
    /* one weight 0.999: ||J||_F about 1.4e-3 */
    double p[3] = { 0.999, 0.0006, 0.0004 }, want = 0;
    GRADE_REFERENCE(want = explicit_norm(p, 3));
    compare("||J||_F", p, 3, want);
}

CHECK(uneven_two_keys)
{
    /* two keys (a, 1 - a): ||J||_F = 2 a (1 - a) */
    double p[2] = { 0.25, 0.75 }, want = 0;
    GRADE_REFERENCE(want = 2 * 0.25 * 0.75);
    compare("||J||_F for p = (1/4, 3/4)|zh:p = (1/4, 3/4) 时的 ||J||_F", p, 2, want);
}

CHECK(linear_time_for_a_million_keys)
{
    /* O(n) is part of the contract: n = 2^21 uniform keys take milliseconds
       in O(n) and about 10^12 steps in O(n^2), far past the CPU limit.  The
       expected value is the closed form sqrt(n - 1) / n. */
    enum { N = 1 << 21 };
    double *p = grade_doubles(N);
    for (int j = 0; j < N; j++)
        p[j] = 1.0 / N;
    expect_near("||J||_F for 2^21 uniform keys|zh:2^21 个均匀的键时的 ||J||_F", softmax_jacobian_frobenius(p, N),
                sqrt((double)N - 1) / N);
}

/* END HIDDEN */
