/* Checks of Exercise 7.1.  For independent q_c, k_c with mean 0 and
   variance s2, Var(q.k) = d s2^2 (each product has variance s2^2). */
#include "grade.h"
#include "variance_answers.h"

CHECK(variance_of_scaled_dot)
{
    long d = 64, s2 = 4;
    expect_int("(a) Var(q.k / sqrt 64)", answer_variance(), d * s2 * s2 / d);
}

CHECK(kappa_for_unit_variance)
{
    /* kappa^2 d s2^2 = 1, so 1/kappa = sqrt(d) s2 */
    expect_int("(b) m in kappa = 1/m|zh:（b）kappa = 1/m 中的 m", answer_kappa_denominator(), 8 * 4);
}
