/* compiled/sgemm_tiled.cu: lab 11-sgemm's given sgemm_tiled_kernel, the second step of the
 * worklog. It is lab 09's task 2, answered: the student release ships it compiled
 * (sgemm_tiled.ptx, made by tools/release), never as this source, and baselines.cu
 * launches it through gl_compiled.h. Built alone: its PTX is what the grader reads. */
#include "sgemm.h"

/* Step 2: a block stages a 32 x 32 tile of A and one of B in shared memory,
 * then each thread takes its 32 multiply-adds from there: a float of A or B
 * is read from global memory once per block instead of once per thread.
 * Still two shared loads per multiply-add. Past the edges of the matrices
 * the tiles are filled with zeros, which add nothing. */
__global__ void sgemm_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[SGEMM_TILE][SGEMM_TILE];
    __shared__ float bs[SGEMM_TILE][SGEMM_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * SGEMM_TILE + tx;
    int row = blockIdx.y * SGEMM_TILE + ty;
    float sum = 0.0f;

    for (int k0 = 0; k0 < k; k0 += SGEMM_TILE) {
        as[ty][tx] = row < m && k0 + tx < k ? a[row * k + k0 + tx] : 0.0f;
        bs[ty][tx] = k0 + ty < k && col < n ? b[(k0 + ty) * n + col] : 0.0f;
        __syncthreads(); /* both tiles complete before anyone reads them */
        for (int i = 0; i < SGEMM_TILE; i++)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads(); /* everyone done before the next tiles overwrite these */
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}
