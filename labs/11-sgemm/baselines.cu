/* baselines.cu: lab 11-sgemm's given kernels, the ones you measure against.
 * Read them; do not edit them: the grader builds its own copy.
 *
 * C = A B, row-major: A is m x k, B is k x n, C is m x n. The two kernels are
 * the first steps of the worklog (lab 09 builds them); cuBLAS is the roof. */
#include "sgemm.h"

#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>

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

static const char *cublas_status_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "another cuBLAS status";
    }
}

static void cublas_check(cublasStatus_t s, const char *call)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "sgemm_cublas: %s failed: %s (%d)\n", call, cublas_status_name(s), (int)s);
        exit(1);
    }
}

/* One handle for the process, created at the first call (that takes a while:
 * time the calls after it). Pedantic math: FP32 on the CUDA cores, the same
 * arithmetic as the lab's kernels; the default mode gives the same on this
 * GPU, and CUBLAS_TF32_TENSOR_OP_MATH would round the inputs to TF32 on the
 * tensor cores, which is another computation (README.md). */
void sgemm_cublas(float *c, const float *a, const float *b, int m, int n, int k)
{
    static cublasHandle_t handle;
    static int ready;
    const float one = 1.0f, zero = 0.0f;

    if (m <= 0 || n <= 0)
        return;
    if (k == 0) { /* C = 0; cuBLAS would need a leading dimension of at least 1 */
        cudaMemsetAsync(c, 0, (size_t)m * n * sizeof(float), 0);
        return;
    }
    if (!ready) {
        cublas_check(cublasCreate(&handle), "cublasCreate");
        cublas_check(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
        ready = 1;
    }
    /* cuBLAS is column-major: a row-major m x n C is a column-major n x m C^T,
     * and C^T = B^T A^T, with B^T (n x k) and A^T (k x m) the row-major B and
     * A read column-major. So: n x m = (n x k)(k x m). */
    cublas_check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero,
                             c, n),
                 "cublasSgemm");
}
