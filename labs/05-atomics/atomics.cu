/* atomics.cu: lab 05-atomics. Your file: the only one graded.
 *
 * An atomic read-modify-write (atomicAdd, atomicMax, atomicCAS, ...) updates
 * one word with no other thread's update in between. Updates of one address
 * are done one after the other, so many threads on few addresses wait in
 * line: that is contention. Privatising (a copy per block in shared memory,
 * merged once at the end) turns most of the global atomics into shared ones
 * that only the block's own threads contend for.
 * README.md tells the story and the tasks; `make run LAB=05` shows where you
 * are, `make check LAB=05` grades it. */
#include "atomics.h"

#include <math.h>

/* Given: the sum and the maximum of the block's values, by a tree in shared
 * memory (lab 10 makes it faster). Every thread of the block calls them and
 * gets the result. */
__device__ unsigned block_sum(unsigned *partial, unsigned value)
{
    unsigned tid = threadIdx.x, total;
    partial[tid] = value;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    total = partial[0];
    __syncthreads(); /* before anyone writes partial again */
    return total;
}

__device__ float block_max(float *partial, float value)
{
    unsigned tid = threadIdx.x;
    float result;
    partial[tid] = value;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (tid < s)
            partial[tid] = fmaxf(partial[tid], partial[tid + s]);
        __syncthreads();
    }
    result = partial[0];
    __syncthreads();
    return result;
}

/* Task 1 (README.md): the byte histogram, privatised in shared memory. */
__global__ void histogram_shared_kernel(unsigned *bins, const unsigned char *data, int n)
{
    /* TODO(1): this is the given kernel: every byte one atomicAdd on the
     * global bins, which every thread of the GPU contends for. Privatise it:
     * 1. a histogram of the block's own, __shared__ unsigned hist[AT_BINS],
     *    zeroed by the block's threads (shared memory starts with garbage);
     * 2. __syncthreads(), then the grid-stride loop with atomicAdd on
     *    hist[data[i]]: only the block's 256 threads contend for it;
     * 3. __syncthreads(), then merge: each thread takes bins b = threadIdx.x,
     *    threadIdx.x + blockDim.x, ... and adds hist[b] to bins[b] with one
     *    atomicAdd (other blocks add to the same bins; skip the zeros). */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1);
}

/* Task 2: any bin count, in dynamic shared memory sized at launch. */
__global__ void histogram_bins_kernel(unsigned *bins, const int *values, int n, int nbins)
{
    /* TODO(2): task 1's three steps with nbins bins instead of AT_BINS. The
     * size is known only at run time, so the block's histogram is dynamic
     * shared memory, whose size the launcher passes (histogram_bins, below):
     *     extern __shared__ unsigned hist[];   // nbins words
     * Every loop over the bins runs to nbins. */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[values[i]], 1);
}

/* Task 3: a float maximum, which no atomic does, from atomicCAS on the bits.
 * Returns the value *address held before (as atomicMax does). */
__device__ float atomic_max_float(float *address, float value)
{
    /* TODO(3): `if (*address < value) *address = value;` is not atomic: two
     * blocks read the same old value, and the smaller write may land last.
     * atomicCAS(int *address, int compare, int val) writes val only if the
     * word still holds compare, and returns what it held. So: read the word
     * (int *bits = (int *)address), and while the float it holds
     * (__int_as_float(old)) is below value, try to swap in
     * __float_as_int(value); if atomicCAS returns something else than what
     * you read, another thread got there first: retry with that. (atomicMax
     * on the int bits is wrong: negative floats order backwards as ints.) */
    return *address;
}

/* Given: sets *p = value; the launcher's first step for task 3. */
__global__ void set_float_kernel(float *p, float value)
{
    *p = value;
}

__global__ void max_float_kernel(float *result, const float *x, int n)
{
    __shared__ float partial[AT_BLOCK];
    float m = -INFINITY;

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        m = fmaxf(m, x[i]);
    m = block_max(partial, m);
    if (threadIdx.x == 0) /* one atomic per block */
        atomic_max_float(result, m);
}

/* Task 4: the sum in one launch; the last block to finish adds the partials. */
__global__ void sum_last_block_kernel(unsigned *sum, const unsigned *x, int n,
                                      unsigned *partials, unsigned *counter)
{
    __shared__ unsigned partial[AT_BLOCK];
    unsigned s = 0;

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += x[i];
    s = block_sum(partial, s);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = s;
    /* TODO(4): nothing adds the partials up yet. The last block to finish
     * does, in this same launch:
     * 1. Thread 0, after writing its partial: __threadfence(), so that the
     *    partial is visible to every block before the ticket is; then a
     *    ticket, atomicInc(counter, gridDim.x - 1): 0, 1, 2, ... in the
     *    order the blocks get there, and the last ticket, gridDim.x - 1,
     *    wraps the counter back to 0 for the next call. Thread 0 tells its
     *    block whether it drew the last ticket in a __shared__ bool is_last.
     * 2. __syncthreads(); then, in the block that drew it (all its threads):
     *    add partials[0 .. gridDim.x - 1] (read them through a volatile
     *    unsigned *: other blocks wrote them), with block_sum, and thread 0
     *    writes the total to *sum. */
}

void histogram_shared(unsigned *bins, const unsigned char *data, int n)
{
    cudaMemsetAsync(bins, 0, AT_BINS * sizeof(unsigned), 0);
    if (n > 0)
        histogram_shared_kernel<<<at_grid(), AT_BLOCK>>>(bins, data, n);
}

void histogram_bins(unsigned *bins, const int *values, int n, int nbins)
{
    cudaMemsetAsync(bins, 0, (size_t)nbins * sizeof(unsigned), 0);
    /* the third launch parameter: bytes of dynamic shared memory per block */
    if (n > 0)
        histogram_bins_kernel<<<at_grid(), AT_BLOCK, nbins * sizeof(unsigned)>>>(bins, values, n,
                                                                                   nbins);
}

void max_float(float *result, const float *x, int n)
{
    /* TODO(3): *result must hold -INFINITY before the first block merges into
     * it: every call starts afresh, and the caller leaves anything there.
     * Its bytes (00 00 80 ff) are not one repeated byte, so cudaMemset cannot
     * write it: launch set_float_kernel<<<1, 1>>>(result, -INFINITY) first,
     * on the default stream, which runs it before max_float_kernel. */
    if (n > 0)
        max_float_kernel<<<at_grid(), AT_BLOCK>>>(result, x, n);
}

void sum_last_block(unsigned *sum, const unsigned *x, int n, unsigned *partials,
                    unsigned *counter)
{
    if (n > 0)
        sum_last_block_kernel<<<AT_SUM_BLOCKS, AT_BLOCK>>>(sum, x, n, partials, counter);
    else
        cudaMemsetAsync(sum, 0, sizeof(unsigned), 0);
}
