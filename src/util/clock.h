/* clock.h — elapsed time for the stage timings facet reports. */
#ifndef FACET_UTIL_CLOCK_H
#define FACET_UTIL_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (never jumps with the wall clock). */
double clock_seconds(void);

#endif
