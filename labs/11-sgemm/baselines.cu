/* baselines.cu: lab 11-sgemm's given kernels, the ones you measure against.
 * Read them; do not edit them: the grader builds its own copy.
 *
 * C = A B, row-major: A is m x k, B is k x n, C is m x n. The two kernels are
 * the first steps of the worklog (lab 09 builds them); cuBLAS is the roof. */
#include "sgemm.h"

#include "gl_cublas.h"

/* Step 1: one thread per element of C. threadIdx.x walks the columns, so a
 * warp reads 32 consecutive floats of a row of B and writes 32 consecutive
 * floats of C (coalesced); the warp's 32 threads share one element of A (a
 * broadcast). Every multiply-add reads two floats from global memory. */
__global__ void sgemm_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int col = blockIdx.x * SGEMM_TILE + threadIdx.x;
    int row = blockIdx.y * SGEMM_TILE + threadIdx.y;

    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; i++)
            sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = sum;
    }
}

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

static void launch_32x32(void (*kernel)(float *, const float *, const float *, int, int, int),
                         float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((n + SGEMM_TILE - 1) / SGEMM_TILE, (m + SGEMM_TILE - 1) / SGEMM_TILE);
    dim3 block(SGEMM_TILE, SGEMM_TILE);
    if (m > 0 && n > 0)
        kernel<<<grid, block>>>(c, a, b, m, n, k);
}

void sgemm_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    launch_32x32(sgemm_naive_kernel, c, a, b, m, n, k);
}

void sgemm_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    launch_32x32(sgemm_tiled_kernel, c, a, b, m, n, k);
}

/* ---- cuBLAS, the roof ---- */

/* cuBLAS SGEMM in FP32 (common/gl_cublas.cu): pedantic math, FP32 on the
 * CUDA cores, the same arithmetic as the lab's kernels; the default mode gives
 * the same on this GPU, and CUBLAS_TF32_TENSOR_OP_MATH would round the inputs
 * to TF32 on the tensor cores, which is another computation (README.md). */
void sgemm_cublas(float *c, const float *a, const float *b, int m, int n, int k)
{
    gl_sgemm_cublas(c, a, b, m, n, k);
}
