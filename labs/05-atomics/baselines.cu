/* baselines.cu: lab 05-atomics's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy.
 *
 * A grid-stride loop: thread i handles elements i, i + S, i + 2S, ... where
 * S is the number of threads in the grid, so any n is covered by a grid
 * sized to the GPU (at_grid), not to n. */
#include "atomics.h"

/* Every byte is one atomicAdd in global memory. Updates of one address are
 * done one after the other (in the L2 cache), so 256 bins shared by every
 * thread of the GPU make a queue at each bin: the more threads per bin, the
 * longer it is. */
__global__ void histogram_global_kernel(unsigned *bins, const unsigned char *data, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1);
}

/* The same for any bin count. With most values in one bin, most of the
 * atomics queue at one address. */
__global__ void histogram_bins_global_kernel(unsigned *bins, const int *values, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[values[i]], 1);
}

/* The bins start at zero: a memset enqueued on the default stream before the
 * kernel, so it runs first. */
void histogram_global(unsigned *bins, const unsigned char *data, int n)
{
    cudaMemsetAsync(bins, 0, AT_BINS * sizeof(unsigned), 0);
    if (n > 0)
        histogram_global_kernel<<<at_grid(), AT_BLOCK>>>(bins, data, n);
}

void histogram_bins_global(unsigned *bins, const int *values, int n, int nbins)
{
    cudaMemsetAsync(bins, 0, (size_t)nbins * sizeof(unsigned), 0);
    if (n > 0)
        histogram_bins_global_kernel<<<at_grid(), AT_BLOCK>>>(bins, values, n);
}
