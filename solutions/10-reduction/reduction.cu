/* reduction.cu: lab 10-reduction. Your file: the only one graded.
 *
 * A reduction reads n elements and writes one number: the fastest it can
 * go is the speed at which the GPU reads memory. The ladder of the notes
 * climbs there one rung at a time: a tree in shared memory whose active
 * threads are contiguous (task 1), the first add done while loading (task
 * 2), the last warp finished with shuffles (task 3), then a fixed grid whose
 * threads sum many elements in registers before the block reduces (task 4),
 * and blocks combined in one launch with the same bits every run (task 5).
 * README.md tells the story and the tasks; `make run LAB=10` shows where you
 * are, `make check LAB=10` grades it. */
#include "reduction.h"

/* Given: do not change. The second launch of tasks 1 to 3: one block adds
 * the count partial sums in a fixed order and writes the total (0 when count
 * is 0). */
static __global__ void sum_partials_kernel(float *sum, const float *partial, int count)
{
    __shared__ float sdata[REDUCE_SUM_THREADS];
    unsigned tid = threadIdx.x;
    int stride = blockDim.x, b = tid;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;

    /* one block reads all the partials: four independent sums per thread
     * keep four loads in flight instead of waiting on each (task 4 says
     * more) */
    for (; b + 3 * stride < count; b += 4 * stride) {
        s0 += partial[b];
        s1 += partial[b + stride];
        s2 += partial[b + 2 * stride];
        s3 += partial[b + 3 * stride];
    }
    for (; b < count; b += stride)
        s0 += partial[b];
    sdata[tid] = (s0 + s1) + (s2 + s3);
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step >>= 1) {
        if (tid < step)
            sdata[tid] += sdata[tid + step];
        __syncthreads();
    }
    if (tid == 0)
        *sum = sdata[0];
}

/* Task 1: the tree with sequential addressing. */
__global__ void reduce_sequential_kernel(float *partial, const float *in, int n)
{
    __shared__ float sdata[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        /* the active threads are 0 .. s-1: whole warps add or idle, and
         * consecutive lanes read consecutive words (no bank conflicts) */
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

/* Task 2: the first add during the load; each block covers 2 * blockDim.x
 * elements. */
__global__ void reduce_first_add_kernel(float *partial, const float *in, int n)
{
    __shared__ float sdata[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    int j = i + blockDim.x;

    /* two loads per thread, blockDim.x apart (both coalesced), one add:
     * no thread idles in the first step */
    float v = i < n ? in[i] : 0.0f;
    if (j < n)
        v += in[j];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

/* Task 3: the sum of v over the 32 lanes of a warp, in lane 0. Every lane
 * of the warp must call it (the mask names all 32). */
__device__ float warp_sum(float v)
{
    /* each step adds the value `offset` lanes up: 16, 8, 4, 2, 1; registers
     * only, no shared memory and no barrier */
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

/* Task 3: task 2 with the last warp's steps done by shuffles. */
__global__ void reduce_shuffle_kernel(float *partial, const float *in, int n)
{
    __shared__ float sdata[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    int j = i + blockDim.x;

    float v = i < n ? in[i] : 0.0f;
    if (j < n)
        v += in[j];
    sdata[tid] = v;
    __syncthreads();
    /* the tree in shared memory down to 64 partial sums */
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    /* the first warp takes the 64 down to 32, then finishes in registers */
    if (tid < 32) {
        v = warp_sum(sdata[tid] + sdata[tid + 32]);
        if (tid == 0)
            partial[blockIdx.x] = v;
    }
}

/* Task 4: the sum of this thread's elements in[i], in[i + stride], ...,
 * where stride is the number of threads in the grid. */
__device__ float thread_sum(const float *in, int n)
{
    int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;

    /* four independent accumulators: four loads in flight per thread, and
     * no add waits for the previous one */
    for (; i + 3 * stride < n; i += 4 * stride) {
        a0 += in[i];
        a1 += in[i + stride];
        a2 += in[i + 2 * stride];
        a3 += in[i + 3 * stride];
    }
    for (; i < n; i += stride) /* the tail: at most three more */
        a0 += in[i];
    return (a0 + a1) + (a2 + a3);
}

/* Task 4: the sum of v over the block, in thread 0. Every thread of the
 * block calls it; a second call needs a __syncthreads() before it. */
__device__ float block_sum(float v)
{
    __shared__ float warp_sums[REDUCE_GRID_THREADS / 32];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    v = warp_sum(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    /* the first warp adds the warps' sums (all 32 lanes take part) */
    if (warp == 0)
        v = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    return v;
}

/* Task 4: a fixed grid, a sum per thread in registers, a sum per block with
 * shuffles, one atomicAdd per block. */
__global__ void reduce_grid_stride_kernel(float *sum, const float *in, int n)
{
    float v = block_sum(thread_sum(in, n));
    if (threadIdx.x == 0)
        atomicAdd(sum, v);
}

/* Task 4, for ints: unsigned arithmetic, which wraps modulo 2^32 by
 * definition (a signed overflow is undefined in C), with the same bits as
 * the two's-complement int sum. */
__device__ unsigned warp_sum_int(unsigned v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__device__ unsigned thread_sum_int(const int *in, int n)
{
    int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a0 = 0, a1 = 0, a2 = 0, a3 = 0;

    for (; i + 3 * stride < n; i += 4 * stride) {
        a0 += (unsigned)in[i];
        a1 += (unsigned)in[i + stride];
        a2 += (unsigned)in[i + 2 * stride];
        a3 += (unsigned)in[i + 3 * stride];
    }
    for (; i < n; i += stride)
        a0 += (unsigned)in[i];
    return (a0 + a1) + (a2 + a3);
}

__device__ unsigned block_sum_int(unsigned v)
{
    __shared__ unsigned warp_sums[REDUCE_GRID_THREADS / 32];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    v = warp_sum_int(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0)
        v = warp_sum_int(lane < blockDim.x / 32 ? warp_sums[lane] : 0);
    return v;
}

__global__ void reduce_grid_stride_int_kernel(int *sum, const int *in, int n)
{
    unsigned v = block_sum_int(thread_sum_int(in, n));
    if (threadIdx.x == 0)
        atomicAdd((unsigned *)sum, v);
}

/* Task 5: tickets drawn in the current launch; back at 0 after each launch
 * (atomicInc wraps it). Device memory starts at 0 when the module loads. */
__device__ unsigned blocks_done;

/* Task 5: task 4's kernel, combining the blocks by the last-block pattern. */
__global__ void reduce_last_block_kernel(float *sum, float *partial, const float *in, int n)
{
    __shared__ bool is_last;
    float v = block_sum(thread_sum(in, n));

    if (threadIdx.x == 0) {
        partial[blockIdx.x] = v;
        /* the partial is visible to every block before the ticket is drawn */
        __threadfence();
        /* tickets 0, 1, ..., gridDim.x - 1; the last one wraps the counter
         * back to 0, ready for the next launch */
        unsigned ticket = atomicInc(&blocks_done, gridDim.x - 1);
        is_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (is_last) { /* the same for the whole block: the barrier in block_sum is safe */
        /* volatile: read the other blocks' partials from memory, not a cache;
         * thread t adds partials t, t + blockDim.x, ...: a fixed order */
        volatile float *all = partial;
        float t = 0.0f;
        for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
            t += all[b];
        t = block_sum(t);
        if (threadIdx.x == 0)
            *sum = t;
    }
}

/* Given: the grid of tasks 4 and 5: REDUCE_BLOCKS_PER_SM blocks per
 * multiprocessor, at most REDUCE_MAX_BLOCKS, no more than n needs, at least 1. */
static int reduce_grid(int n)
{
    static int sms;
    int blocks = (n + REDUCE_GRID_THREADS - 1) / REDUCE_GRID_THREADS, limit;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0)
            sms = 1;
    }
    limit = REDUCE_BLOCKS_PER_SM * sms;
    if (limit > REDUCE_MAX_BLOCKS)
        limit = REDUCE_MAX_BLOCKS;
    if (blocks > limit)
        blocks = limit;
    return blocks > 0 ? blocks : 1;
}

/* Given: the launchers of the ladder: a block sum per block into partial[],
 * then the second launch. */
void reduce_sequential(float *sum, float *partial, const float *in, int n)
{
    int blocks = (n + REDUCE_THREADS - 1) / REDUCE_THREADS;
    if (blocks > 0)
        reduce_sequential_kernel<<<blocks, REDUCE_THREADS>>>(partial, in, n);
    sum_partials_kernel<<<1, REDUCE_SUM_THREADS>>>(sum, partial, blocks);
}

void reduce_first_add(float *sum, float *partial, const float *in, int n)
{
    int blocks = (n + 2 * REDUCE_THREADS - 1) / (2 * REDUCE_THREADS);
    if (blocks > 0)
        reduce_first_add_kernel<<<blocks, REDUCE_THREADS>>>(partial, in, n);
    sum_partials_kernel<<<1, REDUCE_SUM_THREADS>>>(sum, partial, blocks);
}

void reduce_shuffle(float *sum, float *partial, const float *in, int n)
{
    int blocks = (n + 2 * REDUCE_THREADS - 1) / (2 * REDUCE_THREADS);
    if (blocks > 0)
        reduce_shuffle_kernel<<<blocks, REDUCE_THREADS>>>(partial, in, n);
    sum_partials_kernel<<<1, REDUCE_SUM_THREADS>>>(sum, partial, blocks);
}

void reduce_grid_stride(float *sum, float *partial, const float *in, int n)
{
    (void)partial; /* not needed: the blocks add into *sum */
    /* the blocks add to *sum, so it starts at 0: queued on the default
     * stream before the kernel, without waiting for anything */
    cudaMemsetAsync(sum, 0, sizeof *sum, 0);
    reduce_grid_stride_kernel<<<reduce_grid(n), REDUCE_GRID_THREADS>>>(sum, in, n);
}

void reduce_grid_stride_int(int *sum, int *partial, const int *in, int n)
{
    (void)partial;
    cudaMemsetAsync(sum, 0, sizeof *sum, 0);
    reduce_grid_stride_int_kernel<<<reduce_grid(n), REDUCE_GRID_THREADS>>>(sum, in, n);
}

/* Given: one launch; the kernel writes *sum itself. */
void reduce_last_block(float *sum, float *partial, const float *in, int n)
{
    reduce_last_block_kernel<<<reduce_grid(n), REDUCE_GRID_THREADS>>>(sum, partial, in, n);
}
