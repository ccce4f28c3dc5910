/* tests/06-warp-aggregation.cu: the suite's own kernels (the judge's, never a student's): the
 * values a launcher appends for in[0, n), for the check of the timed calls, where the given
 * emit_atomic takes about 20 ms a call at 2^25 elements on an H100 (its per-lane atomics on one
 * counter, one after another). Each element's count (a filter keeps x > 0, an emitter emits
 * items_of(x) items), their exclusive scan (CUB), and each element's values written from
 * there: no atomic and no warp aggregation, so no answer to the lab. */
#include "warp_aggregation.h"

#include "gl_check.h"

#include <cuda_runtime.h>
#if defined(__has_include)
#if __has_include(<cub/cub.cuh>) /* CUDA 11's Debian toolkit has it apart (libcub-dev) */
#include <cub/cub.cuh>
#define HAVE_CUB 1
#endif
#endif

static __device__ int appended(int x, int filter)
{
    return filter ? x > 0 : items_of(x);
}

/* first[i] = element i's count, for i < n; first[n] = 0 (the scan makes it the total) */
__global__ void suite_counts_kernel(int *first, const int *in, int n, int filter)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        first[i] = i < n ? appended(in[i], filter) : 0;
}

/* element i's values at out[first[i]] on (first: the counts' exclusive scan) */
__global__ void suite_scatter_kernel(int *out, const int *first, const int *in, int n, int filter)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = in[i], k = appended(x, filter);
    for (int j = 0; j < k; j++)
        out[first[i] + j] = filter ? x : item_value(x, j);
}

/* Writes to out the values that a filter (filter 1) or an emitter appends for in[0, n), and
 * returns how many; -1 where the toolkit has no CUB. The scan's memory, the judge's own, is
 * kept from call to call. */
extern "C" int wa_suite_expect(int *out, const int *in, int n, int filter)
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
    suite_counts_kernel<<<wa_blocks(n + 1), WA_BLOCK>>>(first, in, n, filter);
    GL_CUDA(cub::DeviceScan::ExclusiveSum(scratch + first_bytes, temp_bytes, first, first,
                                          n + 1)); /* in place */
    if (n > 0)
        suite_scatter_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, first, in, n, filter);
    GL_CUDA(cudaGetLastError());
    GL_CUDA(cudaMemcpy(&total, first + n, sizeof total, cudaMemcpyDeviceToHost));
    return total;
#else
    (void)out, (void)in, (void)n, (void)filter;
    return -1;
#endif
}
