/* baselines.cu: lab 08-transpose's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy.
 *
 * Each block moves one TILE_DIM x TILE_DIM tile with TILE_DIM x BLOCK_ROWS
 * threads: thread (x, y) handles rows y, y + 8, y + 16, y + 24 of the tile. */
#include "transpose.h"

/* A plain copy with the same tiles and threads: the speed to aim for.
 * __restrict__ promises that out and in do not overlap, so the compiler may
 * issue a thread's four loads before its four stores, as the transposes do
 * through the tile; without it each store waits for the next load. */
__global__ void copy_kernel(float *__restrict__ out, const float *__restrict__ in, int rows,
                            int cols)
{
    int col = blockIdx.x * TILE_DIM + threadIdx.x;
    int row = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (col < cols && row + j < rows)
            out[(row + j) * cols + col] = in[(row + j) * cols + col];
}

/* The naive transpose. The read in[(row + j) * cols + col] is coalesced
 * (a warp reads 32 consecutive floats); the write out[col * rows + row + j] is
 * not (a warp's 32 writes are `rows` floats apart: 32 sectors for 128 bytes). */
__global__ void transpose_naive_kernel(float *out, const float *in, int rows, int cols)
{
    int col = blockIdx.x * TILE_DIM + threadIdx.x;
    int row = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (col < cols && row + j < rows)
            out[col * rows + row + j] = in[(row + j) * cols + col];
}

void transpose_copy(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    if (rows > 0 && cols > 0)
        copy_kernel<<<grid, block>>>(out, in, rows, cols);
}

void transpose_naive(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    if (rows > 0 && cols > 0)
        transpose_naive_kernel<<<grid, block>>>(out, in, rows, cols);
}
