/* gl_device_data.h: inputs made and outputs compared on the GPU, for timed
 * runs whose data must be fresh every round (filling hundreds of megabytes
 * on the host would take longer than the runs). Random in the same sense as
 * gl_random.h: never all zeros, never the poison. */
#ifndef GL_DEVICE_DATA_H
#define GL_DEVICE_DATA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Uniform in [lo, hi), multiples of 2^-24 of the range (device pointers). */
void gl_device_fill_float(float *p, size_t n, float lo, float hi, unsigned long long seed);
/* Uniform in [lo, hi], -1 (the poison) replaced by 0. */
void gl_device_fill_int(int *p, size_t n, int lo, int hi, unsigned long long seed);
void gl_device_fill_bytes(void *p, size_t n, unsigned long long seed);

/* How many of the 32-bit words differ (bitwise); the lowest such index in
 * *first (may be NULL). */
size_t gl_device_diff_words(const void *a, const void *b, size_t words, size_t *first);
/* How many got[i] are not within atol + rtol |ref[i]| of ref[i] (NaN never is). */
size_t gl_device_diff_float(const float *ref, const float *got, size_t n, float atol, float rtol,
                            size_t *first);

/* The sum of n 32-bit words modulo 2^32 (an int sum that wraps, as a GPU's does). */
unsigned gl_device_sum_words(const void *p, size_t n);

#ifdef __cplusplus
}
#endif
#endif
