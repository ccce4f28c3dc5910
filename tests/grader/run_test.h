/* run_test.h: running the suite's tests (run_test.c). */
#ifndef GL_RUN_TEST_H
#define GL_RUN_TEST_H

#include "results.h"
#include "suite.h"

/* The monotonic clock in seconds: the tests' and the lab's times. */
double now(void);

/* Runs test e (not a sanitize one) and fills r: its status, message and time. A timed test
 * leaves the GPU held alone for the next one: run_test_release lets it go (the next test of
 * another kind does too). */
void run_test(const entry *e, gl_result *r);
void run_test_release(void);

/* The plan, first: every performance test (of only, if not NULL) once with the kit's
 * baselines only, timed and kept for the tests themselves. */
void plan(const char *only);

#endif
