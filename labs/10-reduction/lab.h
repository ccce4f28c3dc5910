/* lab.h: lab 10-reduction described once, for its demo (demo.c) and its
 * grader (tests/10-reduction.c): the problem, timed or checked call by call
 * (its inputs, reference and hints). */
#ifndef REDUCTION_LAB_H
#define REDUCTION_LAB_H

#include "gpulabs.h"
#include "reduction.h"

/* A problem's size: n, and for a checked call (reduce_problem) which call of its row it is,
 * from 1 (0: the timed problem), with wraps or same; then what the problem keeps. Must outlive
 * the problem. */
typedef struct {
    int n, call, wraps, same;
    int ints; /* the launcher sums ints (reduce_grid_stride_int) */
    const char *launcher;
    unsigned long long seed; /* make's: each call of the row has its input from it */
    int exact;               /* the last input made: integer-valued floats; */
    double sum, abs_sum;     /* its exact sum and sum |x_i| (floats) */
    unsigned int_sum;        /* or its sum modulo 2^32 (ints) */
    unsigned first_bits;     /* the row's first sum (same) */
    char what[512], hint[1024];
} reduce_size;

/* The problem of launcher at size, a reduce_size (common/gl_problem.h): `in`, and launcher's
 * *sum of it, partial its scratch; gl_copy copies `in` to `out` (the copy bandwidth, of the
 * same bytes).
 * The timed problem (call 0), which the demo and the grader time, REDUCE_SETS calls a round: n
 * elements made on the GPU, floats in [-1, 1) moved by a mean from the seed, *sum within 2^-14
 * x n x the largest |x| of the kit's reduce_interleaved of them; ints (reduce_grid_stride_int)
 * in [-1000, 1000], exactly their sum modulo 2^32.
 * The grader's check of call `call` (1, 2 or 3) of a row of calls on the same buffers, the
 * earlier ones run first (each is checked on its own, as call 1 or 2 of the row): call 1 on
 * floats that are integers in [-16, 16] (every order of the additions gives the exact sum;
 * random floats in [-1, 1) above n = 2^20), call 2 on new random floats, call 3 on new ones at
 * in + 1; ints in [-1000, 1000] (or, wraps, [-2^30, 2^30]) on every call. same: every call on
 * the same random floats at in + 1, each giving the first one's bits. The elements past n (and
 * before in + 1) hold 1000 (ints: 1000003), which a read past n adds; *sum and partial are
 * poisoned before each call. A float *sum must be within 2^-14 x sum |x_i| of the exact sum
 * (1024 x 2^-24: no value passes through more than 1024 additions), an int one exact modulo
 * 2^32. */
#define REDUCE_SETS 6
gl_problem reduce_problem(const char *launcher, void *size);

/* The demo's run to run: float launcher twice on the input its problem makes from seed (the
 * floats the demo timed), said as "reduce_grid_stride twice: S1 and S2 (B bits differ)", with
 * exact "; the exact sum is S" (in double, on the host) before the ")". A static buffer. */
const char *reduce_twice(const char *launcher, reduce_size *z, unsigned long long seed,
                         int exact);

#endif
