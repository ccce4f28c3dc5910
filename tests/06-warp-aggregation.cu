/* tests/06-warp-aggregation.cu: the judge's kernels: the items an emitter appends for in[0, n)
 * by a scan of the counts (no atomic, no answer to the lab), for the check of the timed calls,
 * where the given emit_atomic takes about 20 ms a call at 2^25 elements on an H100. */
#include "warp_aggregation.h"

#include "gl_check.h"
#include "gl_device_data.h"

__global__ void suite_counts_kernel(int *first, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        first[i] = items_of(in[i]);
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
 * the toolkit has no CUB. */
extern "C" int wa_suite_expect(int *out, const int *in, int n)
{
    static int *first; /* each element's count, then its first item's index in out */
    static size_t have;
    first = (int *)gl_device_grown(first, &have, (size_t)n * sizeof(int));
    if (n > 0)
        suite_counts_kernel<<<wa_blocks(n), WA_BLOCK>>>(first, in, n);
    long long total = gl_device_exclusive_scan(first, n);
    if (total > 0)
        suite_scatter_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, first, in, n);
    GL_CUDA(cudaGetLastError());
    return (int)total;
}
