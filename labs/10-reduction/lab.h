/* lab.h: lab 10-reduction described once, for its demo (demo.c) and its grader
 * (tests/10-reduction.c): the problem, timed or checked call by call, and the demo's run to run. */
#ifndef REDUCTION_LAB_H
#define REDUCTION_LAB_H

#include "gpulabs.h"
#include "reduction.h"

/* A problem's size: n, and for a checked call which call of its row it is (1 to 3; 0: the
 * timed problem), with wraps (ints that wrap) or same (every call on one input); then what the
 * problem keeps (lab.c). Must outlive the problem. */
typedef struct {
    int n, call, wraps, same;
    int ints, checked; /* the launcher sums ints (reduce_grid_stride_int); a call of a row */
    const char *launcher;
    unsigned long long seed; /* make's: each call of the row has its input from it */
    int exact, offset;       /* the last input made: integer-valued floats, at in + offset; */
    double sum, abs_sum;     /* its exact sum and sum |x_i| (floats) */
    unsigned int_sum;        /* or its sum modulo 2^32 (ints) */
    float first;             /* the row's first sum (same) */
    char what[512], hint[1024];
} reduce_size;

/* The problem of launcher at size (common/gl_problem.h): `in`, *sum and partial, its scratch;
 * gl_copy copies `in` to `out` (the copy bandwidth, of the same bytes). The timed problem
 * (call 0): n random floats (or ints) made on the GPU, REDUCE_SETS calls a round. A checked
 * call (1 to 3): that call of a row of calls on the same buffers, on inputs made on the host
 * that tell a wrong sum apart, the sum against its exact value (lab.c says how close). */
#define REDUCE_SETS 6
gl_problem reduce_problem(const char *launcher, void *size);

/* The demo's run to run: float launcher twice on the floats the demo timed (the run's seed),
 * "reduce_grid_stride twice: S1 and S2 (B bits differ)", with exact "; the exact sum is S"
 * (in double, on the host) before the ")". A static buffer. */
const char *reduce_twice(const char *launcher, reduce_size *z, int exact);

#endif
