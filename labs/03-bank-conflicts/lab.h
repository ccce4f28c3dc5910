/* lab.h: lab 03-bank-conflicts described once, for its demo (demo.c) and
 * its grader (tests/03-bank-conflicts.c): the launchers, the inputs, the
 * references, and the checks with their hints. */
#ifndef BANK_CONFLICTS_LAB_H
#define BANK_CONFLICTS_LAB_H

#include "bank_conflicts.h"
#include "gpulabs.h"

/* Call a function of the lab's header in the program's build: in the demo,
 * the linked one; in the grader, the student's in its own process, or the
 * kit's own. bc_sums: row_sums or row_sums_padded; bc_sums_double:
 * row_sums_double or row_sums_double_padded. bc_degree calls the student's
 * host function bank_conflict_degree (in the grader, in the student's process
 * too). */
void bc_sums(const char *name, float *out, const float *in, int rows);
void bc_sums_double(const char *name, double *out, const double *in, int rows);
int bc_degree(const int *words, int lanes);
void bc_probe(int *sink, const int *words, int iters);

/* Is launcher one of the row sums on doubles? */
int bc_is_double(const char *launcher);

/* rows x BC_TILE random values, floats or doubles (dbl), and the sum of each
 * row (malloc'ed). */
void bc_sums_make(gl_rng *rng, int rows, int dbl, void **in, void **ref);

/* Runs a row-sums launcher once on rows x BC_TILE values (poisoned output,
 * guard zones) and checks everything about the result. Returns "" if right,
 * else why not, in the lab's terms (a static buffer). */
const char *bc_sums_check(const char *launcher, int rows, const void *in, const void *ref);

/* The wavefronts an access takes where lane i reads word words[i]: the most
 * different words in one bank (the kit's own count). */
int bc_degree_ref(const int *words, int lanes);

/* Asks bank_conflict_degree about a pattern (what: its name) and checks the
 * answer. "" if right, else why not. */
const char *bc_degree_check(const char *what, const int *words, int lanes);

#endif
