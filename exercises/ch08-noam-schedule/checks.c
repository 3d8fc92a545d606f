/* Checks of Exercise 8.2: values by hand and from the definition. */
#include "grade.h"
#include "schedule.h"
#include <math.h>

CHECK(warmup_is_linear)
{
    /* d = 64, warmup = 100: step 10 gives 64^-0.5 * 10 * 100^-1.5 = 1.25e-3 */
    expect_near("schedule_rate(64, 10, 100, 1)", schedule_rate(64, 10, 100, 1.0), 1.25e-3);
    expect_near("rate(20) / rate(10)", schedule_rate(64, 20, 100, 1.0) / schedule_rate(64, 10, 100, 1.0), 2.0);
}

CHECK(decay_is_inverse_square_root)
{
    /* d = 64, warmup = 100: step 400 gives 1/8 * 1/20 = 6.25e-3 */
    expect_near("schedule_rate(64, 400, 100, 1)", schedule_rate(64, 400, 100, 1.0), 6.25e-3);
    expect_near("rate(1600) / rate(400)", schedule_rate(64, 1600, 100, 1.0) / schedule_rate(64, 400, 100, 1.0), 0.5);
}

CHECK(paper_base_model_values)
{
    expect_near("schedule_rate(512, 4000, 4000, 1)", schedule_rate(512, 4000, 4000, 1.0),
                1.0 / sqrt(512.0 * 4000.0));
    expect_near("schedule_rate(512, 1, 4000, 1)", schedule_rate(512, 1, 4000, 1.0),
                1.0 / sqrt(512.0) / pow(4000.0, 1.5));
}

CHECK(peak_step_and_value)
{
    double peak = -1;
    long s = schedule_peak(512, 4000, 1.0, &peak);
    expect_int("schedule_peak(512, 4000, 1, &peak)", s, 4000);
    expect_near("peak", peak, 1.0 / sqrt(512.0 * 4000.0));
    for (long t = 3990; t <= 4010; t++)
        expect_true(schedule_rate(512, t, 4000, 1.0) <= peak,
                    "a step near the peak has a larger rate than the peak",
                    "峰值附近有一步的学习率比峰值还大");
}

/* BEGIN HIDDEN */
CHECK(scaled_by_factor)
{
    expect_near("schedule_rate(32, 50, 100, 2.5)", schedule_rate(32, 50, 100, 2.5),
                2.5 / sqrt(32.0) * 50.0 / 1000.0);
    double peak = 0;
    expect_int("schedule_peak(32, 7, 3, &peak)", schedule_peak(32, 7, 3.0, &peak), 7);
    expect_near("peak", peak, 3.0 / sqrt(32.0) / sqrt(7.0));
}

CHECK(warmup_one_has_no_ramp)
{
    expect_near("schedule_rate(16, 1, 1, 1)", schedule_rate(16, 1, 1, 1.0), 0.25);
    expect_near("schedule_rate(16, 9, 1, 1)", schedule_rate(16, 9, 1, 1.0), 0.25 / 3.0);
    double peak = 0;
    expect_int("schedule_peak(16, 1, 1, &peak)", schedule_peak(16, 1, 1.0, &peak), 1);
}
/* END HIDDEN */
