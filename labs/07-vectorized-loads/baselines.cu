/* baselines.cu: lab 07-vectorized-loads's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy.
 *
 * A grid-stride loop: thread i handles elements i, i + S, i + 2S, ... where
 * S is the number of threads in the grid, so any n is covered by a grid
 * sized to the GPU (vl_grid), not to n. */
#include "vectorized_loads.h"

__global__ void copy_int_kernel(int *out, const int *in, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i];
}

__global__ void scaled_add_int_kernel(int *out, const int *a, const int *b, int k, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = a[i] + k * b[i];
}

void copy_int(int *out, const int *in, int n)
{
    if (n > 0)
        copy_int_kernel<<<vl_grid(), VL_BLOCK>>>(out, in, n);
}

void scaled_add_int(int *out, const int *a, const int *b, int k, int n)
{
    if (n > 0)
        scaled_add_int_kernel<<<vl_grid(), VL_BLOCK>>>(out, a, b, k, n);
}
