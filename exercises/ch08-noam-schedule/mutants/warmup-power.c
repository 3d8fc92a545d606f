/* A known wrong solution (mutant) of ch08-noam-schedule, kept for the grader's tests
   and its feedback: the warm-up ramps as step / warmup, up to 1; it is step warmup^(-3/2),
   so that it meets step^(-1/2) exactly at step = warmup. */
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
    double s = (double)step, w = (double)warmup;
    double up = s / w, down = 1.0 / sqrt(s);
    return factor * (up < down ? up : down) / sqrt((double)d_model);
}

long schedule_peak(int d_model, long warmup, double factor, double *peak)
{
    /* rising up to step = warmup, falling after: the peak is at warmup */
    *peak = schedule_rate(d_model, warmup, warmup, factor);
    return warmup;
}
