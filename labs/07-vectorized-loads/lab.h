/* lab.h: lab 07-vectorized-loads described once, for its demo (demo.c) and
 * its grader (tests/07-vectorized-loads.c): the launchers, the inputs, the
 * reference, and the check with its hints. */
#ifndef VECTORIZED_LOADS_LAB_H
#define VECTORIZED_LOADS_LAB_H

#include "gpulabs.h"
#include "vectorized_loads.h"

/* Calls launcher `name` of the program's build (in the demo, the linked one;
 * in the grader, the student's in its own process, or the kit's own): a copy
 * (copy_int, copy_int2, copy_int4: out[i] = a[i]; b and k are not passed) or
 * a scaled add (scaled_add_int, scaled_add_int4: out[i] = a[i] + k * b[i]). */
void vl_run(const char *name, int *out, const int *a, const int *b, int k, int n);
int vl_is_copy(const char *launcher);

/* The problem the grader times (common/gl_problem.h): n random ints in a (and b) and
 * launcher's copy, or scaled add with k = 3, of them; the given copy_int or scaled_add_int the
 * reference (gl_copy, cudaMemcpyAsync, is a copy). size, a vl_size, holds the size and the
 * words, and must outlive the problem. */
typedef struct {
    int n;
    char what[64];
    /* every array starts this many ints past its allocation's (aligned) start: the demo's
     * "+1" rows, where the launcher must take its scalar path; out's ints before it are made
     * and must stay as they were */
    int offset;
} vl_size;
gl_problem vl_problem(const char *launcher, void *size);

/* The ints past n that every array of a check has: room for the offsets
 * (at most VL_ROOM / 2) and for writes past the end, which must not happen. */
#define VL_ROOM 8

/* Two inputs of n + VL_ROOM random ints in [-10^6, 10^6] (malloc'ed). */
void vl_make(gl_rng *rng, int n, int **a, int **b);

/* Where a check's arrays start: ints past a 256-byte boundary (0 to
 * VL_ROOM / 2; b's is not used by a copy). */
typedef struct {
    int out, a, b;
} vl_offsets;

/* Runs launcher once on n ints at out + off.out, a + off.a, b + off.b (a and
 * b from vl_make), with a poisoned output and guard zones, and checks
 * everything about the result. Returns "" if right, else why not, in the
 * lab's terms (a static buffer). */
const char *vl_check(const char *launcher, int n, vl_offsets off, int k, const int *a,
                     const int *b);

#endif
