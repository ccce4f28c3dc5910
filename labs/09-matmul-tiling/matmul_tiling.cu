/* matmul_tiling.cu: lab 09-matmul-tiling. Your file: the only one graded.
 *
 * C = A B, row-major floats: A is m x k, B is k x n, C is m x n. One thread
 * computes one element of C. The naive kernel reads a row of A and a column
 * of B from global memory for it: 2k loads for 2k FLOPs. The tiled kernel
 * stages TILE x TILE tiles of A and B in shared memory, so that each element
 * loaded from global memory serves TILE threads. README.md tells the story
 * and the tasks; `make run LAB=09` shows where you are, `make check LAB=09`
 * grades it. */
#include "matmul_tiling.h"

#include <stdio.h>

/* TODO(1): the naive product (README.md, task 1). Start from the given
 * matmul_naive_swapped_kernel in baselines.cu and swap the roles of x and y:
 *     col = blockIdx.x * blockDim.x + threadIdx.x   (the columns of C)
 *     row = blockIdx.y * blockDim.y + threadIdx.y   (its rows)
 * then, for an element inside C (row < m, col < n), sum a[row * k + i] *
 * b[i * n + col] over i < k in a float and write it to c[row * n + col].
 * Use blockDim, not NAIVE_BLOCK: matmul_naive_shape launches this kernel
 * with blocks of any shape. */
__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n,
                                    int k)
{
    /* TODO(1) */
}

/* TODO(2): the tiled product (README.md, task 2). Block (blockIdx.x,
 * blockIdx.y) computes the TILE x TILE tile of C at rows blockIdx.y * TILE..,
 * columns blockIdx.x * TILE..; thread (tx, ty) its element (row, col).
 *  1. Declare two TILE x TILE tiles of floats in shared memory, one of A and
 *     one of B.
 *  2. For t = 0, TILE, 2 TILE, ... while t < k:
 *     a. each thread loads one element of each tile: a_tile[ty][tx] =
 *        a[row * k + t + tx] and b_tile[ty][tx] = b[(t + ty) * n + col], or
 *        0 where that element is outside A or B (the last tiles stick out of
 *        the matrices: a 0 adds nothing to the sum; skipping the load would
 *        leave the previous step's value in the tile);
 *     b. wait until every thread has written its elements;
 *     c. sum += a_tile[ty][i] * b_tile[i][tx] for i < TILE;
 *     d. wait until every thread has finished reading the tiles, before the
 *        next step overwrites them.
 *  3. Write the sum to c[row * n + col] if (row, col) is inside C. With
 *     k == 0 the loop does not run and the sum, 0, is still written.
 * Say in a comment at each barrier why it is there. */
__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n,
                                    int k)
{
    /* TODO(2) */
}

/* TODO(3): the naive product on a 1D grid (README.md, task 3). The grid has
 * blocks_per_row blocks across a row of C, then the next row of blocks, and
 * so on: block blockIdx.x takes block row by = blockIdx.x / blocks_per_row
 * and block column bx = blockIdx.x % blocks_per_row. Its thread
 * (threadIdx.x, threadIdx.y) computes the element row = by * NAIVE_BLOCK +
 * threadIdx.y, col = bx * NAIVE_BLOCK + threadIdx.x, as in task 1. */
__global__ void matmul_naive_grid1d_kernel(float *c, const float *a, const float *b, int m,
                                           int n, int k, int blocks_per_row)
{
    /* TODO(3) */
}

/* TODO(3): one NAIVE_BLOCK x NAIVE_BLOCK block of C, at block row block_row
 * and block column block_col (arguments: the grid has one block). Its thread
 * (threadIdx.x, threadIdx.y) computes the element row = block_row *
 * NAIVE_BLOCK + threadIdx.y, col = block_col * NAIVE_BLOCK + threadIdx.x. */
__global__ void matmul_naive_block_kernel(float *c, const float *a, const float *b, int m,
                                          int n, int k, int block_row, int block_col)
{
    /* TODO(3) */
}

/* NAIVE_BLOCK x NAIVE_BLOCK threads: 256, 8 warps. blockIdx.x walks the
 * columns of C, blockIdx.y its rows. */
void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((n + NAIVE_BLOCK - 1) / NAIVE_BLOCK, (m + NAIVE_BLOCK - 1) / NAIVE_BLOCK);
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    if (m > 0 && n > 0)
        matmul_naive_kernel<<<grid, block>>>(c, a, b, m, n, k);
}

void matmul_naive_shape(float *c, const float *a, const float *b, int m, int n, int k,
                        int block_rows, int block_cols)
{
    if (block_rows < 1 || block_cols < 1 || block_rows * block_cols > 1024) {
        fprintf(stderr, "matmul_naive_shape: a block of %d x %d threads is not 1 to 1024 "
                        "threads; nothing launched\n", block_rows, block_cols);
        return;
    }
    dim3 block(block_cols, block_rows);
    /* TODO(1): enough blocks of block_rows x block_cols threads to cover every
     * column (grid.x) and every row (grid.y) of C, like matmul_naive's grid */
    dim3 grid(1, 1);
    if (m > 0 && n > 0)
        matmul_naive_kernel<<<grid, block>>>(c, a, b, m, n, k);
}

/* One block per TILE x TILE tile of C, TILE x TILE threads. */
void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    dim3 block(TILE, TILE);
    if (m > 0 && n > 0)
        matmul_tiled_kernel<<<grid, block>>>(c, a, b, m, n, k);
}

void matmul_naive_grid1d(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    /* TODO(3): blocks_per_row blocks cover a row of C (its n columns), and the
     * grid is blocks_per_row times the number of blocks down its m rows; both
     * round up, as the 2D grid's dimensions do */
    int blocks_per_row = 1;
    int blocks = 1;
    if (m > 0 && n > 0)
        matmul_naive_grid1d_kernel<<<blocks, block>>>(c, a, b, m, n, k, blocks_per_row);
}

void matmul_naive_block_launches(float *c, const float *a, const float *b, int m, int n,
                                 int k)
{
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    /* TODO(3): launch matmul_naive_block_kernel once for every block of C (a
     * loop over its block rows and, inside, its block columns, the last partial
     * ones included), each a grid of one block */
    if (m > 0 && n > 0)
        matmul_naive_block_kernel<<<1, block>>>(c, a, b, m, n, k, 0, 0);
}
