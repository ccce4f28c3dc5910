/* baselines.cu: lab 10-reduction's given kernel, the first rung of the
 * ladder, the one you measure against. Read it; do not edit it: the grader
 * builds its own copy. */
#include "reduction.h"

/* The notes' first reduction: each thread loads one element into shared
 * memory, then at step s = 1, 2, 4, ... the threads whose tid is a multiple
 * of 2s add the element s to their right. Every warp stays busy while fewer
 * and fewer of its lanes add (divergence), tid % (2 * s) is an integer
 * division, and the active lanes' addresses 2s apart hit the same banks. */
__global__ void reduce_interleaved_kernel(float *partial, const float *in, int n)
{
    __shared__ float sdata[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

/* The second launch: one block adds the count partial sums, in a fixed
 * order, and writes the total (0 when count is 0). The same kernel is given
 * in reduction.cu; static, so that the two copies do not collide when both
 * files are linked into the demo. */
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

void reduce_interleaved(float *sum, float *partial, const float *in, int n)
{
    int blocks = (n + REDUCE_THREADS - 1) / REDUCE_THREADS;
    if (blocks > 0)
        reduce_interleaved_kernel<<<blocks, REDUCE_THREADS>>>(partial, in, n);
    sum_partials_kernel<<<1, REDUCE_SUM_THREADS>>>(sum, partial, blocks);
}
