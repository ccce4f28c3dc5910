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

/* The problem the grader checks, times and profiles and the demo shows (common/gl_problem.h):
 * C = A B at m x n x k, on gl_matmul (gl_matmul.h): A and B made on the GPU, C checked every
 * element on the host up to MATMUL_FULL_CHECK, else on the GPU on its edges and `sample` random
 * elements, with the lab's hints, C's guard zones as far as a block's rows past its end. size,
 * a gl_matmul with the sizes, the sample and matmul_naive_shape's block (extra: rows x cols of
 * threads), must outlive the problem; matmul_naive_shape's messages name its block. */
gl_problem matmul_describe(const char *launcher, void *size);

#endif
