/* constant_memory.cu: lab 04-constant-memory (reference solution).
 *
 * __constant__ memory: 64 KB per module, written from the host with
 * cudaMemcpyToSymbol, read through a small cache in each multiprocessor.
 * When every lane of a warp reads the same address, one read serves the
 * whole warp (a broadcast); different addresses in one warp are served one
 * after another. */
#include "constant_memory.h"

/* Task 1: the polynomial's coefficients, in constant memory. */
__constant__ float c_coeffs[CM_COEFFS];

void set_coeffs(const float *coeffs)
{
    cudaMemcpyToSymbol(c_coeffs, coeffs, CM_COEFFS * sizeof(float));
}

/* Task 1: every lane reads c_coeffs[k] at the same k, an address known at
 * compile time: a broadcast, which the compiler folds into the FFMA. The
 * coefficients are then no load at all; x[i] is the thread's only one. */
__global__ void poly_constant_kernel(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        float acc = c_coeffs[CM_COEFFS - 1];
#pragma unroll
        for (int k = CM_COEFFS - 2; k >= 0; k--)
            acc = acc * v + c_coeffs[k];
        out[i] = acc;
    }
}

/* Task 2: the table in global memory, read through the read-only data path
 * (const __restrict__: ld.global.nc), whose cache serves lanes that read
 * different addresses together. */
__global__ void lookup_global_kernel(float *out, const int *__restrict__ idx,
                                     const float *__restrict__ table, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned first = idx[i];
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < CM_LOOKUPS; k++)
            sum += table[(first + k) % CM_TABLE];
        out[i] = sum;
    }
}

/* Task 3: a filter of any length, its taps in global memory, read through
 * the read-only data path. */
__global__ void convolve_long_kernel(float *out, const float *__restrict__ in,
                                     const float *__restrict__ taps, int ntaps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int k = 0; k < ntaps; k++)
            sum += taps[k] * in[i + k];
        out[i] = sum;
    }
}

void poly_constant(float *out, const float *x, int n)
{
    if (n > 0)
        poly_constant_kernel<<<cm_blocks(n), CM_BLOCK>>>(out, x, n);
}

void lookup_global(float *out, const int *idx, const float *table, int n)
{
    if (n > 0)
        lookup_global_kernel<<<cm_blocks(n), CM_BLOCK>>>(out, idx, table, n);
}

void convolve_long(float *out, const float *in, const float *taps, int ntaps, int n)
{
    if (n > 0 && ntaps >= 1)
        convolve_long_kernel<<<cm_blocks(n), CM_BLOCK>>>(out, in, taps, ntaps, n);
}
