/* tests/06-warp-aggregation.cu: the suite's own kernels (the judge's, never a student's): the
 * items an emitter appends for in[0, n), for the check of the timed calls, where the given
 * emit_atomic takes about 20 ms a call at 2^25 elements on an H100 (per-lane atomics on one
 * counter). Each element's count, their exclusive scan (CUB), and each element's items written
 * from there: no atomic and no warp aggregation, so no answer to the lab. */
#include "warp_aggregation.h"

#include "gl_check.h"

#include <cuda_runtime.h>
#if defined(__has_include)
#if __has_include(<cub/cub.cuh>) /* CUDA 11's Debian toolkit has it apart (libcub-dev) */
#include <cub/cub.cuh>
#define HAVE_CUB 1
#endif
#endif

/* first[i] = element i's count, for i < n; first[n] = 0 (the scan makes it the total) */
__global__ void suite_counts_kernel(int *first, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        first[i] = i < n ? items_of(in[i]) : 0;
}

/* element i's items at out[first[i]] on (first: the counts' exclusive scan) */
__global__ void suite_scatter_kernel(int *out, const int *first, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int j = 0; j < items_of(in[i]); j++)
        out[first[i] + j] = item_value(in[i], j);
}

/* Writes to out the items that an emitter appends for in[0, n), and returns how many; -1 where
 * the toolkit has no CUB. The scan's memory, the judge's own, is kept from call to call. */
extern "C" int wa_suite_expect(int *out, const int *in, int n)
{
#ifdef HAVE_CUB
    static char *scratch; /* first[0 .. n], then the scan's temporary storage */
    static size_t have;
    size_t first_bytes = ((size_t)n + 64) / 64 * 256, temp_bytes = 0; /* n + 1 ints, aligned */
    int *first, total;
    GL_CUDA(cub::DeviceScan::ExclusiveSum(NULL, temp_bytes, (int *)NULL, (int *)NULL, n + 1));
    if (first_bytes + temp_bytes > have) {
        GL_CUDA(cudaFree(scratch));
        have = first_bytes + temp_bytes;
        GL_CUDA(cudaMalloc((void **)&scratch, have));
    }
    first = (int *)scratch;
    suite_counts_kernel<<<wa_blocks(n + 1), WA_BLOCK>>>(first, in, n);
    GL_CUDA(cub::DeviceScan::ExclusiveSum(scratch + first_bytes, temp_bytes, first, first,
                                          n + 1)); /* in place */
    if (n > 0)
        suite_scatter_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, first, in, n);
    GL_CUDA(cudaGetLastError());
    GL_CUDA(cudaMemcpy(&total, first + n, sizeof total, cudaMemcpyDeviceToHost));
    return total;
#else
    (void)out, (void)in, (void)n;
    return -1;
#endif
}
