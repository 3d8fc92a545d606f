/* Unit tests of Chapter 10's library: the kernel's exp against libm, the
   online-softmax merge by hand and against Chapter 2's attention_query, and
   the key-value cache against Chapter 2's attention (all independent of the
   code under test). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "attention.h"
#include "core.h"
#include "fastattn.h"

Test(fa_exp, close_to_libm_on_its_range)
{
    for (int base = 0; base < 2; base++) {
        fa_use_baseline(base);
        double worst = 0.0;
        for (float x = -87.0f; x <= 0.0f; x += 0.0137f) {
            double want = exp((double)x), got = fa_exp(x);
            worst = fmax(worst, fabs(got - want) / want);
        }
        cr_expect(worst < 4e-7, "worst relative error %g (baseline %d)", worst, base);
    }
    fa_use_baseline(0);
}

Test(fa_exp, zero_at_minus_infinity_one_at_zero)
{
    cr_expect(fa_exp(-INFINITY) == 0.0f);
    cr_expect(fa_exp(-100.0f) == 0.0f);
    cr_expect(fa_exp(0.0f) == 1.0f, "fa_exp(0) = %.9g", fa_exp(0.0f));
}

Test(fa_exp, shifted_row_sums)
{
    float x[37];
    double want = 0.0;
    for (int j = 0; j < 37; j++)
        x[j] = -0.25f * j, want += exp(-0.25 * j - 1.0);
    float sum = fa_exp_shifted(x, 37, 1.0f);
    cr_expect(fabs(sum - want) < 1e-6 * want, "sum %g, expected %g", sum, want);
    cr_expect(fabsf(x[4] - (float)exp(-2.0)) < 1e-7f);
}

Test(online, merge_by_hand)
{
    /* A = {score 0, v = 1}, B = {score ln 3, v = 5}: weights 1/4 and 3/4 */
    double ua = 1.0, ub = 5.0;
    OnlinePartial a = { 0.0, 1.0, &ua }, b = { log(3.0), 1.0, &ub };
    online_merge(&a, &b, 1);
    cr_expect(fabs(a.m - log(3.0)) < 1e-15);
    cr_expect(fabs(a.l - 4.0 / 3) < 1e-15, "l = %.17g", a.l);
    cr_expect(fabs(a.u[0] / a.l - (0.25 * 1 + 0.75 * 5)) < 1e-15);
}

Test(online, empty_partials)
{
    double ua = 0.0, ub = 0.0, uc = 2.0;
    OnlinePartial a = { -INFINITY, 0.0, &ua }, b = { -INFINITY, 0.0, &ub };
    online_merge(&a, &b, 1);             /* empty + empty: still empty, no NaN */
    cr_expect(a.m == -INFINITY && a.l == 0.0 && ua == 0.0);
    OnlinePartial c = { 7.0, 1.0, &uc };
    online_merge(&a, &c, 1);             /* empty + c = c */
    cr_expect(a.m == 7.0 && a.l == 1.0 && ua == 2.0, "m %g l %g u %g", a.m, a.l, ua);
}

Test(online, equals_attention_query)
{
    enum { S = 50, DK = 6, DV = 4 };
    Rng rng;
    rng_seed(&rng, 5);
    double q[DK], k[S * DK], v[S * DV], w[S], want[DV], got[DV];
    rng_fill_normal(&rng, q, DK, 0, 3), rng_fill_normal(&rng, k, S * DK, 0, 3);
    rng_fill_normal(&rng, v, S * DV, 0, 1);
    attention_query(want, w, q, k, v, S, DK, DV, 0.4);
    online_attention_query(got, q, k, v, S, DK, DV, 0.4);
    for (int t = 0; t < DV; t++)
        cr_expect(fabs(got[t] - want[t]) < 1e-13, "%d: %.17g vs %.17g", t, got[t], want[t]);
}

Test(kv_cache, each_step_is_attention_over_the_prefix)
{
    enum { T = 70, D = 8 };
    Rng rng;
    rng_seed(&rng, 6);
    double qd[T * D], kd[T * D], vd[T * D], w[T], want[D];
    rng_fill_normal(&rng, qd, T * D, 0, 1), rng_fill_normal(&rng, kd, T * D, 0, 1);
    rng_fill_normal(&rng, vd, T * D, 0, 1);
    float q[T * D], k[T * D], v[T * D], out[D];
    for (int i = 0; i < T * D; i++)   /* the double reference sees the float inputs */
        q[i] = (float)qd[i], k[i] = (float)kd[i], v[i] = (float)vd[i],
        qd[i] = q[i], kd[i] = k[i], vd[i] = v[i];
    KvCache c = kv_new(T, D, D);
    for (int t = 0; t < T; t++) {
        kv_append(&c, k + t * D, v + t * D);
        kv_attend(out, &c, q + t * D, 0.5f);
        attention_query(want, w, qd + t * D, kd, vd, t + 1, D, D, 0.5);
        for (int e = 0; e < D; e++)
            cr_expect(fabs(out[e] - want[e]) < 1e-5, "step %d: %g vs %g", t, out[e], want[e]);
    }
    kv_free(&c);
}
