/* lab.h: lab 03-bank-conflicts described once, for its demo (demo.c) and its grader
 * (tests/03-bank-conflicts.c): the tile Gram problem (its input, check and hints) and the check
 * of bank_conflict_degree (the launchers: lab.c). */
#ifndef BANK_CONFLICTS_LAB_H
#define BANK_CONFLICTS_LAB_H

#include "bank_conflicts.h"
#include "gpulabs.h"

/* The tile Gram problem (gl_problem.h) of launcher at size, a bc_gram_size that must outlive it,
 * for the grader and the demo: rows x BC_TILE random values in [-1, 1) of the launcher's type, out
 * checked on the host, guard zones a tile wide, its work bytes in + out; with timed set, the
 * grader's timed problem: inputs made on the GPU, the kit's unpadded kernel the reference, no work
 * (claims compare times). bank_probe has none: the demo calls it on arguments of its own. */
typedef struct {
    int rows, timed, dbl; /* timed: the grader's timed problem; dbl: set from the launcher */
    char what[64];
} bc_gram_size;
gl_problem bc_problem(const char *launcher, void *size);

/* Asks the student's bank_conflict_degree (graded: in the student's process) about lane i reading
 * word words[i] (what: the pattern's name), its answer into *got: "" if it is want, the access's
 * wavefronts, else why not. The kit has no count of its own (task 2's answer). */
const char *bc_degree_check(const char *what, const int *words, int lanes, int want, int *got);

#endif
