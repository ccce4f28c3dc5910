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
    __shared__ unsigned hist[AT_BINS]; /* the block's own histogram */

    for (int b = threadIdx.x; b < AT_BINS; b += blockDim.x)
        hist[b] = 0;
    __syncthreads(); /* every bin is zero before any thread counts */
    /* contention only among the block's threads, in shared memory */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[data[i]], 1);
    __syncthreads(); /* every count is in before the merge reads it */
    /* one global atomic per bin per block: other blocks add to the same bins */
    for (int b = threadIdx.x; b < AT_BINS; b += blockDim.x)
        if (hist[b] > 0)
            atomicAdd(&bins[b], hist[b]);
}

/* Task 2: any bin count, in dynamic shared memory sized at launch. */
__global__ void histogram_bins_kernel(unsigned *bins, const int *values, int n, int nbins)
{
    extern __shared__ unsigned hist[]; /* nbins words: the launch's third parameter */

    for (int b = threadIdx.x; b < nbins; b += blockDim.x)
        hist[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[values[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < nbins; b += blockDim.x)
        if (hist[b] > 0)
            atomicAdd(&bins[b], hist[b]);
}

/* Task 3: a float maximum, which no atomic does, from atomicCAS on the bits.
 * Returns the value *address held before (as atomicMax does). */
__device__ float atomic_max_float(float *address, float value)
{
    int *bits = (int *)address;
    int old = *bits;
    /* compare as floats, swap as ints; a CAS that finds another value than
     * the one read means another thread got there first: retry with it */
    while (__int_as_float(old) < value) {
        int assumed = old;
        old = atomicCAS(bits, assumed, __float_as_int(value));
        if (old == assumed)
            break;
    }
    return __int_as_float(old);
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
    __shared__ bool is_last;
    unsigned s = 0;

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += x[i];
    s = block_sum(partial, s);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s;
        /* the partial is visible to every block before the ticket is drawn */
        __threadfence();
        /* tickets 0, 1, ..., gridDim.x - 1; the last one wraps the counter
         * back to 0, ready for the next call */
        unsigned ticket = atomicInc(counter, gridDim.x - 1);
        is_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (is_last) { /* the same for the whole block: the barriers inside are safe */
        /* volatile: read the other blocks' partials from memory, not a cache */
        volatile unsigned *all = partials;
        unsigned t = 0;
        for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
            t += all[b];
        t = block_sum(partial, t);
        if (threadIdx.x == 0)
            *sum = t;
    }
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
    /* -INFINITY's bytes (00 00 80 ff) are not one repeated byte, so no
     * cudaMemset: a one-thread kernel, queued before the blocks merge */
    set_float_kernel<<<1, 1>>>(result, -INFINITY);
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
