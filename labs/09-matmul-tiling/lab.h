/* lab.h: lab 09-matmul-tiling described once, for its demo (demo.c) and its
 * grader (tests/09-matmul-tiling.c): the launchers and the problem (its
 * inputs, its check, its guards and its hints). */
#ifndef MATMUL_TILING_LAB_H
#define MATMUL_TILING_LAB_H

#include "gpulabs.h"
#include "matmul_tiling.h"

/* C is compared element by element with the CPU up to this many elements;
 * above, on C's first and last rows and columns and `sample` random elements
 * (MATMUL_SAMPLE in the demo and the correctness tests; the CPU reference of a
 * whole 2048^3 product takes seconds). */
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

/* A and B of one product, on the host: random floats in [-1, 1) (the demo's
 * CPU reference). */
typedef struct {
    int m, n, k;
    float *a, *b; /* m x k and k x n */
} matmul_problem;

void matmul_make(gl_rng *rng, int m, int n, int k, matmul_problem *p);
void matmul_free(matmul_problem *p);

/* The problem the grader checks, times and profiles and the demo shows (common/gl_problem.h):
 * C = A B at m x n x k, on gl_matmul (gl_matmul.h): A and B made on the GPU, C checked every
 * element on the host up to MATMUL_FULL_CHECK, else on the GPU on its edges and `sample` random
 * elements, with the lab's hints, C's guard zones as far as a block's rows past its end. size,
 * a matmul_size with the sizes, the sample and the block set, must outlive the problem;
 * matmul_naive_shape's messages name its block. */
typedef struct {
    gl_matmul mm;   /* first: the problem's ctx, cast back by the lab's call */
    int rows, cols; /* matmul_naive_shape's block (rows x cols of threads); 0 for the others */
} matmul_size;
gl_problem matmul_describe(const char *launcher, void *size);

/* The demo's measures beside the GPU's rows: the CPU reference of the whole product at m x n x
 * k on random A and B (one thread, summed in double: gl_matmul_ref), its time in seconds; and
 * what `launches` launches of the given empty kernel back to back take (one block of one
 * thread each), in ms (gl_time_ms: median of 21, L2 flushed before each). */
double matmul_cpu_seconds(int m, int n, int k);
double matmul_empty_ms(int launches);

#endif
