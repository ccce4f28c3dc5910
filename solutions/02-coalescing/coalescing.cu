/* coalescing.cu: lab 02-coalescing (reference solution).
 *
 * A warp's global loads and stores are served in 32-byte sectors. When the
 * 32 threads of a warp touch 32 consecutive floats, their 128 bytes are four
 * sectors and every byte fetched is used: the access is coalesced. */
#include "coalescing.h"

/* Task 1: thread i reads in[i * stride]. At stride 1 a warp reads four
 * sectors; at stride 8 or more, one sector per thread, 4 bytes of its 32. */
__global__ void strided_copy_kernel(float *out, const float *in, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

/* Task 2: each field is an array of its own, so consecutive threads read
 * consecutive floats of vx, of mass and of charge. */
__global__ void kick_soa_kernel(struct particles p, int n, float ex, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p.vx[i] += p.charge[i] / p.mass[i] * ex * dt;
}

/* Task 3: threadIdx.x walks along a row, the contiguous dimension. */
__global__ void matrix_add_kernel(float *c, const float *a, const float *b, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        c[row * cols + col] = a[row * cols + col] + b[row * cols + col];
}

void strided_copy(float *out, const float *in, int n, int stride)
{
    if (n > 0)
        strided_copy_kernel<<<(n + CO_BLOCK - 1) / CO_BLOCK, CO_BLOCK>>>(out, in, n, stride);
}

void kick_soa(struct particles p, int n, float ex, float dt)
{
    if (n > 0)
        kick_soa_kernel<<<(n + CO_BLOCK - 1) / CO_BLOCK, CO_BLOCK>>>(p, n, ex, dt);
}

/* blockIdx.x now counts tiles along a row, blockIdx.y tiles down the rows */
void matrix_add(float *c, const float *a, const float *b, int rows, int cols)
{
    dim3 block(CO_TILE_X, CO_TILE_Y);
    dim3 grid((cols + CO_TILE_X - 1) / CO_TILE_X, (rows + CO_TILE_Y - 1) / CO_TILE_Y);
    if (rows > 0 && cols > 0)
        matrix_add_kernel<<<grid, block>>>(c, a, b, rows, cols);
}
