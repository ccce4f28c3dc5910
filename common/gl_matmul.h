/* gl_matmul.h: the CPU reference of a matrix product, how far an FP32 GPU
 * result may be from it, and the product as a lab's problem (labs 09, 11).
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
#include "gl_problem.h"
#include "gl_random.h"

#ifdef __cplusplus
extern "C" {
#endif

/* c[r * n + j] = sum_i a[r * k + i] * b[i * n + j], summed in double and
 * rounded to float; bound[r * n + j] = the FP32 error bound above (plus the
 * rounding of the reference itself). bound may be NULL. */
void gl_matmul_ref(const float *a, const float *b, int m, int n, int k, float *c, float *bound);

/* The same bound of one element, a dot product of k terms whose |products| sum to abs_sum:
 * for a product the lab sums itself (a Gram matrix T T^T, read from T alone). */
float gl_matmul_bound(int k, double abs_sum);

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

/* The same on the GPU on a sample (a, b and got device pointers): C's edges and `random`
 * elements, each against the reference and its bound computed as on the host (for timed calls,
 * whose 4096^3 products would take the CPU seconds). */
size_t gl_matmul_check_device(const float *a, const float *b, const float *got, int m, int n,
                              int k, int random, gl_rng *rng, gl_cmp *cmp);

/* ---- the product as a lab's problem (gl_problem.h; gl_matmul_problem.c): labs 09 and 11 ----
 * C = A B at m x n x k, A and B random floats in [-1, 1) made on the GPU from the seed, C
 * checked by the lab's own check (gl_problem.verify): within each element's FP32 error bound,
 * every element on the host up to `full` elements, else on the GPU on C's first and last rows
 * and columns and `sample` random elements (the reference of a whole 4096^3 product costs
 * the CPU minutes); what is wrong said in the lab's words, the first wrong element's bound and
 * the lab's hint. A matrix may start one float past a 16-byte boundary (misaligned): the
 * float before it is poison, a NaN to a kernel that reads it, and C's must stay so. Its work
 * is 2 m n k FLOPs, its rate in GFLOP/s. */
typedef struct gl_matmul_s gl_matmul;
struct gl_matmul_s {
    int m, n, k;
    int misaligned[3];   /* A, B, C one float past a 16-byte boundary (1) or aligned (0) */
    size_t full;         /* C compared whole up to this many elements */
    int sample;          /* random elements of a larger C compared, besides its edges */
    const char *lab;     /* "09-matmul-tiling": names the sample's random draw */
    const char *name[3]; /* A, B and C in the messages: "a", "b", "c" (NULL: "A", "B", "C") */
    const char *outside; /* what a call may write around C, in the lab's words (a guard
                          * zone written): gl_problem_buf.outside */
    size_t guard;        /* C's guard zones, bytes each side: as far as a missing bounds test
                          * writes (gl_problem_buf.guard; 0: 4096) */
    /* what a wrong C most likely means, in the lab's terms (cmp: what the comparison found;
     * launcher: z->launcher) */
    const char *(*hint)(const gl_matmul *z, const gl_cmp *cmp);
    /* a call runs the launcher by name (gl_exec) on (c, a, b, m, n, k) and then extra's ints,
     * which a launcher whose layout has no place for them never sees */
    int extra[2];        /* more arguments after m, n and k: a block's rows and columns */
    const gl_matmul *at; /* or NULL: m, n, k, misaligned and sample are at's (a demo's row at the
                          * size of another, with extra of its own): gl_matmul_problem copies them */
    const char *launcher;     /* set by gl_matmul_problem */
    char what[128];           /* set by gl_matmul_problem: "at m = n = k = 2048" */
    char allocation[3][32];   /* set by gl_matmul_problem: a misaligned matrix's buffer in the
                               * messages, "A's allocation" (its positions count the float
                               * before it) */
};

/* The problem of launcher on z, its ctx; z must outlive it. Sets z->launcher, z->what and
 * z->allocation (and, first, z's sizes from z->at). */
gl_problem gl_matmul_problem(const char *launcher, gl_matmul *z);

/* The product on the host (gl_matmul_ref), as a demo's host case (gl_demo_case.host): C from A
 * and B, buf as a call of size's problem gets them (host copies). */
void gl_matmul_host(void *size, void *const *buf);
/* A demo's note of that host case, under key, from its time ms on z: "6.50 s at 2048 x 2048 x
 * 2048 = 2.64 GFLOP/s (one thread, in double)". */
struct gl_table;
void gl_matmul_note_host(struct gl_table *t, const char *key, const gl_matmul *z, double ms);

/* z's sizes from the words of a test or a profile run: "M N K" (k may be 0) or "DIM" (m = n = k),
 * each at most max, then "a", "b" or "c" to start that matrix one float past a 16-byte boundary.
 * Returns 0, or -1 when the words are not that. */
int gl_matmul_parse(gl_matmul *z, int argc, char **argv, long max);

#ifdef __cplusplus
}
#endif
#endif
