/* lab.h: lab 03-bank-conflicts described once, for its demo (demo.c) and
 * its grader (tests/03-bank-conflicts.c): the launchers, the inputs, the
 * references, and the checks with their hints. */
#ifndef BANK_CONFLICTS_LAB_H
#define BANK_CONFLICTS_LAB_H

#include "bank_conflicts.h"
#include "gpulabs.h"

/* Call a function of the lab's header in the program's build: in the demo,
 * the linked one; in the grader, the student's in its own process, or the
 * kit's own. bc_gram: tile_gram or tile_gram_padded; bc_gram_double:
 * tile_gram_double or tile_gram_double_padded. bc_degree calls the student's
 * host function bank_conflict_degree (in the grader, in the student's process
 * too). */
void bc_gram(const char *name, float *out, const float *in, int rows);
void bc_gram_double(const char *name, double *out, const double *in, int rows);
int bc_degree(const int *words, int lanes);
void bc_probe(int *sink, const int *words, int iters);

/* Is launcher one of the tile Gram matrices on doubles? */
int bc_is_double(const char *launcher);

/* A problem for the tile Gram matrices: rows x BC_TILE random values in
 * [-1, 1), floats or doubles, and the expected out (all malloc'ed). Floats:
 * each element's FP32 error bound (gl_matmul.h: T T^T is a matrix product);
 * doubles: one bound for all (the same bound in FP64, for the GPU's sum and
 * the reference's). */
typedef struct {
    int rows, dbl;
    void *in, *ref; /* rows x BC_TILE each */
    float *bound;   /* floats */
    double atol;    /* doubles */
} bc_problem;

void bc_gram_make(gl_rng *rng, int rows, int dbl, bc_problem *p);
void bc_gram_free(bc_problem *p);

/* Compares got (rows x BC_TILE, on the host) with p's expected out; returns
 * the number of wrong elements. */
size_t bc_gram_compare(const bc_problem *p, const void *got, gl_cmp *cmp);

/* Runs a tile-Gram launcher once on p's input (poisoned output, guard zones)
 * and checks everything about the result. Returns "" if right, else why not,
 * in the lab's terms (a static buffer). */
const char *bc_gram_check(const char *launcher, const bc_problem *p);

/* The problem the grader times and queues (gl_problem.h): rows x BC_TILE random values of the
 * launcher's type, the kit's unpadded kernel of that type the reference. size: a bc_gram_size
 * (its type and what are set from the launcher and rows). */
typedef struct {
    int rows, dbl;
    char what[64];
} bc_gram_size;
gl_problem bc_gram_problem(const char *launcher, void *size);

/* The demo's probe (gl_problem.h): the given bank_probe, in whose blocks of 8 warps lane i
 * reads shared word first + i * stride BC_PROBE_ITERS times, on the pattern of size (a
 * bc_probe_size). No work: its time is the pattern's cost. The probe is the kit's own, its own
 * reference; its sink, never written, is scratch. */
#define BC_PROBE_ITERS 4096
typedef struct {
    int stride, first; /* lane i reads word first + i * stride (below BC_PROBE_WORDS) */
    int wavefronts;    /* what the access takes */
} bc_probe_size;
gl_problem bc_probe_problem(const char *launcher, void *size);

/* Asks bank_conflict_degree about a pattern where lane i reads word words[i]
 * (what: its name) and checks its answer against want, the wavefronts the
 * access takes. "" if right, else why not. The kit holds no count of its own
 * (that would be task 2's answer): the wavefronts of each pattern it asks
 * about are worked out beside it. */
const char *bc_degree_check(const char *what, const int *words, int lanes, int want);

/* Random pattern t (0 <= t < BC_RANDOM_PATTERNS, always the same): its lanes (1 to
 * 32) and words into *lanes and words[32]; returns the wavefronts it takes. */
#define BC_RANDOM_PATTERNS 300
int bc_random_pattern(int t, int *words, int *lanes);

#endif
