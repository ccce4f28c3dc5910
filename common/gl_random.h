/* gl_random.h: seeded random inputs, so that any run can be repeated.
 *
 * The seed comes from the environment variable SEED when it is set (SEED=42
 * reproduces a run), otherwise from the clock; every program prints the seed
 * it used. Inputs are never all zeros, and never the poison pattern. */
#ifndef GL_RANDOM_H
#define GL_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t s[4];
} gl_rng;

/* The run's seed: SEED if set (an unsigned decimal integer; anything else is
 * an error that names it), else chosen from the clock. The same value for the
 * whole process. */
uint64_t gl_seed(void);

/* Parses a seed; returns 0 and sets *seed, or -1 if text is not an unsigned
 * decimal integer. */
int gl_parse_seed(const char *text, uint64_t *seed);

/* A stream derived from a seed and a name (a test's name), so each test draws
 * the same numbers whatever else ran before it. */
void gl_rng_init(gl_rng *r, uint64_t seed, const char *name);
uint64_t gl_rng_next(gl_rng *r);
/* Uniform integer in [lo, hi] (inclusive). */
int64_t gl_rng_range(gl_rng *r, int64_t lo, int64_t hi);
/* Uniform float in [lo, hi): multiples of 2^-24 of the range, never NaN. */
float gl_rng_float(gl_rng *r, float lo, float hi);

void gl_fill_float(gl_rng *r, float *x, size_t n, float lo, float hi);
/* Integers in [lo, hi], with -1 (the poison) replaced by 0 */
void gl_fill_int(gl_rng *r, int *x, size_t n, int lo, int hi);
void gl_fill_bytes(gl_rng *r, unsigned char *x, size_t n);

#ifdef __cplusplus
}
#endif
#endif
