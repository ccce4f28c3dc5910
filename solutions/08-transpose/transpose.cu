/* transpose.cu: lab 08-transpose (reference solution).
 *
 * Each block moves one TILE_DIM x TILE_DIM tile with TILE_DIM x BLOCK_ROWS
 * threads: thread (x, y) handles rows y, y + 8, y + 16, y + 24 of the tile.
 * The naive kernel this starts from is in labs/08-transpose/baselines.cu. */
#include "transpose.h"

/* Task 1: read a tile row by row (coalesced), write it back transposed, again
 * row by row of `out` (coalesced), reading the tile by columns in between. */
__global__ void transpose_tiled_kernel(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int col = blockIdx.x * TILE_DIM + threadIdx.x;
    int row = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (col < cols && row + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(row + j) * cols + col];

    __syncthreads(); /* the whole tile is written before any thread reads it */

    /* the block's tile lands at the mirrored place: swap the block indices */
    col = blockIdx.y * TILE_DIM + threadIdx.x; /* a column of out is a row of in */
    row = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (col < rows && row + j < cols)
            out[(row + j) * rows + col] = tile[threadIdx.x][threadIdx.y + j];
}

/* Task 2: the same, with one column of padding. Reading tile[threadIdx.x][k]
 * for threadIdx.x = 0..31 touches words k, k + 33, k + 66, ...: 33 is odd, so
 * the 32 lanes hit 32 different banks instead of one bank 32 times. */
__global__ void transpose_padded_kernel(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int col = blockIdx.x * TILE_DIM + threadIdx.x;
    int row = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (col < cols && row + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(row + j) * cols + col];

    __syncthreads();

    col = blockIdx.y * TILE_DIM + threadIdx.x;
    row = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (col < rows && row + j < cols)
            out[(row + j) * rows + col] = tile[threadIdx.x][threadIdx.y + j];
}

/* One block per tile of `in`: blockIdx.x walks its columns, blockIdx.y its rows. */
void transpose_tiled(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    if (rows > 0 && cols > 0)
        transpose_tiled_kernel<<<grid, block>>>(out, in, rows, cols);
}

void transpose_padded(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    if (rows > 0 && cols > 0)
        transpose_padded_kernel<<<grid, block>>>(out, in, rows, cols);
}
