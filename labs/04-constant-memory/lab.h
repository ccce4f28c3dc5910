/* lab.h: lab 04-constant-memory described once, for its demo (demo.c) and
 * its grader (tests/04-constant-memory.c): the launchers, the problems the
 * demo and the grader check and time (the grader's correctness problem checks
 * every output against the CPU: check.c).
 *
 * Constant memory is state: set_coeffs, set_table_constant and
 * set_taps_runtime fill a __constant__ array of the process that runs them,
 * and a launcher reads the array of its own process (in the grader, the
 * student's launchers run in the subject process, the given ones in the
 * judge, and a subject may be restarted between tests). So a check sets the
 * constant data right before the launcher that reads it, and a timed round
 * sets it afresh before its inputs exist (both: the problem's setup). */
#ifndef CONSTANT_MEMORY_LAB_H
#define CONSTANT_MEMORY_LAB_H

#include "constant_memory.h"
#include "gpulabs.h"

/* An output is right when it is within CM_REL_TOL of the sum of the
 * magnitudes of its terms (|c[k]| |x|^k for the polynomial, |taps[k] in[i + k]|
 * for a convolution, |table[...]| for a lookup): FP32 rounding in any order of
 * evaluation stays far below it (a few 2^-24 of that sum on random data, under
 * 10^-6 of it for Horner's rule or a sum of powers of degree 511), one term
 * missing or too many is far above it. */
#define CM_REL_TOL 1e-5

/* A problem of the lab (common/gl_problem.h), for one launcher: its input (x,
 * the filter's input or idx) made on the GPU from the seed, then the
 * coefficients, taps or table where the launcher takes them by pointer; out.
 * Where it reads them from constant memory, the setup draws them from the seed
 * and sets them. Its outputs are checked against the kit's launcher of the same
 * task (poly_global, convolve_constant_runtime, lookup_constant; a given
 * launcher is its own) within CM_REL_TOL of an output's largest magnitude, or,
 * with cpu_check, as the correctness tests check them (cm_checked_problem). A cm_size
 * holds the caller's size and the problem's own state, and must outlive the
 * problem. */
typedef struct {
    int n;       /* outputs */
    int ntaps;   /* a convolution's taps: 1 to CM_MAX_CONST_TAPS (the kit's constant filter's
                  * limit), any number for convolve_long with cpu_check */
    int uniform; /* a lookup's indices: 1 one per warp, 0 one per lane (random) */
    /* 1: the correctness tests' problem (too slow at the demo's sizes): a polynomial's points
     * near +1 and -1, its coefficients set twice in a row (the second must count); set by
     * cm_checked_problem */
    int cpu_check;
    const char *launcher;            /* the problem's own, from here on */
    char what[96];                   /* "at n = 16777216 with 1024 taps" */
    float data[CM_MAX_CONST_TAPS];   /* the constant data last set (host) */
    float first[CM_COEFFS];          /* a polynomial's first set, with cpu_check (host) */
} cm_size;
gl_problem cm_problem(const char *launcher, void *size);

/* Shared by lab.c and its check (check.c): the lab's three tasks by the launcher's name;
 * whether launcher takes the coefficients, taps or table by pointer (else from constant memory);
 * the elements of a call's input and of its coefficients, taps or table. */
enum { POLY, LOOKUP, CONV };
int cm_task_of(const char *launcher);
int cm_takes_data(const char *launcher);
size_t cm_input_count(int task, int n, int ntaps);
size_t cm_data_count(int task, int ntaps);

/* The correctness tests' problem (check.c): cm_problem with cpu_check, every output of a call
 * checked against the CPU, in double: the wrong outputs and the hint that names the likely
 * mistake. */
gl_problem cm_checked_problem(const char *launcher, void *size);

#endif
