/* baselines.cu: lab 11-sgemm's given kernels, the ones you measure against.
 * Read them; do not edit them: the grader builds its own copy.
 *
 * C = A B, row-major: A is m x k, B is k x n, C is m x n. The two kernels are
 * the first steps of the worklog (lab 09 builds them); cuBLAS is the roof. */
#include "sgemm.h"

#include "gl_compiled.h"
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

/* Step 2, sgemm_tiled_kernel: lab 09's 32 x 32 tiles in shared memory (lab 09's task 2,
 * answered). It ships compiled (compiled/, gl_compiled.h), not as source: read lab 09's
 * handout and your own answer to it instead. Its PTX is in the grader's build,
 * build/tests/11-sgemm/baselines.ptx. */
extern "C" const unsigned char gl_compiled_sgemm_tiled[];
static gl_compiled_kernel tiled_kernel =
    GL_COMPILED_KERNEL(gl_compiled_sgemm_tiled, "_Z18sgemm_tiled_kernelPfPKfS1_iii");

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
    void *args[] = {&c, &a, &b, &m, &n, &k};
    if (m > 0 && n > 0)
        gl_compiled_launch(&tiled_kernel, (n + SGEMM_TILE - 1) / SGEMM_TILE,
                           (m + SGEMM_TILE - 1) / SGEMM_TILE, SGEMM_TILE, SGEMM_TILE, args);
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
