/* matmul_tiling.h: the interface of lab 09-matmul-tiling. Do not edit this
 * file: the grader and the demo call these functions as declared here.
 *
 * C = A B with A m x k, B k x n and C m x n, all row-major floats: element
 * (r, j) of C is c[r * n + j] = sum over i < k of a[r * k + i] * b[i * n + j].
 *
 * Every launcher takes device pointers, launches on the default stream and
 * returns at once, without synchronising: the caller owns the memory, checks
 * for errors and synchronises. Sizes are any m, n, k >= 0 (not only multiples
 * of 16 or 32) with m * k, k * n and m * n < 2^31 (int indices) and m, n at
 * most MATMUL_MAX_DIM. m or n == 0 launches nothing; k == 0 still writes C:
 * every element is an empty sum, 0. */
#ifndef MATMUL_TILING_H
#define MATMUL_TILING_H

#define TILE 32        /* the tiled kernel: TILE x TILE tiles, TILE x TILE threads */
#define NAIVE_BLOCK 16 /* the naive kernels' blocks: NAIVE_BLOCK x NAIVE_BLOCK threads */
#define MATMUL_MAX_DIM 65535 /* every grid of the lab fits: gridDim.y is at most 65535,
                                even with one row of threads per block */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the naive product: one thread per element of C ---- */

/* Given (baselines.cu): threadIdx.x along the ROWS of C. A warp's loads of A
 * are k floats apart and its stores to C n floats apart; its loads of B are a
 * broadcast. NAIVE_BLOCK x NAIVE_BLOCK blocks, like matmul_naive. */
void matmul_naive_swapped(float *c, const float *a, const float *b, int m, int n, int k);

/* Task 1 (matmul_tiling.cu): threadIdx.x along the COLUMNS of C, 2D grid of
 * NAIVE_BLOCK x NAIVE_BLOCK blocks. A warp's loads of B and stores to C are
 * coalesced, its loads of A a broadcast. */
void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k);

/* Task 1: the same kernel with blocks of block_rows x block_cols threads
 * (blockDim = (block_cols, block_rows)), for the study of block shapes. The
 * block must hold 1 to 1024 threads; any other shape is the caller's error:
 * the launcher says so on stderr and launches nothing. */
void matmul_naive_shape(float *c, const float *a, const float *b, int m, int n, int k,
                        int block_rows, int block_cols);

/* ---- task 2: tiles of A and B in shared memory ---- */

/* Task 2: TILE x TILE tiles of A and B staged in shared memory; each element
 * loaded from global memory is used TILE times. */
void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k);

/* ---- task 3: the geometry of the grid (the naive kernel's work) ---- */

/* Task 3: the naive product on a 1D grid of NAIVE_BLOCK x NAIVE_BLOCK blocks:
 * each block finds its row and column of blocks from blockIdx.x. */
void matmul_naive_grid1d(float *c, const float *a, const float *b, int m, int n, int k);

/* Task 3: one block launched many times: a kernel that computes one
 * NAIVE_BLOCK x NAIVE_BLOCK block of C, at a position given as an argument,
 * launched (gridDim = 1) once per block of C from a loop on the host. */
void matmul_naive_block_launches(float *c, const float *a, const float *b, int m, int n,
                                 int k);

/* ---- given: the roof, and the cost of a launch ---- */

/* Given: cuBLAS SGEMM in FP32 (no TF32 tensor cores: CUBLAS_PEDANTIC_MATH).
 * Its handle is created on the first call; a failure is printed and exits. */
void matmul_cublas(float *c, const float *a, const float *b, int m, int n, int k);

/* Given: `launches` launches of an empty kernel (one block of one thread). */
void matmul_empty_launch(int launches);

#ifdef __cplusplus
}
#endif
#endif
