/* lab.h: lab 03-bank-conflicts described once, for its demo (demo.c) and its grader
 * (tests/03-bank-conflicts.c): the tile Gram problem (its input, check and hints), the demo's
 * probe, and the check of bank_conflict_degree (the launchers: lab.c). */
#ifndef BANK_CONFLICTS_LAB_H
#define BANK_CONFLICTS_LAB_H

#include "bank_conflicts.h"
#include "gpulabs.h"

/* The lab's problems (gl_problem.h) of launcher at size, which must outlive them. A tile Gram
 * matrix's (size: a bc_gram_size), for the grader and the demo: rows x BC_TILE random values in
 * [-1, 1) of the launcher's type (doubles not just floats widened), out checked on the host,
 * guard zones a tile wide, its work bytes in + out; with timed set, the grader's timed problem:
 * inputs made on the GPU, the kit's unpadded kernel the reference, no work (claims compare
 * times). The demo's probe's (bank_probe, size a bc_probe_size): in blocks of 8 warps, lane i
 * reads shared word first + i * stride BC_PROBE_ITERS times; no work (its time is the pattern's
 * cost), its own reference, its sink scratch. */
typedef struct {
    int rows;
    int timed; /* the grader's timed problem */
    int dbl;   /* set from the launcher */
    char what[64];
} bc_gram_size;
#define BC_PROBE_ITERS 4096
typedef struct {
    int stride, first; /* lane i reads word first + i * stride (below BC_PROBE_WORDS) */
    int wavefronts;    /* what the access takes */
} bc_probe_size;
gl_problem bc_problem(const char *launcher, void *size);

/* Asks the student's bank_conflict_degree (in the grader, in the student's process) about a
 * pattern where lane i reads word words[i] (what: its name), its answer into *got, and checks
 * it against want, the wavefronts the access takes: "" if right, else why not. The kit holds
 * no count of its own (that would be task 2's answer). */
const char *bc_degree_check(const char *what, const int *words, int lanes, int want, int *got);

#endif
