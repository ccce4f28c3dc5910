/* lab.h: lab 03-bank-conflicts described once, for its demo (demo.c) and
 * its grader (tests/03-bank-conflicts.c): the launchers, the tile Gram
 * problem (its input, check and hints), and the conflict degree's check. */
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

/* The tile Gram matrices' problem (gl_problem.h), for the grader's correctness tests, queued
 * test and profile runs, and the demo: rows x BC_TILE random values in [-1, 1) of the
 * launcher's type (doubles not just floats widened), made on the host; out checked on the host
 * (.verify), floats each within its own FP32 error bound (gl_matmul.h: T T^T is a matrix
 * product), doubles within one bound for all (the same bound in FP64, for the GPU's sum and the
 * reference's); guard zones a whole tile wide. With timed set, the grader's timed problem:
 * inputs made on the GPU, the kit's unpadded kernel of the type the reference. size: a
 * bc_gram_size (its type and what are set from the launcher and rows); it must outlive the
 * problem. */
typedef struct {
    int rows;
    int timed;         /* the grader's timed problem */
    const void *given; /* the input on the host (the demo's), or NULL: made from the seed */
    int dbl;           /* set from the launcher */
    char what[64];
} bc_gram_size;
gl_problem bc_gram_problem(const char *launcher, void *size);

/* The demo's input: rows x BC_TILE values as the correctness tests' (malloc'ed), and one
 * launcher checked on it as they check it (bc_gram_problem; "" if right, else why). */
typedef struct {
    int rows, dbl;
    void *in;
} bc_problem;
void bc_gram_make(gl_rng *rng, int rows, int dbl, bc_problem *p);
void bc_gram_free(bc_problem *p);
const char *bc_gram_check(const char *launcher, const bc_problem *p);

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
