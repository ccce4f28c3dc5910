/* constant_memory.cu: lab 04-constant-memory. Your file: the only one graded.
 *
 * __constant__ memory: 64 KB per module, written from the host with
 * cudaMemcpyToSymbol, read through a small cache in each multiprocessor.
 * When every lane of a warp reads the same address, one read serves the
 * whole warp (a broadcast); different addresses in one warp are served one
 * after another. README.md tells the story and the tasks;
 * `make run LAB=04` shows where you are, `make check LAB=04` grades it. */
#include "constant_memory.h"

/* Task 1: the filter's taps, in constant memory. */
__constant__ float c_taps[CM_TAPS];

void set_taps(const float *taps)
{
    /* TODO(1): copy the CM_TAPS floats of taps (a host array) into c_taps with
     * cudaMemcpyToSymbol. Its first argument is the symbol itself, c_taps, not
     * its address; the size is that of the taps, not of the pointer. */
}

/* Task 1 (README.md): the convolution with constant taps. */
__global__ void convolve_constant_kernel(float *out, const float *in, int n)
{
    /* TODO(1): thread i (from blockIdx, blockDim, threadIdx) computes, when
     * i < n, out[i] = sum of c_taps[k] * in[i + k] for k = 0 .. CM_TAPS - 1.
     * Unroll the loop (#pragma unroll): with k known at compile time, every
     * address in c_taps is too. */
}

/* Task 2: the lookup from a table in global memory. */
__global__ void lookup_global_kernel(float *out, const int *idx, const float *table, int n)
{
    /* TODO(2): thread i < n computes out[i] = sum of table[(idx[i] + k) % CM_TABLE]
     * for k = 0 .. CM_LOOKUPS - 1. Declare idx and table `const ... *__restrict__`
     * (the read-only data path: the compiler emits ld.global.nc). */
}

/* Task 3: a filter of any length, its taps in global memory. */
__global__ void convolve_long_kernel(float *out, const float *in, const float *taps, int ntaps,
                                     int n)
{
    /* TODO(3): thread i < n computes out[i] = sum of taps[k] * in[i + k] for
     * k = 0 .. ntaps - 1, with in and taps declared `const float *__restrict__`. */
}

void convolve_constant(float *out, const float *in, int n)
{
    if (n > 0)
        convolve_constant_kernel<<<cm_blocks(n), CM_BLOCK>>>(out, in, n);
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
