/* vectorized_loads.cu: lab 07-vectorized-loads (reference solution).
 *
 * An int2 (int4) load moves 8 (16) bytes in one instruction: a quarter of
 * the load and store instructions of the int copy for int4, and more bytes in
 * flight per thread. It needs an address that is a multiple of its size, and
 * n need not be a multiple of 2 or 4: the last n % 4 elements (the tail) are
 * copied one int at a time. */
#include "vectorized_loads.h"

/* Given: the scalar path, for pointers that are not aligned. */
__global__ void copy_scalar_kernel(int *out, const int *in, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i];
}

__global__ void scaled_add_scalar_kernel(int *out, const int *a, const int *b, int k, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = a[i] + k * b[i];
}

/* Task 1: n / 2 int2 copies, then the last int if n is odd. */
__global__ void copy_int2_kernel(int *out, const int *in, int n)
{
    int first = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = gridDim.x * blockDim.x;

    for (int i = first; i < n / 2; i += threads)
        reinterpret_cast<int2 *>(out)[i] = reinterpret_cast<const int2 *>(in)[i];
    if (first < n % 2) /* the tail: the first thread of the grid takes it */
        out[n / 2 * 2 + first] = in[n / 2 * 2 + first];
}

/* Task 2: n / 4 int4 copies, then the last n % 4 ints. */
__global__ void copy_int4_kernel(int *out, const int *in, int n)
{
    int first = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = gridDim.x * blockDim.x;

    for (int i = first; i < n / 4; i += threads)
        reinterpret_cast<int4 *>(out)[i] = reinterpret_cast<const int4 *>(in)[i];
    if (first < n % 4) /* the tail: threads 0 .. n % 4 - 1 take one int each */
        out[n / 4 * 4 + first] = in[n / 4 * 4 + first];
}

/* Task 3: out = a + k * b, four ints per load and store. */
__global__ void scaled_add_int4_kernel(int *out, const int *a, const int *b, int k, int n)
{
    int first = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = gridDim.x * blockDim.x;

    for (int i = first; i < n / 4; i += threads) {
        int4 x = reinterpret_cast<const int4 *>(a)[i];
        int4 y = reinterpret_cast<const int4 *>(b)[i];
        reinterpret_cast<int4 *>(out)[i] =
            make_int4(x.x + k * y.x, x.y + k * y.y, x.z + k * y.z, x.w + k * y.w);
    }
    if (first < n % 4) {
        int t = n / 4 * 4 + first;
        out[t] = a[t] + k * b[t];
    }
}

void copy_int2(int *out, const int *in, int n)
{
    if (n <= 0)
        return;
    if (vl_aligned(out, in, in, sizeof(int2)))
        copy_int2_kernel<<<vl_grid(), VL_BLOCK>>>(out, in, n);
    else
        copy_scalar_kernel<<<vl_grid(), VL_BLOCK>>>(out, in, n);
}

void copy_int4(int *out, const int *in, int n)
{
    if (n <= 0)
        return;
    if (vl_aligned(out, in, in, sizeof(int4)))
        copy_int4_kernel<<<vl_grid(), VL_BLOCK>>>(out, in, n);
    else
        copy_scalar_kernel<<<vl_grid(), VL_BLOCK>>>(out, in, n);
}

void scaled_add_int4(int *out, const int *a, const int *b, int k, int n)
{
    if (n <= 0)
        return;
    if (vl_aligned(out, a, b, sizeof(int4)))
        scaled_add_int4_kernel<<<vl_grid(), VL_BLOCK>>>(out, a, b, k, n);
    else
        scaled_add_scalar_kernel<<<vl_grid(), VL_BLOCK>>>(out, a, b, k, n);
}
