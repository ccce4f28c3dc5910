/* constant_memory.cu: lab 04-constant-memory. Your file: the only one graded.
 *
 * __constant__ memory: 64 KB per module, written from the host with
 * cudaMemcpyToSymbol, read through a small cache in each multiprocessor.
 * When every lane of a warp reads the same address, one read serves the
 * whole warp (a broadcast); different addresses in one warp are served one
 * after another. README.md tells the story and the tasks;
 * `make run LAB=04` shows where you are, `make check LAB=04` grades it. */
#include "constant_memory.h"

/* Task 1: the polynomial's coefficients, in constant memory. */
__constant__ float c_coeffs[CM_COEFFS];

void set_coeffs(const float *coeffs)
{
    /* TODO(1): copy the CM_COEFFS floats of coeffs (a host array) into c_coeffs
     * with cudaMemcpyToSymbol. Its first argument is the symbol itself,
     * c_coeffs, not its address; the size is that of the coefficients, not of
     * the pointer. */
}

/* Task 1 (README.md): the polynomial with constant coefficients. */
__global__ void poly_constant_kernel(float *out, const float *x, int n)
{
    /* TODO(1): thread i (from blockIdx, blockDim, threadIdx) computes, when
     * i < n, out[i] = c_coeffs[0] + c_coeffs[1] v + ... + c_coeffs[CM_COEFFS - 1]
     * v^(CM_COEFFS - 1) with v = x[i], by Horner's rule: acc starts at
     * c_coeffs[CM_COEFFS - 1], then acc = acc * v + c_coeffs[k] for k from
     * CM_COEFFS - 2 down to 0. Unroll the loop (#pragma unroll): with k known
     * at compile time, every address in c_coeffs is too. */
}

/* Task 2: the lookup from a table in global memory. */
__global__ void lookup_global_kernel(float *out, const int *idx, const float *table, int n)
{
    /* TODO(2): thread i < n computes out[i] = sum of table[(idx[i] + k) % CM_TABLE]
     * for k = 0 .. CM_LOOKUPS - 1, as the given lookup_constant_kernel
     * (baselines.cu) does from its table in constant memory. Declare idx and table
     * `const ... *__restrict__` (the read-only data path: the compiler emits
     * ld.global.nc). */
}

/* Task 3: a filter of any length, its taps in global memory. */
__global__ void convolve_long_kernel(float *out, const float *in, const float *taps, int ntaps,
                                     int n)
{
    /* TODO(3): thread i < n computes out[i] = sum of taps[k] * in[i + k] for
     * k = 0 .. ntaps - 1, as the given convolve_constant_runtime_kernel
     * (baselines.cu) does from its taps in constant memory, with in and taps
     * declared `const float *__restrict__`. */
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
