/* lab.h: lab 11-sgemm described once, for its demo (demo.c) and its grader
 * (tests/11-sgemm.c): the launchers, the inputs, and the check with its
 * hints. */
#ifndef SGEMM_LAB_H
#define SGEMM_LAB_H

#include "gpulabs.h"
#include "sgemm.h"

/* C is compared element by element with the CPU up to this many elements;
 * above, on C's first and last rows and columns and SGEMM_SAMPLE random
 * elements (gl_matmul_check: the CPU reference of a whole 4096^3 product, in
 * double, takes minutes). */
#define SGEMM_FULL_CHECK (1 << 20)
#define SGEMM_SAMPLE 4096

/* Calls launcher `name` (sgemm_blocktiled_1d, ..., sgemm_naive, sgemm_tiled,
 * sgemm_cublas) on C = A B, m x n x k, device pointers: in the demo, the
 * linked one; in the grader, the student's in its own process, or the kit's
 * own. */
void sgemm_run(const char *name, float *c, const float *a, const float *b, int m, int n, int k);

/* A and B of one product, on the host: random floats in [-1, 1]. */
typedef struct {
    int m, n, k;
    float *a, *b; /* m x k and k x n */
} sgemm_problem;

void sgemm_make(gl_rng *rng, int m, int n, int k, sgemm_problem *p);
void sgemm_free(sgemm_problem *p);

/* Runs launcher once on p with a, b and c that many floats past a 16-byte
 * boundary (C poisoned, guard zones around it) and checks everything: the
 * guards, nothing written before C, A and B unchanged, C within each
 * element's FP32 error bound (sgemm_compare with SGEMM_FULL_CHECK and
 * SGEMM_SAMPLE). Returns "" if right, else why not, in the lab's terms (a
 * static buffer). */
const char *sgemm_check(const char *launcher, const sgemm_problem *p, int a_off, int b_off,
                        int c_off, gl_rng *rng);

/* Compares c (a host copy of C) with the product of a and b: every element
 * when m * n <= full, else a sample with `random` random elements
 * (gl_matmul_check). Returns how many are wrong; why gets what is wrong,
 * with the hint ("" when right). Safe to call from several threads at once
 * (each with its own rng and why). */
size_t sgemm_compare(const char *launcher, const float *a, const float *b, const float *c, int m,
                     int n, int k, size_t full, int random, gl_rng *rng, char *why, size_t len);
/* The same on a sample, for device pointers a, b and c (gl_matmul_check_device). */
size_t sgemm_compare_device(const char *launcher, const float *a, const float *b, const float *c,
                            int m, int n, int k, int random, gl_rng *rng, char *why, size_t len);

/* The problem the grader times and profiles (common/gl_problem.h): C = A B at m x n x k, A and
 * B random floats in [-1, 1) made on the GPU, launcher's C checked by sgemm_compare (every
 * element on the host up to SGEMM_FULL_CHECK, else on the GPU on its edges and `sample`
 * random elements, each within its FP32 error bound). size, an sgemm_size, holds the sizes,
 * the launcher and the words, and must outlive the problem. */
typedef struct {
    int m, n, k;
    int sample;           /* random elements of a large C checked, besides its edges */
    const char *launcher; /* set by sgemm_describe */
    char what[64];
} sgemm_size;
gl_problem sgemm_describe(const char *launcher, void *size);

#endif
