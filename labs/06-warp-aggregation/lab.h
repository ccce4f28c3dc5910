/* lab.h: lab 06-warp-aggregation described once, for its demo (demo.c) and its grader
 * (tests/06-warp-aggregation.c): the problem, with its input kinds and its check. */
#ifndef WARP_AGGREGATION_LAB_H
#define WARP_AGGREGATION_LAB_H

#include "gpulabs.h"
#include "warp_aggregation.h"

/* Inputs are in [-WA_RANGE, WA_RANGE]: no item value wraps or equals -1 (the poison). */
#define WA_RANGE 100000000
/* A made input has WA_PAD more elements past n: a kernel that takes them as elements (no
 * i < n test) appends too much. */
#define WA_PAD 64
/* The grader's timed problem (2^25 elements): WA_SETS calls a round, 3 rounds, 4 calls a round
 * of the given emit_atomic (about 20 ms a call on an H100). */
#define WA_SETS 12

/* The lab's problem (common/gl_problem.h): n elements of input of a kind, out (room for n
 * ints, WA_MAX_ITEMS * n for an emitter) and *count, all guarded, the input read-only; one
 * call, or two in a row on one counter (twice: *count holds -1, the poison, before the first,
 * out is poisoned again before the second). The atomics decide the order of out: right when
 * *count is, after each call, out[0, *count) holds the values the given launcher of the same
 * kind (or expect) appends on the same input, in any order (a multiset, gl_any_order.h), and
 * nothing is written from out[*count] on. size, a wa_size, must outlive it. */
typedef struct {
    int n;
    /* random (on the GPU): about half positive (the filters keep those), 0 .. WA_MAX_ITEMS
     * items alike (the emitters); or, made on the host, none kept; or all kept (every element
     * positive; WA_MAX_ITEMS items each) */
    enum { WA_RANDOM, WA_NONE, WA_ALL } input;
    int twice;            /* two calls in a row */
    /* where not NULL, an emitter's check's reference (tests/06-warp-aggregation.cu, for the
     * timed calls): the items appended for in[0, n) written to want without atomics, and how
     * many (-1: not here) */
    int (*expect)(int *want, const int *in, int n);
    const char *launcher; /* set by wa_problem: for the check */
    int first_count;      /* set by a call twice: *count after the first */
    char what[96];        /* set by wa_problem: "at n = 33, every element positive" */
    char outside[768];    /* set by wa_problem: what a write outside out means */
} wa_size;
gl_problem wa_problem(const char *launcher, void *size);

#endif
