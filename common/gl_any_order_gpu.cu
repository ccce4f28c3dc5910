/* gl_any_order_gpu.cu: an output whose slots come in any order, compared on the GPU
 * (gl_any_order.h): the slots never written must be the same on both sides, then copies of
 * both are sorted (CUB's radix sort: the outputs stay as they are) and compared word by word. */
#include "gl_any_order.h"

#include "gl_check.h"
#include "gl_device_data.h"

#include <cuda_runtime.h>
#if defined(__has_include)
#if __has_include(<cub/cub.cuh>) /* CUDA 11's Debian toolkit has it apart (libcub-dev) */
#include <cub/cub.cuh>
#define GL_HAVE_CUB 1
#endif
#endif
#include <limits.h>

#define POISON_WORD 0xffffffffu /* a word of GL_POISON_BYTE */

/* How many slots are written (hold another word than the poison) on one side only. */
__global__ void gl_written_apart_kernel(const unsigned *a, const unsigned *b, size_t n,
                                        unsigned long long *apart)
{
    unsigned long long c = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        c += (a[i] == POISON_WORD) != (b[i] == POISON_WORD);
    if (c)
        atomicAdd(apart, c);
}

extern "C" long long gl_device_diff_any_order(const void *expected, const void *got, size_t n)
{
#ifdef GL_HAVE_CUB
    static unsigned long long *apart;
    static unsigned *sorted; /* 2n words: expected's, then got's */
    static void *temp;
    static size_t sorted_bytes, temp_bytes;
    const unsigned *e = (const unsigned *)expected, *g = (const unsigned *)got;
    unsigned long long h = 0;
    size_t need = 0;
    if (n == 0)
        return 0;
    if (n > INT_MAX)
        gl_fail("gl_device_diff_any_order: %zu words, more than CUB sorts at once", n);
    if (!apart)
        GL_CUDA(cudaMalloc((void **)&apart, sizeof *apart));
    GL_CUDA(cudaMemcpy(apart, &h, sizeof h, cudaMemcpyHostToDevice));
    gl_written_apart_kernel<<<1024, 256>>>(e, g, n, apart);
    GL_CUDA(cudaGetLastError());
    GL_CUDA(cudaMemcpy(&h, apart, sizeof h, cudaMemcpyDeviceToHost));
    if (h)
        return (long long)h;
    sorted = (unsigned *)gl_device_grown(sorted, &sorted_bytes, 2 * n * sizeof *sorted);
    GL_CUDA(cub::DeviceRadixSort::SortKeys(NULL, need, e, sorted, (int)n));
    temp = gl_device_grown(temp, &temp_bytes, need);
    GL_CUDA(cub::DeviceRadixSort::SortKeys(temp, need, e, sorted, (int)n));
    GL_CUDA(cub::DeviceRadixSort::SortKeys(temp, need, g, sorted + n, (int)n));
    return (long long)gl_device_diff_words(sorted, sorted + n, n, NULL);
#else
    (void)expected, (void)got, (void)n;
    return -1;
#endif
}
