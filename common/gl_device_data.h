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
/* The same, except that each run of `chunk` elements is, with probability hot,
 * all hot_value: skewed data, where one value comes in long runs. */
void gl_device_fill_int_skewed(int *p, size_t n, int lo, int hi, int hot_value, double hot,
                               size_t chunk, unsigned long long seed);
void gl_device_fill_bytes(void *p, size_t n, unsigned long long seed);

/* How many of the 32-bit words differ (bitwise); the lowest such index in
 * *first (may be NULL). */
size_t gl_device_diff_words(const void *a, const void *b, size_t words, size_t *first);
/* How many got[i] are not within atol + rtol |ref[i]| of ref[i] (NaN never is). */
size_t gl_device_diff_float(const float *ref, const float *got, size_t n, float atol, float rtol,
                            size_t *first);

/* The same for doubles (the double tile of lab 03). */
size_t gl_device_diff_double(const double *ref, const double *got, size_t n, double atol,
                             double rtol, size_t *first);

/* For count elements where[s] (row * n + col) of C = A B (A m x k, B k x n,
 * device pointers, got = the C to check): ref[s], bound[s] and picked[s] as
 * gl_matmul_ref_at computes them on the host (host arrays). */
void gl_device_matmul_sample(const float *a, const float *b, const float *got, int n, int k,
                             const size_t *where, size_t count, float *ref, float *bound,
                             float *picked);

/* dst[i * dst_stride] = src[i * src_stride] for i < n, in 32-bit words. */
void gl_device_copy_words_strided(void *dst, size_t dst_stride, const void *src,
                                  size_t src_stride, size_t n);

/* bins[v] = how many of the n samples (bytes, or ints in [0, nbins)) are v; the other
 * samples are not counted. By CUB, fast on any data; -1 where the toolkit has no CUB. */
int gl_device_histogram(const void *in, size_t n, int bytes, int nbins, unsigned *bins);
/* a[0, n) replaced by its exclusive prefix sums, in place, by CUB; returns their total (the
 * sum of the n ints before), or -1 where the toolkit has no CUB. */
long long gl_device_exclusive_scan(int *a, int n);
/* The judge's own device memory (never the pool's), kept from call to call: p, grown to at
 * least bytes (*have: its size now). */
void *gl_device_grown(void *p, size_t *have, size_t bytes);

/* A keyed fingerprint of bytes bytes at p: equal for equal contents, and, without the key, no
 * change of them keeps it (the judge's check that outputs did not change after a round). */
unsigned long long gl_device_hash(const void *p, size_t bytes, unsigned long long key);

/* How many of the bytes at p are not value (an output's bytes written, against its poison). */
size_t gl_device_count_not(const void *p, size_t bytes, unsigned char value);

/* The sum of n 32-bit words modulo 2^32 (an int sum that wraps, as a GPU's does). */
unsigned gl_device_sum_words(const void *p, size_t n);

#ifdef __cplusplus
}
#endif
#endif
