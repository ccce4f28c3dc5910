/* baselines.cu: lab 04-constant-memory's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy.
 *
 * One thread per output: thread i computes out[i]; the last block's threads
 * past n do nothing. */
#include "constant_memory.h"

#include <stdio.h>

/* This file's own constant memory (a module holds at most 64 KB of it):
 * 16 KB of table, 32 KB of run-time taps. */
__constant__ float c_table[CM_TABLE];
__constant__ float c_taps_runtime[CM_MAX_CONST_TAPS];

/* Task 1's baseline: every thread loads all CM_COEFFS coefficients from
 * global memory, beside the one x it needs. */
__global__ void poly_global_kernel(float *out, const float *x, const float *coeffs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        float acc = coeffs[CM_COEFFS - 1];
#pragma unroll
        for (int k = CM_COEFFS - 2; k >= 0; k--)
            acc = acc * v + coeffs[k];
        out[i] = acc;
    }
}

void poly_global(float *out, const float *x, const float *coeffs, int n)
{
    if (n > 0)
        poly_global_kernel<<<cm_blocks(n), CM_BLOCK>>>(out, x, coeffs, n);
}

/* Task 2's baseline: the table in constant memory. The index comes from
 * data, so each lane of a warp may ask for a different address: the constant
 * cache serves one address at a time. */
__global__ void lookup_constant_kernel(float *out, const int *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned first = idx[i]; /* in [0, CM_TABLE): unsigned makes % a mask */
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < CM_LOOKUPS; k++)
            sum += c_table[(first + k) % CM_TABLE];
        out[i] = sum;
    }
}

void set_table_constant(const float *table)
{
    cudaMemcpyToSymbol(c_table, table, CM_TABLE * sizeof(float));
}

void lookup_constant(float *out, const int *idx, int n)
{
    if (n > 0)
        lookup_constant_kernel<<<cm_blocks(n), CM_BLOCK>>>(out, idx, n);
}

/* Task 3's trap: constant taps, but a loop whose length is known only at run
 * time. */
__global__ void convolve_constant_runtime_kernel(float *out, const float *in, int ntaps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int k = 0; k < ntaps; k++)
            sum += c_taps_runtime[k] * in[i + k];
        out[i] = sum;
    }
}

static int fits(const char *fn, int ntaps)
{
    if (ntaps >= 1 && ntaps <= CM_MAX_CONST_TAPS)
        return 1;
    fprintf(stderr, "%s: ntaps = %d does not fit c_taps_runtime (1 to %d taps: %d KB of the "
            "64 KB of constant memory); nothing done\n",
            fn, ntaps, CM_MAX_CONST_TAPS, (int)(CM_MAX_CONST_TAPS * sizeof(float) / 1024));
    return 0;
}

void set_taps_runtime(const float *taps, int ntaps)
{
    if (fits("set_taps_runtime", ntaps))
        cudaMemcpyToSymbol(c_taps_runtime, taps, ntaps * sizeof(float));
}

void convolve_constant_runtime(float *out, const float *in, int ntaps, int n)
{
    if (fits("convolve_constant_runtime", ntaps) && n > 0)
        convolve_constant_runtime_kernel<<<cm_blocks(n), CM_BLOCK>>>(out, in, ntaps, n);
}
