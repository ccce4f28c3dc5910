/* lab.h: lab 04-constant-memory described once, for its demo (demo.c) and its grader
 * (tests/04-constant-memory.c): the problem its launchers (lab.c) are checked and timed on.
 * Constant memory is state of the process that sets it, and a launcher reads its own process's
 * (in the grader, a student's runs in the subject, which may be restarted between tests, a
 * given one in the judge): so the problem's setup sets the constant data right before a check,
 * and afresh before a timed round's inputs exist. */
#ifndef CONSTANT_MEMORY_LAB_H
#define CONSTANT_MEMORY_LAB_H

#include "constant_memory.h"
#include "gpulabs.h"

/* A problem of the lab (common/gl_problem.h), for one launcher: its input (x, the filter's
 * input or idx), its coefficients, taps or table where it takes them by pointer (else the setup
 * draws and sets them), out. Checked against the kit's launcher of the task, or with cpu_check
 * (too slow at the demo's sizes) every output against the CPU, with the hint that names the
 * likely mistake. A cm_size (the caller's size, then the problem's state) outlives the problem. */
enum { CM_POLY, CM_LOOKUP, CM_CONV }; /* the lab's three tasks */
typedef struct {
    int n, ntaps;  /* outputs; a convolution's taps: 1 to CM_MAX_CONST_TAPS (the kit's constant
                    * filter's limit), any number for convolve_long with cpu_check */
    int uniform;   /* a lookup's indices: 1 one per warp, 0 one per lane (random) */
    int cpu_check;
    int task;              /* the launcher's, from here on the problem's own */
    int by_pointer;        /* 1: the launcher takes its data by pointer; 0: constant memory */
    size_t in_count, data_count; /* elements of its input (a filter's: n + ntaps - 1), its data */
    char what[96];         /* "at n = 16777216 with 1024 taps" */
    float data[CM_MAX_CONST_TAPS]; /* the constant data last set (host) */
    float first[CM_COEFFS];        /* a polynomial's first set, with cpu_check (host) */
} cm_size;
gl_problem cm_problem(const char *launcher, void *size);

#endif
