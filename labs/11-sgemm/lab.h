/* lab.h: lab 11-sgemm described once, for its demo (demo.c) and its grader (tests/11-sgemm.c):
 * the launchers and the problem (its inputs, aligned or not, its check, its guards and hints). */
#ifndef SGEMM_LAB_H
#define SGEMM_LAB_H

#include "gpulabs.h"
#include "sgemm.h"

/* The problem the grader checks, times and profiles and the demo shows (common/gl_problem.h):
 * C = A B at m x n x k on gl_matmul (gl_matmul.h), C checked every element on the host up to
 * SGEMM_FULL_CHECK elements, else on the GPU on its edges and `sample` random elements
 * (SGEMM_SAMPLE in the demo and the correctness tests: the CPU reference of a whole 4096^3
 * product, in double, takes minutes), with the lab's hints and guard zones a block tile past C.
 * size, a gl_matmul with the sizes, the sample and the misaligned matrices, must outlive it. */
#define SGEMM_FULL_CHECK (1 << 20)
#define SGEMM_SAMPLE 4096
gl_problem sgemm_describe(const char *launcher, void *size);

#endif
