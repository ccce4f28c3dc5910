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
    /* TODO(1): the tree of the given reduce_interleaved_kernel
     * (baselines.cu), with sequential addressing: for s = blockDim.x / 2,
     * blockDim.x / 4, ..., 1, the threads tid < s add sdata[tid + s] into
     * sdata[tid]. The active threads are then 0 .. s-1: whole warps add or
     * idle together, and no tid % (2 * s). A __syncthreads() after every
     * step: the next step reads what other threads wrote. */
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

    /* TODO(2): block b covers elements 2 * b * blockDim.x .. 2 * (b + 1) *
     * blockDim.x - 1 (the launcher starts half as many blocks as task 1).
     * Let thread tid load in[i] and also in[i + blockDim.x], each only when
     * it is below n (the last block may stop anywhere), and store their sum
     * in sdata[tid]: no thread idles in the first step. Then, after the
     * __syncthreads(), task 1's tree. */
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

/* Task 3: the sum of v over the 32 lanes of a warp, in lane 0. Every lane
 * of the warp must call it (the mask names all 32). */
__device__ float warp_sum(float v)
{
    /* TODO(3): five steps, offset = 16, 8, 4, 2, 1: each lane adds the
     * value of the lane `offset` above it,
     *     v += __shfl_down_sync(0xffffffff, v, offset);
     * (registers only: no shared memory, no barrier). After the last step
     * lane 0 holds the sum of all 32. */
    return v;
}

/* Task 3: task 2 with the last warp's steps done by shuffles. */
__global__ void reduce_shuffle_kernel(float *partial, const float *in, int n)
{
    /* TODO(3): task 2's kernel (its __shared__ array, load and first add),
     * with its tree run only while s > 32, which leaves 64 partial sums in
     * sdata[0 .. 63]; then the first warp (tid < 32) finishes in registers:
     * warp_sum(sdata[tid] + sdata[tid + 32]), and its lane 0 writes
     * partial[blockIdx.x]. No barrier after that: a warp's shuffles need
     * none. */
    (void)partial;
    (void)in;
    (void)n;
}

/* Task 4: the sum of this thread's elements in[i], in[i + stride], ...,
 * where stride is the number of threads in the grid. */
__device__ float thread_sum(const float *in, int n)
{
    /* TODO(4): with stride = gridDim.x * blockDim.x (the threads of the
     * grid) and i = blockIdx.x * blockDim.x + threadIdx.x, a grid-stride
     * loop over in[i], in[i + stride], ... into FOUR accumulators a0..a3:
     * while i + 3 * stride < n, add in[i] to a0, in[i + stride] to a1,
     * in[i + 2 * stride] to a2, in[i + 3 * stride] to a3 and move i on by
     * 4 * stride (four independent loads in flight); then the tail, one
     * stride at a time while i < n. Return (a0 + a1) + (a2 + a3). */
    (void)in;
    (void)n;
    return 0.0f;
}

/* Task 4: the sum of v over the block, in thread 0. Every thread of the
 * block calls it; a second call needs a __syncthreads() before it. */
__device__ float block_sum(float v)
{
    /* TODO(4): each warp sums its lanes' v with warp_sum, and its lane 0
     * (threadIdx.x % 32 == 0) stores the result in a
     *     __shared__ float warp_sums[REDUCE_GRID_THREADS / 32];
     * at index threadIdx.x / 32; a __syncthreads(); then the first warp,
     * all 32 of its lanes, sums warp_sums[lane] (0 for lanes past the
     * block's blockDim.x / 32 warps) with warp_sum again. */
    return v;
}

/* Task 4: a fixed grid, a sum per thread in registers, a sum per block with
 * shuffles, one atomicAdd per block. */
__global__ void reduce_grid_stride_kernel(float *sum, const float *in, int n)
{
    /* TODO(4): v = block_sum(thread_sum(in, n)); thread 0 adds the
     * block's v to *sum with atomicAdd (the launcher zeroes *sum first). */
    (void)sum;
    (void)in;
    (void)n;
}

/* Task 4, for ints: unsigned arithmetic, which wraps modulo 2^32 by
 * definition (a signed overflow is undefined in C), with the same bits as
 * the two's-complement int sum. */
__device__ unsigned warp_sum_int(unsigned v)
{
    /* TODO(4): warp_sum, for unsigned */
    return v;
}

__device__ unsigned thread_sum_int(const int *in, int n)
{
    /* TODO(4): thread_sum, with unsigned accumulators a0..a3 (each
     * element cast: a0 += (unsigned)in[i]) */
    (void)in;
    (void)n;
    return 0;
}

__device__ unsigned block_sum_int(unsigned v)
{
    /* TODO(4): block_sum, for unsigned (with warp_sum_int) */
    return v;
}

__global__ void reduce_grid_stride_int_kernel(int *sum, const int *in, int n)
{
    /* TODO(4): reduce_grid_stride_kernel, for unsigned: thread 0 adds the
     * block's sum with atomicAdd((unsigned *)sum, v) */
    (void)sum;
    (void)in;
    (void)n;
}

/* Task 5: tickets drawn in the current launch; back at 0 after each launch
 * (atomicInc wraps it). Device memory starts at 0 when the module loads. */
__device__ unsigned blocks_done;

/* Task 5: task 4's kernel, combining the blocks by the last-block pattern. */
__global__ void reduce_last_block_kernel(float *sum, float *partial, const float *in, int n)
{
    /* TODO(5): v = block_sum(thread_sum(in, n)) as in task 4; then, with
     * a __shared__ bool is_last:
     * 1. Thread 0 writes v to partial[blockIdx.x]; __threadfence(), so that
     *    the partial is visible to every block before the ticket; then draws
     *    a ticket, atomicInc(&blocks_done, gridDim.x - 1): 0, 1, 2, ... in
     *    the order the blocks get there; the last one, gridDim.x - 1, also
     *    wraps the counter back to 0 for the next launch. Thread 0 sets
     *    is_last = (ticket == gridDim.x - 1).
     * 2. __syncthreads(), so that every thread sees is_last.
     * 3. In the last block only: thread t adds partial[t], partial[t +
     *    blockDim.x], ... below gridDim.x (through a volatile float *: other
     *    blocks wrote them), block_sum adds the threads' sums, and thread 0
     *    writes *sum. A fixed order: the same bits on every run. */
    (void)sum;
    (void)partial;
    (void)in;
    (void)n;
    (void)blocks_done;
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
    /* TODO(4): the blocks add to *sum, so it must start at 0: zero it here,
     * queued on the default stream before the kernel, without waiting for
     * anything: cudaMemsetAsync(sum, 0, sizeof *sum, 0). */
    reduce_grid_stride_kernel<<<reduce_grid(n), REDUCE_GRID_THREADS>>>(sum, in, n);
}

void reduce_grid_stride_int(int *sum, int *partial, const int *in, int n)
{
    (void)partial;
    /* TODO(4): the same */
    reduce_grid_stride_int_kernel<<<reduce_grid(n), REDUCE_GRID_THREADS>>>(sum, in, n);
}

/* Given: one launch; the kernel writes *sum itself. */
void reduce_last_block(float *sum, float *partial, const float *in, int n)
{
    reduce_last_block_kernel<<<reduce_grid(n), REDUCE_GRID_THREADS>>>(sum, partial, in, n);
}
