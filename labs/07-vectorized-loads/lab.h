/* lab.h: lab 07-vectorized-loads described once, for its demo (demo.c) and its grader
 * (tests/07-vectorized-loads.c): the launchers and the problem (inputs, reference, hints). */
#ifndef VECTORIZED_LOADS_LAB_H
#define VECTORIZED_LOADS_LAB_H

#include "gpulabs.h"
#include "vectorized_loads.h"

/* The problem the demo and the grader check and time (common/gl_problem.h): n random ints in
 * [-10^6, 10^6] in a (and b) and launcher's copy (out[i] = a[i]: copy_int, copy_int2, copy_int4,
 * and gl_copy, cudaMemcpyAsync, a timed baseline) or scaled add (out[i] = a[i] + k * b[i]) of
 * them; the given copy_int or scaled_add_int the reference. size, a vl_size, holds the size and
 * the words, and must outlive the problem. */
typedef struct {
    int n;
    /* where a call's arrays start: ints past their allocations' 256-byte boundaries (b's is
     * not used by a copy, whose a is its in): the grader's unaligned pointers, the demo's "+1"
     * rows, where the launcher must take its scalar path */
    struct { int out, a, b; } at;
    int k;         /* the scaled add's k; 0 (the demo's, the timed problem's): 3 */
    int copy;      /* filled by vl_problem: launcher copies (not a scaled add) */
    char what[96]; /* filled by vl_problem */
} vl_size;
gl_problem vl_problem(const char *launcher, void *size);

#endif
