/* clock.h: what the runner asks of the judge's clock (clock.c), beside the timing that
 * grader.h offers the suites. */
#ifndef GL_CLOCK_H
#define GL_CLOCK_H

/* GL_TRACE: where the timed rounds' time went (prepare, calls, record, verify). */
void gl_clock_trace(void);

#endif
