/* Exercise 8.2: the learning rate of the paper's equation (3), the book's
   equation (21).  Do not edit: the grader uses its own copy of this header. */
#ifndef EX_SCHEDULE_H
#define EX_SCHEDULE_H

/* factor * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5), step >= 1,
   warmup >= 1. */
double schedule_rate(int d_model, long step, long warmup, double factor);
/* The step at which schedule_rate is largest (the smallest such step if
   several), and the rate there in *peak. */
long schedule_peak(int d_model, long warmup, double factor, double *peak);

#endif
