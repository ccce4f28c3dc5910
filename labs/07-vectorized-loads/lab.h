/* lab.h: lab 07-vectorized-loads described once, for its demo (demo.c) and
 * its grader (tests/07-vectorized-loads.c): the launchers and the problem (its
 * inputs, reference and hints). */
#ifndef VECTORIZED_LOADS_LAB_H
#define VECTORIZED_LOADS_LAB_H

#include "gpulabs.h"
#include "vectorized_loads.h"

/* Calls launcher `name` of the program's build (in the demo, the linked one;
 * in the grader, the student's in its own process, or the kit's own): a copy
 * (copy_int, copy_int2, copy_int4: out[i] = a[i]; b and k are not passed) or
 * a scaled add (scaled_add_int, scaled_add_int4: out[i] = a[i] + k * b[i]). */
void vl_run(const char *name, int *out, const int *a, const int *b, int k, int n);
/* Whether launcher copies: copy_int, ..., or gl_copy (cudaMemcpyAsync, a timed baseline). */
int vl_is_copy(const char *launcher);

/* Where a call's arrays start: ints past their allocations' 256-byte boundaries (b's is not
 * used by a copy, whose a is its in). */
typedef struct {
    int out, a, b;
} vl_offsets;

/* The problem the demo and the grader check and time (common/gl_problem.h): n random ints in
 * [-10^6, 10^6] in a (and b) and launcher's copy, or scaled add, of them; the given copy_int or
 * scaled_add_int the reference (gl_copy, cudaMemcpyAsync, is a copy). size, a vl_size, holds
 * the size and the words, and must outlive the problem. */
typedef struct {
    int n;
    /* every array starts this many ints past its allocation's (aligned) start: the demo's
     * "+1" rows, where the launcher must take its scalar path */
    int offset;
    vl_offsets at; /* and each its own ints more: the grader's unaligned pointers */
    int k;         /* the scaled add's k; 0 (the demo's, the timed problem's): 3 */
    char what[96];
} vl_size;
gl_problem vl_problem(const char *launcher, void *size);

#endif
