/* lab.h: lab 04-constant-memory described once, for its demo (demo.c) and its grader
 * (tests/04-constant-memory.c): the problem its launchers (lab.c) are checked and timed on.
 *
 * Constant memory is state: set_coeffs, set_table_constant and set_taps_runtime fill a
 * __constant__ array of the process that runs them, and a launcher reads the array of its own
 * process (in the grader, the student's launchers run in the subject process, the given ones
 * in the judge, and a subject may be restarted between tests). So a check sets the constant
 * data right before the launcher that reads it, and a timed round sets it afresh before its
 * inputs exist (both: the problem's setup). */
#ifndef CONSTANT_MEMORY_LAB_H
#define CONSTANT_MEMORY_LAB_H

#include "constant_memory.h"
#include "gpulabs.h"

/* An output is right when it is within CM_REL_TOL of the sum of the magnitudes of its terms
 * (|c[k]| |x|^k for the polynomial, |taps[k] in[i + k]| for a convolution, |table[...]| for a
 * lookup): FP32 rounding in any order of evaluation stays far below it (a few 2^-24 of that sum
 * on random data, under 10^-6 of it for Horner's rule or a sum of powers of degree 511), one
 * term missing or too many is far above it. */
#define CM_REL_TOL 1e-5

/* A problem of the lab (common/gl_problem.h), for one launcher: its input (x, the filter's
 * input or idx) made on the GPU from the seed, then the coefficients, taps or table where the
 * launcher takes them by pointer; out. Where it reads them from constant memory, the setup
 * draws them from the seed and sets them. Its outputs are checked against the kit's launcher
 * of the same task (poly_global, convolve_constant_runtime, lookup_constant; a given launcher
 * is its own) within CM_REL_TOL of an output's largest magnitude; or, with cpu_check (the
 * correctness tests': too slow at the demo's sizes), every one against the CPU, in double,
 * with the hint that names the likely mistake, a polynomial's points near +1 and -1, where its
 * high powers weigh, and its coefficients set twice in a row (the second must count). A
 * cm_size holds the caller's size and the problem's own state, and must outlive the problem. */
enum { CM_POLY, CM_LOOKUP, CM_CONV }; /* the lab's three tasks */
typedef struct {
    int n;         /* outputs */
    int ntaps;     /* a convolution's taps: 1 to CM_MAX_CONST_TAPS (the kit's constant filter's
                    * limit), any number for convolve_long with cpu_check */
    int uniform;   /* a lookup's indices: 1 one per warp, 0 one per lane (random) */
    int cpu_check;
    int task;              /* the launcher's, from here on the problem's own */
    int by_pointer;        /* 1: the launcher takes its data by pointer; 0: constant memory */
    size_t in_count;       /* elements of a call's input (a filter's: n + ntaps - 1) */
    size_t data_count;     /* and of its coefficients, taps or table */
    char what[96];         /* "at n = 16777216 with 1024 taps" */
    float data[CM_MAX_CONST_TAPS]; /* the constant data last set (host) */
    float first[CM_COEFFS];        /* a polynomial's first set, with cpu_check (host) */
} cm_size;
gl_problem cm_problem(const char *launcher, void *size);

#endif
