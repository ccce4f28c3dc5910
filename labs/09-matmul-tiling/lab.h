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

/* The given matmul_empty_launch: in the demo, the linked one; in the grader, the kit's own. */
void matmul_empty(int launches);

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
