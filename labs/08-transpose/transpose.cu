/* transpose.cu: lab 08-transpose. Your file: the only one graded.
 *
 * Each block moves one TILE_DIM x TILE_DIM tile with TILE_DIM x BLOCK_ROWS
 * threads: thread (x, y) handles rows y, y + 8, y + 16, y + 24 of the tile.
 * Start from the naive kernel in baselines.cu. README.md tells the story and
 * the tasks; `make run LAB=08` shows where you are, `make check LAB=08`
 * grades it. */
#include "transpose.h"

/* TODO(1): the tiled transpose (README.md, task 1).
 *  1. Declare a TILE_DIM x TILE_DIM tile of floats in shared memory.
 *  2. Read the block's tile of `in` row by row, as copy_kernel in baselines.cu
 *     reads, into tile[threadIdx.y + j][threadIdx.x]. Keep the bounds test: the last
 *     tiles of a matrix whose size is not a multiple of 32 stick out of it.
 *  3. Make every thread wait until the whole tile is in shared memory.
 *  4. Write the tile to the mirrored place in `out` (swap the roles of
 *     blockIdx.x and blockIdx.y), row by row of `out` so the write is
 *     coalesced, reading the tile by columns: tile[threadIdx.x][threadIdx.y + j].
 *     Remember that out has `rows` columns and `cols` rows. */
__global__ void transpose_tiled_kernel(float *out, const float *in, int rows, int cols)
{
    /* TODO(1) */
}

/* TODO(2): the padded transpose (README.md, task 2).
 * Copy your tiled kernel here and give the tile one extra column, so that
 * the 32 lanes of a warp reading a column of the tile hit 32 different banks
 * instead of one bank 32 times. Nothing else changes. */
__global__ void transpose_padded_kernel(float *out, const float *in, int rows, int cols)
{
    /* TODO(2) */
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
