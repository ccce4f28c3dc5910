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
 * element's FP32 error bound (every element up to SGEMM_FULL_CHECK, else a
 * sample with SGEMM_SAMPLE random elements: gl_matmul_compare). Returns "" if
 * right, else why not, in the lab's terms (a static buffer). */
const char *sgemm_check(const char *launcher, const sgemm_problem *p, int a_off, int b_off,
                        int c_off, gl_rng *rng);

/* The problem the grader times and profiles and the demo shows (common/gl_problem.h): C = A B
 * at m x n x k, on gl_matmul (gl_matmul.h): A and B made on the GPU, C checked every element on
 * the host up to SGEMM_FULL_CHECK, else on the GPU on its edges and `sample` random elements,
 * with the lab's hints. size, a gl_matmul with the sizes and the sample set, must outlive the
 * problem. */
gl_problem sgemm_describe(const char *launcher, void *size);

#endif
