/* lab.h: lab 04-constant-memory described once, for its demo (demo.c) and
 * its grader (tests/04-constant-memory.c): the launchers, the inputs, the
 * CPU reference, and the checks with their hints.
 *
 * Constant memory is state: set_coeffs, set_table_constant and
 * set_taps_runtime fill a __constant__ array of the process that runs them,
 * and a launcher reads the array of its own process (in the grader, the
 * student's launchers run in the subject process, the given ones in the
 * judge, and a subject may be restarted between tests). So set the constant
 * data with cm_set_for right before the launcher that reads it, in every
 * test and every timed round. */
#ifndef CONSTANT_MEMORY_LAB_H
#define CONSTANT_MEMORY_LAB_H

#include "constant_memory.h"
#include "gpulabs.h"

/* An output is right when it is within CM_REL_TOL of the sum of the
 * magnitudes of its terms (|c[k]| |x|^k for the polynomial, |taps[k] in[i + k]|
 * for a convolution, |table[...]| for a lookup): FP32 rounding in any order of
 * evaluation stays far below it (a few 2^-24 of that sum on random data, under
 * 10^-6 of it for Horner's rule or a sum of powers of degree 511), one term
 * missing or too many is far above it. */
#define CM_REL_TOL 1e-5

/* Is launcher one of the polynomials (poly_global, poly_constant)? One of
 * the lookups (lookup_global, lookup_constant)? Else it is a convolution. */
int cm_is_poly(const char *launcher);
int cm_is_lookup(const char *launcher);

/* Calls polynomial `launcher` with the arguments it takes (coeffs: device,
 * CM_COEFFS floats; poly_constant reads its own c_coeffs instead). */
void cm_poly(const char *launcher, float *out, const float *x, const float *coeffs, int n);

/* Calls convolution `launcher` (convolve_constant_runtime, convolve_long)
 * with the arguments it takes of these: taps (device), ntaps, n. */
void cm_convolve(const char *launcher, float *out, const float *in, const float *taps, int ntaps,
                 int n);

/* Calls lookup `launcher` with the arguments it takes (table: device). */
void cm_lookup(const char *launcher, float *out, const int *idx, const float *table, int n);

/* The setter of the constant data that launcher reads: set_coeffs for
 * poly_constant, set_taps_runtime for convolve_constant_runtime,
 * set_table_constant for lookup_constant; NULL for the others. */
const char *cm_setter_of(const char *launcher);

/* Calls launcher's setter (if it has one) with a host array: CM_COEFFS
 * coefficients, ntaps taps for set_taps_runtime, or CM_TABLE floats of
 * table. */
void cm_set_for(const char *launcher, const float *host, int ntaps);

/* n points x in [-1, 1] (a quarter of them within 0.02 of +1 and a quarter
 * within 0.02 of -1, where the high powers weigh: there a missing high
 * coefficient shows) and CM_COEFFS coefficients in [-1, 1) (malloc'ed). */
void cm_poly_make(gl_rng *rng, int n, float **x, float **coeffs);

/* Random input of n + ntaps - 1 floats and ntaps taps, in [-1, 1) (malloc'ed). */
void cm_conv_make(gl_rng *rng, int n, int ntaps, float **in, float **taps);

/* n indices in [0, CM_TABLE), one per warp (uniform) or one per lane, and a
 * random table of CM_TABLE floats in [-1, 1) (malloc'ed). */
void cm_lookup_make(gl_rng *rng, int n, int uniform, int **idx, float **table);

/* Compares out with the CPU's polynomial (in double) or convolution at
 * outputs 0, stride, 2 stride, ... and n - 1 (every output for stride 1);
 * the lookup at every output. Return the number wrong. */
size_t cm_poly_compare(const float *out, const float *x, const float *coeffs, int n,
                       size_t stride, gl_cmp *c);
size_t cm_conv_compare(const float *out, const float *in, const float *taps, int ntaps, int n,
                       size_t stride, gl_cmp *c);
size_t cm_lookup_compare(const float *out, const int *idx, const float *table, int n, gl_cmp *c);

/* Runs a polynomial once on n outputs (poisoned output, guard zones) after
 * setting its constant coefficients (h_first first, when given: the second
 * set must count) and checks it: every output, or with sample a stride that
 * keeps the CPU's work near 2^25 multiply-adds. Returns "" if right, else why
 * not, in the lab's terms (a static buffer). */
const char *cm_poly_check(const char *launcher, int n, const float *h_x, const float *h_first,
                          const float *h_coeffs, int sample);

/* The same for a convolution of ntaps taps (its constant taps set first). */
const char *cm_conv_check(const char *launcher, int n, int ntaps, const float *h_in,
                          const float *h_taps, int sample);

/* The same for a lookup, every output checked. */
const char *cm_lookup_check(const char *launcher, int n, const int *h_idx, const float *h_table);

/* A problem of the lab (common/gl_problem.h), for one launcher: its input (x,
 * the filter's input or idx) made on the GPU from the seed, then the
 * coefficients, taps or table where the launcher takes them by pointer; out.
 * Where it reads them from constant memory, the setup draws them from the seed
 * and sets them. The reference is the kit's launcher of the same task
 * (poly_global, convolve_constant_runtime, lookup_constant); a given launcher
 * is its own. A cm_size holds the caller's size and the problem's own state,
 * and must outlive the problem. */
typedef struct {
    int n;       /* outputs */
    int ntaps;   /* a convolution's taps, 1 to CM_MAX_CONST_TAPS (its reference's limit) */
    int uniform; /* a lookup's indices: 1 one per warp, 0 one per lane (random) */
    const char *launcher;            /* the problem's own, from here on */
    char what[64];                   /* "at n = 16777216 with 1024 taps" */
    float data[CM_MAX_CONST_TAPS];   /* the constant data last set (host) */
} cm_size;
gl_problem cm_problem(const char *launcher, void *size);

/* A row of the demo's table: launcher at ntaps taps (a convolution) or with
 * uniform indices (a lookup), its speedup over row `against`. */
typedef struct {
    const char *launcher;
    int ntaps, uniform, against;
} cm_variant;

/* The demo's table (gl_demo_table's, with this lab's columns: the rows have
 * their own taps, their rate is in operations, each is compared with a row it
 * names): each variant checked on its problem at n outputs as the grader checks
 * its timed calls, a right one timed (gl_time_ms: median of 21, L2 flushed).
 * Returns gl_demo_end's status. */
int cm_demo_table(const cm_variant *variants, int nvariants, int n, const gl_demo_args *args);

#endif
