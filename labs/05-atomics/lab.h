/* lab.h: lab 05-atomics described once (lab.c), for its demo (demo.c) and its grader
 * (tests/05-atomics.c): the launchers, and each task's problem (common/gl_problem.h). */
#ifndef ATOMICS_LAB_H
#define ATOMICS_LAB_H

#include "gpulabs.h"
#include "atomics.h"

/* The grader's timed rounds: calls a round, each on its own input (its pool holds one more). */
#define AT_SETS 16

/* What an input holds. */
typedef enum {
    AT_RANDOM,    /* random bytes or unsigned ints, floats in [-1000, 1000); task 2: see hot */
    AT_NEGATIVE,  /* floats in [-1000, -1) */
    AT_MAX_FIRST, /* floats in [-1000, 1000), the maximum (5000) at index 0 */
    AT_MAX_LAST,  /* the same, the maximum at index n - 1 */
    AT_TIES,      /* eight negative floats (-8 and the next seven below it), one in eight -8 */
    AT_EQUAL      /* bytes: every one the same value, drawn from the seed (one bin takes all) */
} at_input;

/* A problem's size and input. Task 2's values are in [0, nbins): a share hot of them equal to
 * hot_bin, the rest uniform, decided for runs of chunk values at a time (1: each on its own). */
typedef struct {
    int n;
    at_input input;
    int nbins, hot_bin, chunk;
    double hot;
    int again;      /* max_float: a second call, *result as AT_MAX_LAST's call left it (5000) */
    int task;       /* filled by atomics_problem */
    char what[128]; /* filled by atomics_problem: "with n = 1000, random bytes" */
} at_size;

/* launcher's problem at size (an at_size): the input, then bins (nbins words), *result or *sum,
 * guarded as far as a loop over AT_MAX_BINS bins reaches, then the sum's partials (scratch) and
 * counter (at 0, as its caller and every right call leave it); each exact against the reference
 * (CUB's histogram, the kit's maximum and sum, the counter back at 0). */
gl_problem atomics_problem(const char *launcher, void *size);

#endif
