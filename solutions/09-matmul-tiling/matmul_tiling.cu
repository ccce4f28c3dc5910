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

/* Task 1 (README.md): the naive product, threadIdx.x along the columns of C,
 * for any block shape. */
__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n,
                                    int k)
{
    /* consecutive threadIdx.x, consecutive columns: a warp's loads of b and
     * stores to c are consecutive floats; its loads of a are one address */
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; i++)
            sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = sum;
    }
}

/* Task 2: TILE x TILE tiles of A and B in shared memory. Block (bx, by)
 * computes the tile of C at rows by * TILE.., columns bx * TILE..; thread
 * (tx, ty) its element (ty, tx). */
__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n,
                                    int k)
{
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < k; t += TILE) {
        /* each thread loads one element of each tile; elements outside A or B
         * are 0, so they add nothing to the sum */
        a_tile[ty][tx] = row < m && t + tx < k ? a[row * k + t + tx] : 0.0f;
        b_tile[ty][tx] = t + ty < k && col < n ? b[(t + ty) * n + col] : 0.0f;
        /* read after write: no thread reads the tiles before every thread
         * has written its element */
        __syncthreads();
        for (int i = 0; i < TILE; i++)
            sum += a_tile[ty][i] * b_tile[i][tx];
        /* write after read: no thread overwrites the tiles with the next
         * step's elements while another thread still reads these */
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}

/* Task 3: the naive product on a 1D grid; block b of the grid takes block
 * row b / blocks_per_row and block column b % blocks_per_row of C. */
__global__ void matmul_naive_grid1d_kernel(float *c, const float *a, const float *b, int m,
                                           int n, int k, int blocks_per_row)
{
    int by = blockIdx.x / blocks_per_row;
    int bx = blockIdx.x % blocks_per_row;
    int row = by * NAIVE_BLOCK + threadIdx.y;
    int col = bx * NAIVE_BLOCK + threadIdx.x;

    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; i++)
            sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = sum;
    }
}

/* Task 3: one NAIVE_BLOCK x NAIVE_BLOCK block of C, at block row block_row
 * and block column block_col, computed by a grid of one block. */
__global__ void matmul_naive_block_kernel(float *c, const float *a, const float *b, int m,
                                          int n, int k, int block_row, int block_col)
{
    int row = block_row * NAIVE_BLOCK + threadIdx.y;
    int col = block_col * NAIVE_BLOCK + threadIdx.x;

    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; i++)
            sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = sum;
    }
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
    /* enough blocks to cover every column and every row of C: round up */
    dim3 grid((n + block_cols - 1) / block_cols, (m + block_rows - 1) / block_rows);
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
    /* blocks across a row of C (its n columns) and down its m rows, rounded up */
    int blocks_per_row = (n + NAIVE_BLOCK - 1) / NAIVE_BLOCK;
    int blocks = blocks_per_row * ((m + NAIVE_BLOCK - 1) / NAIVE_BLOCK);
    if (m > 0 && n > 0)
        matmul_naive_grid1d_kernel<<<blocks, block>>>(c, a, b, m, n, k, blocks_per_row);
}

void matmul_naive_block_launches(float *c, const float *a, const float *b, int m, int n,
                                 int k)
{
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    /* one launch per block of C, the last partial ones included */
    for (int block_row = 0; block_row < (m + NAIVE_BLOCK - 1) / NAIVE_BLOCK; block_row++)
        for (int block_col = 0; block_col < (n + NAIVE_BLOCK - 1) / NAIVE_BLOCK; block_col++)
            matmul_naive_block_kernel<<<1, block>>>(c, a, b, m, n, k, block_row, block_col);
}
