/* gl_cublas.cu: cuBLAS SGEMM in FP32, the matrix labs' roof. */
#include "gl_cublas.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

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
    default: return "another cuBLAS status";
    }
}

static void cublas_check(cublasStatus_t s, const char *call)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cuBLAS SGEMM (the roof): %s failed: %s (%d)\n", call,
                cublas_status_name(s), (int)s);
        exit(1);
    }
}

/* cuBLAS is column-major. A row-major m x n matrix is the same bytes as its
 * column-major transpose, so row-major C = A B is column-major C^T = B^T A^T:
 * an n x m product of B^T (n x k, leading dimension n) and A^T (k x m,
 * leading dimension k), with no transposition at all. */
void gl_sgemm_cublas(float *c, const float *a, const float *b, int m, int n, int k)
{
    static cublasHandle_t handle;
    static int created;
    const float one = 1.0f, zero = 0.0f;

    if (m <= 0 || n <= 0)
        return;
    if (k == 0) { /* an empty sum: C = 0; cuBLAS needs a leading dimension of at least 1 */
        cudaMemsetAsync(c, 0, (size_t)m * n * sizeof(float), 0);
        return;
    }
    if (!created) {
        cublas_check(cublasCreate(&handle), "cublasCreate");
        /* plain FP32 FMA: TF32 tensor cores would round the inputs to 10 bits */
        cublas_check(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
        cublas_check(cublasSetStream(handle, 0), "cublasSetStream");
        created = 1;
    }
    cublas_check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero,
                             c, n),
                 "cublasSgemm");
}
