#include "schedule.h"
#include "model.h"

double schedule_rate(int d_model, long step, long warmup, double factor)
{
    return factor * noam_rate(d_model, step, warmup);
}

long schedule_peak(int d_model, long warmup, double factor, double *peak)
{
    *peak = schedule_rate(d_model, warmup, warmup, factor);
    return warmup;
}
