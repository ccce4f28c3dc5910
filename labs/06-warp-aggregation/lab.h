/* lab.h: lab 06-warp-aggregation described once, for its demo (demo.c) and
 * its grader (tests/06-warp-aggregation.c): the launchers, the inputs, the
 * reference, and the check with its hints.
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

/* n + WA_PAD elements of input of that kind for launcher `name` (malloc'ed). */
int *wa_make(gl_rng *rng, const char *name, int n, wa_input kind);

/* The kind of input in words, for launcher `name` ("every element positive"). */
const char *wa_input_name(const char *name, wa_input kind);

/* The values launcher `name` appends for in[0, n), in element order, into
 * ref (NULL: count only). Returns how many. */
size_t wa_reference(const char *name, const int *in, int n, int *ref);

/* Runs launcher `calls` times in a row (1 or 2) on in[0, n) (n + WA_PAD
 * elements uploaded), on one counter that holds -1 before the first call,
 * out poisoned before each call, with guard zones; checks everything about
 * the result. Returns "" if right, else why not, in the lab's terms (a
 * static buffer). */
const char *wa_check(const char *launcher, int n, const int *in, int calls);

/* Checks a result whose *count was right (expected): nothing in out[expected,
 * room) but the poison, and out[0, expected) the values of ref in any order
 * (both are sorted here, in place). Returns 0, or -1 with why (len bytes). */
int wa_check_values(const char *launcher, int *out, size_t room, int *ref, size_t expected,
                    char *why, size_t len);

/* The problem the grader times (common/gl_problem.h): n random elements in
 * [-WA_RANGE, WA_RANGE] (WA_PAD more past n), made on the GPU from the seed, and
 * launcher's out (wa_capacity ints) and *count; WA_SETS calls a round, each on its own
 * buffers, WA_ROUNDS rounds, WA_BASELINE_SETS calls a round of the given emit_atomic
 * (about 20 ms a call on an H100). It describes the buffers, their making and the call
 * only: out holds its values in any order, which a word-by-word comparison cannot judge,
 * so it has no reference, and the suite adds its own check of the outputs (.verify: the
 * digest of the multiset, on the GPU) before gl_perf_ms, gl_perf_queued or
 * gl_problem_check take it. size, a wa_size, holds the size, the launcher and the words,
 * and must outlive the problem. */
#define WA_SETS 12
#define WA_ROUNDS 3
#define WA_BASELINE_SETS 4
typedef struct {
    int n;
    const char *launcher; /* set by wa_problem: for the check */
    char what[64];
} wa_size;
gl_problem wa_problem(const char *launcher, void *size);

#endif
