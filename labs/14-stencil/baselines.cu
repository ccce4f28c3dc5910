/* baselines.cu: lab 14-stencil's given kernels, the ones you measure against.
 * Read them; do not edit them: the grader builds its own copy.
 *
 * One thread a pixel, blocks of TILE x BLOCK_ROWS threads: thread (x, y) of block (bx, by)
 * computes pixel (row, col) = (by * BLOCK_ROWS + y, bx * TILE + x). */
#include "stencil.h"

/* Each thread reads its 81 window pixels from global memory, clamping each row and column
 * into the image. A warp's 32 threads read 32 neighbouring floats for each (dy, dx), and 81
 * warps read each pixel: the L1 cache catches much of that reuse, but every read is still a
 * global load instruction. */
__global__ void stencil_global_kernel(float *out, const float *in, int rows, int cols, int pitch)
{
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * BLOCK_ROWS + threadIdx.y;
    if (row >= rows || col >= cols)
        return;

    float sum = 0.0f;
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; dy++) {
        int r = min(max(row + dy, 0), rows - 1); /* clamped to the nearest edge */
#pragma unroll
        for (int dx = -RADIUS; dx <= RADIUS; dx++) {
            int c = min(max(col + dx, 0), cols - 1);
            sum += stencil_weight(dy, dx) * in[r * pitch + c];
        }
    }
    out[row * cols + col] = sum;
}

/* The same through the read-only data path: in cannot change while the kernel runs
 * (const __restrict__), and __ldg asks for the non-coherent load (ld.global.nc). */
__global__ void stencil_ldg_kernel(float *__restrict__ out, const float *__restrict__ in,
                                   int rows, int cols, int pitch)
{
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * BLOCK_ROWS + threadIdx.y;
    if (row >= rows || col >= cols)
        return;

    float sum = 0.0f;
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; dy++) {
        int r = min(max(row + dy, 0), rows - 1);
#pragma unroll
        for (int dx = -RADIUS; dx <= RADIUS; dx++) {
            int c = min(max(col + dx, 0), cols - 1);
            sum += stencil_weight(dy, dx) * __ldg(&in[r * pitch + c]);
        }
    }
    out[row * cols + col] = sum;
}

void stencil_global(float *out, const float *in, int rows, int cols, int pitch)
{
    dim3 grid((cols + TILE - 1) / TILE, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    dim3 block(TILE, BLOCK_ROWS);
    if (rows > 0 && cols > 0)
        stencil_global_kernel<<<grid, block>>>(out, in, rows, cols, pitch);
}

void stencil_ldg(float *out, const float *in, int rows, int cols, int pitch)
{
    dim3 grid((cols + TILE - 1) / TILE, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    dim3 block(TILE, BLOCK_ROWS);
    if (rows > 0 && cols > 0)
        stencil_ldg_kernel<<<grid, block>>>(out, in, rows, cols, pitch);
}
