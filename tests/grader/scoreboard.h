/* scoreboard.h: the lab's scoreboard (scoreboard.c), as the runner prints it. */
#ifndef GL_SCOREBOARD_H
#define GL_SCOREBOARD_H

#include "results.h"
#include "suite.h"

#include <stdio.h>

/* text, cut at spaces into lines of at most width characters, each after indent */
void print_wrapped(const char *text, const char *indent, int width);
extern int quiet; /* --quiet: no failure messages (make test, on the starting files) */
/* make calibrate's numbers: the test's measured value and its threshold (gl_test_margin) */
void write_margin(FILE *out, const entry *e);
/* a test's line on the scoreboard, and its message (a skip's reason once) */
void print_line(const entry *e, const gl_result *r);
/* The "to review" list (tools: gl-review): constructs the lab never needs. */
void print_review(const char *dir, FILE *out);

extern double kind_seconds[GL_NKINDS]; /* time spent on each kind */
extern int kind_tests[GL_NKINDS];      /* tests of each kind that were reported */
extern int not_run_points, not_run_tests; /* tests the grading broke on: the run exits 2 */
/* A reported test's points and time, added to its kind's and the lab's. */
void add_points(const entry *e, const gl_result *r, int *score, int *max, int *skipped,
                int *total, int *got, int *failed);
/* A test's result before it runs: its lab, id, kind, title and points. */
void init_result(const entry *e, gl_result *r);
/* The result of a test the grader could not run (why: the kit's error): NOT RUN, in the
 * student's terms. */
void not_run_result(gl_result *r, const char *why);

#endif
