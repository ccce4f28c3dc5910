/* lab.h: lab 06-warp-aggregation described once, for its demo (demo.c) and
 * its grader (tests/06-warp-aggregation.c): the launchers, the reference,
 * and the problem with its input kinds and its check with the hints.
 *
 * Every launcher appends to out through one counter, in an order that the
 * atomics decide: a result is right when *count is, out[0, *count) holds
 * the reference's values in any order (a multiset), and nothing is written
 * from out[*count] on. */
#ifndef WARP_AGGREGATION_LAB_H
#define WARP_AGGREGATION_LAB_H

#include "gpulabs.h"
#include "warp_aggregation.h"

#include <stddef.h>

/* Inputs are in [-WA_RANGE, WA_RANGE]: no item value wraps or equals -1 (the poison). */
#define WA_RANGE 100000000
/* A made input has WA_PAD more elements past n: a kernel that takes them as
 * elements (no i < n test) appends too much. */
#define WA_PAD 64

/* Random input: about half positive (the filters keep those), 0 ..
 * WA_MAX_ITEMS items per element alike (the emitters); or none kept; or all
 * kept (every element positive; WA_MAX_ITEMS items each). */
typedef enum { WA_RANDOM, WA_NONE, WA_ALL } wa_input;

/* Calls launcher `name` (filter_atomic, ..., emit_block) of the program's
 * build: in the demo, the linked one; in the grader, the student's in its
 * own process, or the kit's own. */
void wa_run(const char *name, int *out, int *count, const int *in, int n);

/* 1 for a filter (filter_*), 0 for an emitter (emit_*). */
int wa_is_filter(const char *name);

/* The ints out must have room for: n for a filter, WA_MAX_ITEMS * n for an emitter. */
size_t wa_capacity(const char *name, int n);

/* The values launcher `name` appends for in[0, n), in element order, into
 * ref (NULL: count only). Returns how many. */
size_t wa_reference(const char *name, const int *in, int n, int *ref);

/* The lab's problem (common/gl_problem.h), for the grader and the demo: n elements of input
 * of a kind (WA_PAD more past n; random ones made on the GPU from the seed, in
 * [-WA_RANGE, WA_RANGE], the other kinds on the host), launcher's out (wa_capacity ints) and
 * *count, all three guarded, the input read-only; one call, or two in a row on one counter
 * (twice: *count holds -1, the poison, before the first, and out is poisoned again before
 * the second). Its check, wa_verify, is exact and on the host: *count after each call, nothing
 * written from out[*count] on, and out[0, *count) the reference's values in any order (which
 * slot a thread gets is a race); the grader's timed problem (2^25 elements, WA_SETS calls a
 * round, WA_ROUNDS rounds, WA_BASELINE_SETS calls a round of the given emit_atomic, about
 * 20 ms a call on an H100) takes the suite's digest on the GPU first. size, a wa_size, holds
 * the size and the words, and must outlive the problem. */
#define WA_SETS 12
#define WA_ROUNDS 3
#define WA_BASELINE_SETS 4
typedef struct {
    int n;
    wa_input input;       /* its kind (0: random) */
    int twice;            /* two calls in a row */
    const int *given;     /* the input on the host (the demo's), or NULL: made from the seed */
    const char *launcher; /* set by wa_problem: for the check */
    int first_count;      /* set by a call twice: *count after the first */
    char what[96];        /* set by wa_problem: "at n = 33, every element positive" */
    char outside[768];    /* set by wa_problem: what a write outside out means */
} wa_size;
gl_problem wa_problem(const char *launcher, void *size);

/* The problem's check of one call's outputs (buf: in, out, count, on the GPU): "" if right,
 * else why, in the lab's words (a static buffer). */
const char *wa_verify(void *ctx, void *const *buf, unsigned long long seed);

/* The demo's check: launcher run `calls` times in a row (1 or 2) on in[0, n) (n + WA_PAD
 * elements, on the host), checked as the grader checks it (wa_problem); "" if right. */
const char *wa_check(const char *launcher, int n, const int *in, int calls);

#endif
