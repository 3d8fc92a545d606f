/* Checks of Exercise 2.1: the answers against the exact values, computed
   here from the closed form, within half a unit of the fourth decimal. */
#include "grade.h"
#include "by_hand.h"
#include <math.h>

static void answers(double w[3], double *attn)
{
    double *ww = grade_doubles(3), *aa = grade_doubles(1);
    by_hand_answers(ww, aa);
    for (int j = 0; j < 3; j++)
        w[j] = ww[j];
    *attn = aa[0];
}

CHECK(equal_weights)
{
    /* <q, k_1> = <q, k_2> = 1: equal scores, equal weights e^a / (2 e^a + e^2a) */
    double w[3], attn, a = 1 / sqrt(2.0);
    answers(w, &attn);
    double want = 0;
    GRADE_REFERENCE(want = exp(a) / (2 * exp(a) + exp(2 * a)));
    expect_near("a_1", w[0], want);
    expect_near("a_2", w[1], want);
}

CHECK(third_weight)
{
    double w[3], attn, a = 1 / sqrt(2.0);
    answers(w, &attn);
    expect_near("a_3", w[2], exp(2 * a) / (2 * exp(a) + exp(2 * a)));
}

CHECK(attention_value)
{
    double w[3], attn, a = 1 / sqrt(2.0);
    answers(w, &attn);
    expect_near("Attn(q, K, V)", attn, (3 * exp(a) + 4 * exp(2 * a)) / (2 * exp(a) + exp(2 * a)));
}
