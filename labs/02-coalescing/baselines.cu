/* baselines.cu: lab 02-coalescing's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy. */
#include "coalescing.h"

/* Consecutive threads copy consecutive floats: a warp reads 128 bytes, four
 * 32-byte sectors, every byte used. */
__global__ void copy_float_kernel(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

/* Particle i reads vx, mass and charge of record i: 12 of its 32 bytes, and
 * consecutive threads are 32 bytes apart, so a warp's read of one field
 * touches 32 sectors for 128 useful bytes. */
__global__ void kick_aos_kernel(struct particle *p, int n, float ex, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i].vx += p[i].charge / p[i].mass * ex * dt;
}

/* threadIdx.x walks down the rows: the 32 threads of a warp touch 32
 * different rows, `cols` floats apart, for every load and store. */
__global__ void matrix_add_naive_kernel(float *c, const float *a, const float *b, int rows,
                                        int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        c[row * cols + col] = a[row * cols + col] + b[row * cols + col];
}

void copy_float(float *out, const float *in, int n)
{
    if (n > 0)
        copy_float_kernel<<<(n + CO_BLOCK - 1) / CO_BLOCK, CO_BLOCK>>>(out, in, n);
}

void kick_aos(struct particle *p, int n, float ex, float dt)
{
    if (n > 0)
        kick_aos_kernel<<<(n + CO_BLOCK - 1) / CO_BLOCK, CO_BLOCK>>>(p, n, ex, dt);
}

void matrix_add_naive(float *c, const float *a, const float *b, int rows, int cols)
{
    dim3 block(CO_TILE_X, CO_TILE_Y);
    dim3 grid((rows + CO_TILE_X - 1) / CO_TILE_X, (cols + CO_TILE_Y - 1) / CO_TILE_Y);
    if (rows > 0 && cols > 0)
        matrix_add_naive_kernel<<<grid, block>>>(c, a, b, rows, cols);
}
