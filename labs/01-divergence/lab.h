/* lab.h: lab 01-divergence described once, for its demo (demo.c) and its
 * grader (tests/01-divergence.c): the launchers, the inputs, the reference,
 * and the check with its hints. */
#ifndef DIVERGENCE_LAB_H
#define DIVERGENCE_LAB_H

#include "gpulabs.h"
#include "divergence.h"

/* Calls launcher `name` (branch_by_warp, classify, ...: all take out, in, n)
 * of the program's build: in the demo, the linked one; in the grader, the
 * student's in its own process, or the kit's own. */
void div_run(const char *name, unsigned *out, const unsigned *in, int n);

/* What a launcher computes (divergence.h): the lane-parity hashes (task 1),
 * the trap's hash_with by element parity (same_code_by_lane) or by warp
 * parity (same_code_by_warp: warp w of the elements, i / 32, hashes with
 * DIV_MULT_EVEN when w is even), classify_one (task 2), the block products
 * (task 3). */
typedef enum {
    DIV_HASH,
    DIV_SAME_CODE,
    DIV_SAME_CODE_BY_WARP,
    DIV_CLASSIFY,
    DIV_BLOCK_PRODUCTS
} div_work;
div_work div_work_of(const char *launcher);
/* Its outputs for n elements: n, or div_blocks(n) block products. */
size_t div_outputs(div_work what, int n);
/* The CPU's answer (div_outputs(what, n) values into ref). */
void div_reference(div_work what, const unsigned *in, unsigned *ref, int n);

/* Inputs: random (each element's class a coin toss), every element heavy,
 * every one light, classes alternating, or random values regrouped by class. */
typedef enum {
    DIV_RANDOM,
    DIV_ALL_HEAVY,
    DIV_ALL_LIGHT,
    DIV_ALTERNATING,
    DIV_PARTITIONED
} div_input;
const char *div_input_name(div_input kind);

/* The elements past n that every input has, of the same kind: a kernel that
 * reads past n reads values, and must not write anything for them. */
#define DIV_ROOM 64

/* n + DIV_ROOM elements of the kind (malloc'ed). */
unsigned *div_make(gl_rng *rng, int n, div_input kind);
/* Regroups x[0, n) stably: the light elements first, then the heavy ones. */
void div_partition(unsigned *x, int n);

/* Runs launcher once on in[0, n) (an input of div_make) with a poisoned
 * output and guard zones, and checks everything about the result. Returns ""
 * if right, else why not, in the lab's terms (a static buffer). */
const char *div_check(const char *launcher, int n, const unsigned *in);

/* The problem the grader times and queues (gl_problem.h): n random elements (random bits: each
 * element's class a coin toss), the given launcher of the same output the reference (a given
 * one its own). size: a div_size (what is set from n). */
typedef struct {
    int n;
    char what[64];
    int partitioned; /* the demo's: the same values, partitioned by class (div_partition) */
} div_size;
gl_problem div_problem(const char *launcher, void *size);

#endif
