/* lab.h: lab 05-atomics described once, for its demo (demo.c) and its
 * grader (tests/05-atomics.c): the launchers, the inputs, the CPU
 * references, and the checks with their hints. */
#ifndef ATOMICS_LAB_H
#define ATOMICS_LAB_H

#include "gpulabs.h"
#include "atomics.h"

/* Inputs hold AT_SLACK elements past n, drawn like the rest and never
 * counted: a kernel that reads past n counts them, and the check sees it. */
#define AT_SLACK 64

/* Calls a launcher of the program's build (in the demo, the linked one; in
 * the grader, the student's in its own process, or the kit's own). */
void atomics_bytes_run(const char *name, unsigned *bins, const unsigned char *data, int n);
void atomics_values_run(const char *name, unsigned *bins, const int *values, int n, int nbins);
void atomics_max_run(float *result, const float *x, int n);
void atomics_sum_run(unsigned *sum, const unsigned *x, int n, unsigned *partials,
                     unsigned *counter);

/* ---- inputs (malloc'ed, n + AT_SLACK elements) ---- */

/* Random bytes; equal: every byte the same value, drawn once (one bin takes
 * every count). */
unsigned char *atomics_make_bytes(gl_rng *rng, int n, int equal);
/* Values in [0, nbins): a fraction hot of them equal to hot_bin, the rest
 * uniform. */
int *atomics_make_values(gl_rng *rng, int n, int nbins, double hot, int hot_bin);

typedef enum { AT_MIXED, AT_NEGATIVE, AT_MAX_FIRST, AT_MAX_LAST, AT_TIES } atomics_floats;
float *atomics_make_floats(gl_rng *rng, int n, atomics_floats kind);
const char *atomics_floats_name(atomics_floats kind); /* "every value negative, ..." */
unsigned *atomics_make_unsigned(gl_rng *rng, int n);

/* ---- CPU references ---- */
void atomics_count_bytes(const unsigned char *data, int n, unsigned bins[AT_BINS]);
void atomics_count_values(const int *values, int n, int nbins, unsigned *bins);
float atomics_max_of(const float *x, int n);
unsigned atomics_sum_of(const unsigned *x, int n);

/* ---- checks: each runs its launcher once on the host input given (n +
 * AT_SLACK elements), on poisoned outputs with guard zones, and checks
 * everything about the result. Returns "" if right, else why not, in the
 * lab's terms (a static buffer). ---- */
const char *atomics_check_bytes(const char *launcher, const unsigned char *data, int n);
const char *atomics_check_values(const char *launcher, const int *values, int n, int nbins);

/* result: NULL for a fresh poisoned one; else a buffer from
 * atomics_result_alloc, as an earlier call left it (the launcher must start
 * afresh all the same). */
gl_buf atomics_result_alloc(void);
const char *atomics_check_max(const float *x, int n, gl_buf *result);

/* The sum's device state, kept across calls as a caller would: the counter
 * is zeroed once, by atomics_sum_begin. */
typedef struct {
    gl_buf sum, partials, counter;
    int calls;
} atomics_sum_state;
void atomics_sum_begin(atomics_sum_state *s);
void atomics_sum_end(atomics_sum_state *s);
/* s: NULL for a fresh state, used once. */
const char *atomics_check_sum(atomics_sum_state *s, const unsigned *x, int n);

#endif
