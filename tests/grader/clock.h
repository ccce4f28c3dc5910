/* clock.h: what the runner asks of the judge's clock (clock.c), beside the timing that
 * grader.h offers the suites. */
#ifndef GL_CLOCK_H
#define GL_CLOCK_H

/* GL_TRACE: where the timed rounds' time went (prepare, calls, record, verify). */
void gl_clock_trace(void);
/* Keeps the GPU busy for a moment if this process timed nothing for a while (its clocks may
 * have dropped): before a timed test takes the GPU alone. */
void gl_clock_warm(void);
/* The kit's baselines are timed again when next asked (a timed verdict timed twice). */
void gl_clock_forget_baselines(void);

#endif
