/* lab.h: lab 09-matmul-tiling described once, for its demo (demo.c) and its
 * grader (tests/09-matmul-tiling.c): the launchers, the inputs, and the
 * check with its hints. */
#ifndef MATMUL_TILING_LAB_H
#define MATMUL_TILING_LAB_H

#include "gpulabs.h"
#include "matmul_tiling.h"

/* C is compared element by element with the CPU up to this many elements;
 * above, on C's first and last rows and columns and MATMUL_SAMPLE random
 * elements (gl_matmul_check: the CPU reference of a whole 2048^3 product
 * takes seconds). */
#define MATMUL_FULL_CHECK (1 << 18)
#define MATMUL_SAMPLE 4096

/* A launcher of the lab's header, and for matmul_naive_shape its block
 * (rows x cols of threads; 0 for the others). */
typedef struct {
    const char *name;
    int rows, cols;
} matmul_launcher;

/* Calls l on C = A B (m x n x k, device pointers): in the demo, the linked
 * launcher; in the grader, the student's in its own process, or the kit's
 * own (matmul_naive_swapped, matmul_cublas). */
void matmul_call(const matmul_launcher *l, float *c, const float *a, const float *b, int m,
                 int n, int k);
/* The given matmul_empty_launch. */
void matmul_empty(int launches);

/* "matmul_tiled", "matmul_naive_shape with 4 x 8 blocks" (a static buffer). */
const char *matmul_label(const matmul_launcher *l);

/* A and B of one product, on the host: random floats in [-1, 1). */
typedef struct {
    int m, n, k;
    float *a, *b; /* m x k and k x n */
} matmul_problem;

void matmul_make(gl_rng *rng, int m, int n, int k, matmul_problem *p);
void matmul_free(matmul_problem *p);

/* Runs l once on p (C poisoned, a guard zone after it) and checks
 * everything: the guard, A and B unchanged, C within each element's FP32
 * error bound of the reference (matmul_compare with MATMUL_FULL_CHECK and
 * MATMUL_SAMPLE). Returns "" if right, else why not, in the lab's terms (a
 * static buffer). */
const char *matmul_check(const matmul_launcher *l, const matmul_problem *p, gl_rng *rng);

/* Compares c (a host copy of C) with the product of a and b: every element
 * when m * n <= full, else a sample with `random` random elements
 * (gl_matmul_check). Returns how many are wrong; why gets what is wrong,
 * with the hint ("" when right). Safe to call from several threads at once
 * (each with its own rng and why). */
size_t matmul_compare(const matmul_launcher *l, const float *a, const float *b, const float *c,
                      int m, int n, int k, size_t full, int random, gl_rng *rng, char *why,
                      size_t len);
/* The same on a sample, for device pointers a, b and c (gl_matmul_check_device). */
size_t matmul_compare_device(const matmul_launcher *l, const float *a, const float *b,
                             const float *c, int m, int n, int k, int random, gl_rng *rng,
                             char *why, size_t len);

/* The problem the grader times and profiles (common/gl_problem.h): C = A B at m x n x k, A and
 * B random floats in [-1, 1) made on the GPU, launcher's C checked by matmul_compare (every
 * element on the host up to MATMUL_FULL_CHECK, else on the GPU on its edges and `sample`
 * random elements, each within its FP32 error bound). size, a matmul_size, holds the sizes,
 * the launcher and the words, and must outlive the problem. */
typedef struct {
    int m, n, k;
    int sample;     /* random elements of a large C checked, besides its edges */
    matmul_launcher l; /* set by matmul_describe; rows and cols the caller's */
    char what[64];
} matmul_size;
gl_problem matmul_describe(const char *launcher, void *size);

#endif
