/* gl_matmul.h: the CPU reference of a matrix product, and how far an FP32
 * GPU result may be from it.
 *
 * C = A B with A m x k, B k x n and C m x n, all row-major floats. A GPU sums
 * the k products of an element in FP32, in an order of its own (tiles, FMA),
 * so it is not bit-equal to any one reference. Whatever the order, the error
 * of an FP32 dot product of length k is at most gamma * sum_i |a_i b_i| with
 * gamma = k u / (1 - k u) and u = 2^-24 (Higham, Accuracy and Stability of
 * Numerical Algorithms, 3.1). The reference sums in double, so that bound,
 * computed per element, is what a right kernel always meets; a kernel that
 * drops or repeats one product of a random matrix misses it by far.
 * gl_compare_float_bound (gl_compare.h) compares against it. */
#ifndef GL_MATMUL_H
#define GL_MATMUL_H

#include "gl_compare.h"
#include "gl_random.h"

#ifdef __cplusplus
extern "C" {
#endif

/* c[r * n + j] = sum_i a[r * k + i] * b[i * n + j], summed in double and
 * rounded to float; bound[r * n + j] = the FP32 error bound above (plus the
 * rounding of the reference itself). bound may be NULL. */
void gl_matmul_ref(const float *a, const float *b, int m, int n, int k, float *c, float *bound);

/* One element (row, col) of the same reference; *bound gets its bound. */
float gl_matmul_ref_at(const float *a, const float *b, int n, int k, int row, int col,
                       float *bound);

/* Compares got (C, m x n) with the reference within each element's bound:
 * every element when m * n <= full, else C's first and last rows, its first
 * and last columns (where tiles end) and `random` elements drawn from rng
 * (the CPU reference of a whole 4096^3 product takes minutes). Returns the
 * number wrong; cmp's indices are indices into C. */
size_t gl_matmul_check(const float *a, const float *b, const float *got, int m, int n, int k,
                       size_t full, int random, gl_rng *rng, gl_cmp *cmp);

/* The sampled check on the GPU: a, b and got are device pointers, the sample
 * (edges and `random` elements) is always taken, and the reference and its
 * bound are computed as on the host. For timed calls, whose 4096^3 products
 * would take the CPU seconds. */
size_t gl_matmul_check_device(const float *a, const float *b, const float *got, int m, int n,
                              int k, int random, gl_rng *rng, gl_cmp *cmp);

#ifdef __cplusplus
}
#endif
#endif
