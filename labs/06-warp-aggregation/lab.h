/* lab.h: lab 06-warp-aggregation described once, for its demo (demo.c) and its grader
 * (tests/06-warp-aggregation.c): the problem, with its input kinds and its check.
 *
 * Every launcher appends to out through one counter, in an order that the atomics decide: a
 * result is right when *count is, out[0, *count) holds the reference's values in any order (a
 * multiset), and nothing is written from out[*count] on. */
#ifndef WARP_AGGREGATION_LAB_H
#define WARP_AGGREGATION_LAB_H

#include "gpulabs.h"
#include "warp_aggregation.h"

#include <stddef.h>

/* Inputs are in [-WA_RANGE, WA_RANGE]: no item value wraps or equals -1 (the poison). */
#define WA_RANGE 100000000
/* A made input has WA_PAD more elements past n: a kernel that takes them as elements (no
 * i < n test) appends too much. */
#define WA_PAD 64

/* Random input: about half positive (the filters keep those), 0 .. WA_MAX_ITEMS items per
 * element alike (the emitters); or none kept; or all kept (every element positive;
 * WA_MAX_ITEMS items each). */
typedef enum { WA_RANDOM, WA_NONE, WA_ALL } wa_input;

/* The lab's problem (common/gl_problem.h): n elements of input of a kind (random ones made on
 * the GPU from the seed, the others on the host), out (room for n ints, WA_MAX_ITEMS * n for
 * an emitter) and *count, all guarded, the input read-only; one call, or two in a row on one
 * counter (twice: *count holds -1, the poison, before the first, out is poisoned again before
 * the second). Its check: *count after each call, then out in any order (gl_any_order.h),
 * against what the given launcher of the same kind (or expect) appends on the same input.
 * The grader's timed problem: 2^25 elements, WA_SETS calls a round, WA_ROUNDS rounds,
 * WA_BASELINE_SETS calls a round of the given emit_atomic (about 20 ms a call on an H100).
 * size, a wa_size, must outlive it. */
#define WA_SETS 12
#define WA_ROUNDS 3
#define WA_BASELINE_SETS 4
typedef struct {
    int n;
    wa_input input;       /* its kind (0: random) */
    int twice;            /* two calls in a row */
    /* where not NULL, the check's reference: writes to want the values a filter (filter 1) or
     * an emitter appends for in[0, n) and returns how many (-1: not here), as the given
     * launcher does but without its atomics (tests/06-warp-aggregation.cu: the timed calls) */
    int (*expect)(int *want, const int *in, int n, int filter);
    const char *launcher; /* set by wa_problem: for the check */
    int first_count;      /* set by a call twice: *count after the first */
    char what[96];        /* set by wa_problem: "at n = 33, every element positive" */
    char outside[768];    /* set by wa_problem: what a write outside out means */
} wa_size;
gl_problem wa_problem(const char *launcher, void *size);

/* How many values launcher appends for in[0, n) (on the GPU): the demo's rates. */
size_t wa_appended(const char *launcher, const void *in, int n);

#endif
