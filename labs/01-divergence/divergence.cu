/* divergence.cu: lab 01-divergence. Your file: the only one graded.
 *
 * A warp issues one instruction for its 32 lanes. When its lanes disagree
 * on a branch, it runs both sides, one after the other, with the lanes of
 * the other side masked off, and reconverges after the branch. The cost is
 * only inside a warp: a condition that is the same for all 32 lanes is free.
 * README.md tells the story and the tasks; `make run LAB=01` shows where you
 * are, `make check LAB=01` grades it. */
#include "divergence.h"

/* Task 1 (README.md): the lane-parity branch, made uniform per warp. */
__global__ void branch_by_warp_kernel(unsigned *out, const unsigned *in, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    /* TODO(1): thread t takes element t, so even and odd lanes disagree.
     * Choose the element i of thread t instead so that in each group of 64
     * elements, the first warp takes the 32 even ones and the second warp the
     * 32 odd ones: then all 32 lanes of a warp take the same branch. Every
     * element must still be taken by exactly one thread. */
    int i = t;
    if (i < n) {
        if (i % 2 == 0)
            out[i] = hash_even(in[i]);
        else
            out[i] = hash_odd(in[i]);
    }
}

/* Task 2: the data-dependent branch, with the block's elements regrouped by
 * class, so that a warp's lanes agree. */
__global__ void classify_partitioned_kernel(unsigned *out, const unsigned *in, int n)
{
    /* TODO(2): with, in shared memory, the block's element indices in the
     * order they will be processed and a counter for each class,
     *     __shared__ int slot[DIV_BLOCK];
     *     __shared__ int heavy, light;
     * three steps, a __syncthreads() between them:
     * 1. Thread 0 sets heavy = light = 0.
     * 2. Thread i (i < n) files its element: a heavy one at the front,
     *    slot[atomicAdd(&heavy, 1)] = i, a light one at the back,
     *    slot[DIV_BLOCK - 1 - atomicAdd(&light, 1)] = i. (atomicAdd returns
     *    the counter's old value, a different one to each thread: lab 05.)
     * 3. Thread t of the block now takes element slot[t]: the heavy work if
     *    t < heavy, the light work if t >= DIV_BLOCK - light, and nothing in
     *    between (the slots of elements past n). Only the warp that holds
     *    the boundary mixes the two. */
}

/* Task 3: the block product with contiguous active threads. */
__global__ void block_products_contiguous_kernel(unsigned *products, const unsigned *in, int n)
{
    __shared__ unsigned partial[DIV_BLOCK];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    partial[tid] = i < n ? in[i] : 1u; /* past n: 1, the identity of gf_mul */
    __syncthreads();
    /* TODO(3): the tree of the given kernel (baselines.cu), for s = 1, 2, 4,
     * ..., blockDim.x / 2, but at step s let thread tid combine the pair at
     * index = 2 * s * tid (partial[index] = gf_mul(partial[index],
     * partial[index + s])) when that index is inside the block. The active
     * threads are then 0, 1, 2, ...: whole warps work or idle together. A
     * __syncthreads() after each step. */
    if (tid == 0)
        products[blockIdx.x] = partial[0];
}

void branch_by_warp(unsigned *out, const unsigned *in, int n)
{
    if (n > 0)
        branch_by_warp_kernel<<<div_blocks(n), DIV_BLOCK>>>(out, in, n);
}

void classify_partitioned(unsigned *out, const unsigned *in, int n)
{
    if (n > 0)
        classify_partitioned_kernel<<<div_blocks(n), DIV_BLOCK>>>(out, in, n);
}

void block_products_contiguous(unsigned *products, const unsigned *in, int n)
{
    if (n > 0)
        block_products_contiguous_kernel<<<div_blocks(n), DIV_BLOCK>>>(products, in, n);
}
