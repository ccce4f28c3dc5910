/* coalescing.cu: lab 02-coalescing. Your file: the only one graded.
 *
 * A warp's global loads and stores are served in 32-byte sectors. When the
 * 32 threads of a warp touch 32 consecutive floats, their 128 bytes are four
 * sectors and every byte fetched is used: the access is coalesced.
 * README.md tells the story and the tasks; `make run LAB=02` shows where you
 * are, `make check LAB=02` grades it. */
#include "coalescing.h"

/* TODO(1): thread i copies in[i * stride] to out[i], for i < n. */
__global__ void strided_copy_kernel(float *out, const float *in, int n, int stride)
{
}

/* TODO(2): kick_aos_kernel (baselines.cu) on a structure of arrays: each
 * field of struct particles is an array of its own (p.vx[i], p.mass[i]). */
__global__ void kick_soa_kernel(struct particles p, int n, float ex, float dt)
{
}

/* TODO(3): c = a + b as matrix_add_naive_kernel (baselines.cu) does, but
 * with threadIdx.x walking along a row (the columns) and threadIdx.y down
 * the rows. Change the launcher's grid below to match. */
__global__ void matrix_add_kernel(float *c, const float *a, const float *b, int rows, int cols)
{
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

void matrix_add(float *c, const float *a, const float *b, int rows, int cols)
{
    dim3 block(CO_TILE_X, CO_TILE_Y);
    /* TODO(3): blockIdx.x must count tiles along a row (cols), blockIdx.y down the rows */
    dim3 grid((rows + CO_TILE_X - 1) / CO_TILE_X, (cols + CO_TILE_Y - 1) / CO_TILE_Y);
    if (rows > 0 && cols > 0)
        matrix_add_kernel<<<grid, block>>>(c, a, b, rows, cols);
}
