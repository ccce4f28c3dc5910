/* lab.h: lab 09-matmul-tiling described once, for its demo (demo.c) and its grader
 * (tests/09-matmul-tiling.c): the launchers and the problem (its inputs, check, guards, hints). */
#ifndef MATMUL_TILING_LAB_H
#define MATMUL_TILING_LAB_H

#include "gpulabs.h"
#include "matmul_tiling.h"

/* The problem the grader checks, times and profiles and the demo shows (common/gl_problem.h):
 * C = A B at m x n x k on gl_matmul (gl_matmul.h), C checked every element on the host up to
 * MATMUL_FULL_CHECK elements, else on the GPU on its edges and `sample` random elements
 * (MATMUL_SAMPLE in the demo and the correctness tests: the CPU reference of a whole 2048^3
 * product takes seconds), with the lab's hints and guard zones as far as a block's rows past C.
 * size, a gl_matmul with the sizes, the sample and matmul_naive_shape's block (extra: rows x
 * cols of threads, which its messages name), must outlive the problem. */
#define MATMUL_FULL_CHECK (1 << 18)
#define MATMUL_SAMPLE 4096
gl_problem matmul_describe(const char *launcher, void *size);

/* matmul_naive_block_launches's launches at m x n: one a NAIVE_BLOCK x NAIVE_BLOCK block of C */
#define MATMUL_BLOCK_LAUNCHES(m, n) \
    ((((m) + NAIVE_BLOCK - 1) / NAIVE_BLOCK) * (((n) + NAIVE_BLOCK - 1) / NAIVE_BLOCK))

#endif
