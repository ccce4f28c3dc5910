/* baselines.cu: lab 09-matmul-tiling's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy. */
#include "matmul_tiling.h"

#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>

/* The naive product with threadIdx.x along the ROWS of C. The 32 threads of
 * a warp hold NAIVE_BLOCK consecutive rows (and two columns): each load of
 * a[row * k + i] touches NAIVE_BLOCK rows k floats apart, one 32-byte sector
 * for each 4 bytes used, and so does each store to c; the loads of b are a
 * broadcast. */
__global__ void matmul_naive_swapped_kernel(float *c, const float *a, const float *b, int m,
                                            int n, int k)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;

    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; i++)
            sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = sum;
    }
}

/* Does nothing: its launches measure what a launch costs. */
__global__ void matmul_empty_kernel(void)
{
}

void matmul_naive_swapped(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((m + NAIVE_BLOCK - 1) / NAIVE_BLOCK, (n + NAIVE_BLOCK - 1) / NAIVE_BLOCK);
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    if (m > 0 && n > 0)
        matmul_naive_swapped_kernel<<<grid, block>>>(c, a, b, m, n, k);
}

void matmul_empty_launch(int launches)
{
    for (int i = 0; i < launches; i++)
        matmul_empty_kernel<<<1, 1>>>();
}

/* cuBLAS's own names for its errors (cublasGetStatusString is not in every
 * toolkit the kit supports). */
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
    default: return "a cuBLAS error";
    }
}

static void cublas_check(cublasStatus_t s, const char *what)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "matmul_cublas: %s failed: %s (%d)\n", what, cublas_status_name(s),
                (int)s);
        exit(1);
    }
}

/* cuBLAS is column-major. A row-major m x n matrix is the same bytes as its
 * column-major transpose, so row-major C = A B is column-major C^T = B^T A^T:
 * an n x m product of B^T (n x k, leading dimension n) and A^T (k x m,
 * leading dimension k), with no transposition at all. */
void matmul_cublas(float *c, const float *a, const float *b, int m, int n, int k)
{
    static cublasHandle_t handle;
    static int created;
    const float one = 1.0f, zero = 0.0f;

    if (m <= 0 || n <= 0)
        return;
    if (k == 0) { /* an empty sum: C = 0, without asking cuBLAS about k = 0 */
        cudaMemsetAsync(c, 0, (size_t)m * n * sizeof(float), 0);
        return;
    }
    if (!created) {
        cublas_check(cublasCreate(&handle), "cublasCreate");
        /* plain FP32 FMA: no TF32 tensor cores, which round the inputs to 10 bits */
        cublas_check(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
        cublas_check(cublasSetStream(handle, 0), "cublasSetStream");
        created = 1;
    }
    cublas_check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero,
                             c, n),
                 "cublasSgemm");
}
