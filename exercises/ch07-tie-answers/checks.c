/* Check of Exercise 7.5.  With Delta = sqrt(d_K) G, G the gap between the
   top two of s_K standard normals with density f, the mean of
   2 sigma(Delta)(1 - sigma(Delta)) is about f(0) / sqrt(d_K) times
   int_0^inf 2 sigma (1 - sigma) = 1: so c = f(0).  f(0) is integrated here
   by Simpson's rule on [-12, 12], in long double; an answer to two decimals
   is within 0.005 of it. */
#include "grade.h"
#include "tie_answers.h"
#include <math.h>

static long double integrand(long double x, int s_k)
{
    long double phi = expl(-x * x / 2) / sqrtl(2 * 3.14159265358979323846264338327950L);
    long double cdf = erfcl(-x / sqrtl(2.0L)) / 2;
    return phi * phi * powl(cdf, s_k - 2);
}

CHECK(constant_for_16_keys)
{
    const int s_k = 16, steps = 4000;
    const long double a = -12, b = 12, h = (b - a) / steps;
    long double sum = integrand(a, s_k) + integrand(b, s_k);
    for (int i = 1; i < steps; i++)
        sum += (i % 2 ? 4 : 2) * integrand(a + i * h, s_k);
    long double f0 = (long double)s_k * (s_k - 1) * sum * h / 3;
    expect_near("c for s_K = 16|zh:s_K = 16 时的 c", answer_tie_constant(), (double)f0);
}
