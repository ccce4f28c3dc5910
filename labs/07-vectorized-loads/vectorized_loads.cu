/* vectorized_loads.cu: lab 07-vectorized-loads. Your file: the only one graded.
 *
 * An int2 (int4) load moves 8 (16) bytes in one instruction: a quarter of
 * the load and store instructions of the int copy for int4, and more bytes in
 * flight per thread. It needs an address that is a multiple of its size, and
 * n need not be a multiple of 2 or 4: the last n % 4 elements (the tail) are
 * copied one int at a time. README.md tells the story and the tasks;
 * `make run LAB=07` shows where you are, `make check LAB=07` grades it. */
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

/* Task 1 (README.md): the int2 copy. */
__global__ void copy_int2_kernel(int *out, const int *in, int n)
{
    /* TODO(1): copy n / 2 int2 with a grid-stride loop, reading and writing
     * through reinterpret_cast<const int2 *>(in) and reinterpret_cast<int2 *>(out);
     * then copy the last int when n is odd (one thread only). */
}

/* Task 2: the int4 copy. */
__global__ void copy_int4_kernel(int *out, const int *in, int n)
{
    /* TODO(2): as task 1 with int4: n / 4 int4 copies, then the last
     * n % 4 ints. Which thread takes the tail? It must exist for every n. */
}

/* Task 3: the int4 scaled add. */
__global__ void scaled_add_int4_kernel(int *out, const int *a, const int *b, int k, int n)
{
    /* TODO(3): out = a + k * b with one int4 load from a, one from b and one
     * int4 store per four elements; then the tail. */
}

void copy_int2(int *out, const int *in, int n)
{
    if (n <= 0)
        return;
    /* TODO(1): an int2 access needs an address that is a multiple of
     * sizeof(int2): when a pointer is not (vl_aligned(out, in, in, sizeof(int2))),
     * launch copy_scalar_kernel instead. */
    copy_int2_kernel<<<vl_grid(), VL_BLOCK>>>(out, in, n);
}

void copy_int4(int *out, const int *in, int n)
{
    if (n <= 0)
        return;
    /* TODO(2): an int4 access needs an address that is a multiple of
     * sizeof(int4): when a pointer is not (vl_aligned(out, in, in, sizeof(int4))),
     * launch copy_scalar_kernel instead. */
    copy_int4_kernel<<<vl_grid(), VL_BLOCK>>>(out, in, n);
}

void scaled_add_int4(int *out, const int *a, const int *b, int k, int n)
{
    if (n <= 0)
        return;
    /* TODO(3): an int4 access needs an address that is a multiple of
     * sizeof(int4): when a pointer is not (vl_aligned(out, a, b, sizeof(int4))),
     * launch scaled_add_scalar_kernel instead. */
    scaled_add_int4_kernel<<<vl_grid(), VL_BLOCK>>>(out, a, b, k, n);
}
