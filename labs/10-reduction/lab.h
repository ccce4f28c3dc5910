/* lab.h: lab 10-reduction described once, for its demo (demo.c) and its
 * grader (tests/10-reduction.c): the launchers, the inputs, the reference,
 * the check with its hints, and the problem both time. */
#ifndef REDUCTION_LAB_H
#define REDUCTION_LAB_H

#include "gpulabs.h"
#include "reduction.h"

/* Calls launcher `name` (reduce_interleaved, reduce_sequential, ...) of the
 * program's build: in the demo, the linked one; in the grader, the
 * student's in its own process, or the kit's own. reduce_int is for
 * reduce_grid_stride_int, reduce_float for all the others. */
void reduce_float(const char *name, float *sum, float *partial, const float *in, int n);
void reduce_int(const char *name, int *sum, int *partial, const int *in, int n);

/* Does launcher sum ints (reduce_grid_stride_int)? */
int reduce_sums_ints(const char *name);

/* Random floats are right within REDUCE_FLOAT_BOUND x sum |x_i| of the exact
 * sum: the worst-case rounding of a summation in which no value passes
 * through more than 1024 additions (1024 x 2^-24). */
#define REDUCE_FLOAT_BOUND (1.0 / 16384.0)

/* Integer-valued floats are exact in any order up to this n. */
#define REDUCE_EXACT_MAX_N (1 << 20)

typedef enum {
    REDUCE_INTEGER_VALUED, /* integers in [-16, 16] stored as floats (n <= REDUCE_EXACT_MAX_N) */
    REDUCE_RANDOM_FLOATS,  /* [-1, 1) */
    REDUCE_SMALL_INTS,     /* [-1000, 1000] */
    REDUCE_WRAPPING_INTS   /* [-2^30, 2^30]: the sum wraps modulo 2^32 */
} reduce_input;

const char *reduce_input_name(reduce_input kind);

/* The device buffers of one n: `in` has room for n elements at in + 0 or
 * in + 1 and the elements past n; partial for reduce_partials(n); sum for
 * one. Guard zones around each. A launcher called twice on the same
 * buffers gets the same pointers. */
typedef struct {
    int n;
    gl_buf in, sum, partial;
} reduce_bufs;

void reduce_bufs_alloc(reduce_bufs *b, int n);
void reduce_bufs_free(reduce_bufs *b);

/* An input and its reference: n elements of kind at host[offset] (offset 0
 * or 1), every other element of the buffer set to a value that a read past
 * n would add (floats 1000, ints 1000003). */
typedef struct {
    reduce_input kind;
    int n, offset;
    void *host;          /* 1 + n + the elements past n: the size of reduce_bufs' in */
    double sum, abs_sum; /* floats: the exact sum (in double) and sum |x_i| */
    unsigned int_sum;    /* ints: the sum modulo 2^32 */
} reduce_data;

void reduce_make(reduce_data *d, gl_rng *rng, reduce_input kind, int n, int offset);
void reduce_data_free(reduce_data *d);

/* Uploads d into b, poisons *sum and partial, runs launcher once on
 * in + d->offset and checks everything about the result: guards, `in`
 * unchanged, the sum. Returns "" if right, else why not, in the lab's terms
 * (a static buffer). bits (may be NULL) gets the sum's 32 bits. */
const char *reduce_check(const char *launcher, reduce_bufs *b, const reduce_data *d,
                         unsigned *bits);

/* The problem the demo and the grader time (common/gl_problem.h): n elements made on the GPU,
 * `in`, and launcher's *sum of them, partial its scratch. Floats in [-1, 1) moved by a mean
 * from the seed, *sum within REDUCE_FLOAT_BOUND x n x the largest |x| of the kit's
 * reduce_interleaved of them; ints (reduce_grid_stride_int) in [-1000, 1000], exactly their
 * sum modulo 2^32. gl_copy copies `in` to `out` (the copy bandwidth, of the same bytes).
 * Timed REDUCE_SETS calls a round. size, a reduce_size, holds n and the words, and must
 * outlive the problem. */
#define REDUCE_SETS 6
typedef struct {
    int n;
    int ints; /* the launcher sums ints (set by reduce_problem) */
    char what[64], hint[1024];
} reduce_size;
gl_problem reduce_problem(const char *launcher, void *size);

/* The demo's run to run: float launcher twice on the input its problem makes from seed (the
 * floats the demo timed), said as "reduce_grid_stride twice: S1 and S2 (B bits differ)", with
 * exact "; the exact sum is S" (in double, on the host) before the ")". A static buffer. */
const char *reduce_twice(const char *launcher, reduce_size *z, unsigned long long seed,
                         int exact);

#endif
