/* Exercise 8.2 · 练习 8.2: the learning-rate schedule of equation (3).
 * 式 (3) 的学习率公式。
 *
 * lrate = factor * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5):
 * a linear warm-up, then decay with the inverse square root of the step.
 * Grade it with:  make grade EX=ch08-noam-schedule
 */
#include "schedule.h"
#include <math.h>

double schedule_rate(int d_model, long step, long warmup, double factor)
{
    /* BEGIN SOLUTION */
    double s = (double)step, w = (double)warmup;
    double up = s / (w * sqrt(w)), down = 1.0 / sqrt(s);
    return factor * (up < down ? up : down) / sqrt((double)d_model);
    /* END SOLUTION */
    /* BEGIN STUB
    (void)d_model;
    (void)step;
    (void)warmup;
    (void)factor;
    return 0.0;
       END STUB */
}

long schedule_peak(int d_model, long warmup, double factor, double *peak)
{
    /* BEGIN SOLUTION */
    /* rising up to step = warmup, falling after: the peak is at warmup */
    *peak = schedule_rate(d_model, warmup, warmup, factor);
    return warmup;
    /* END SOLUTION */
    /* BEGIN STUB
    (void)d_model;
    (void)warmup;
    (void)factor;
    *peak = 0.0;
    return 0;
       END STUB */
}
