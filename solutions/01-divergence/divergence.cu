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
    /* in each group of 64 elements, the first warp takes the 32 even ones,
     * the second warp the 32 odd ones: lane l of warp w takes 2 l + w % 2 */
    int i = t / 64 * 64 + 2 * (t % 32) + (t / 32) % 2;
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
    __shared__ int slot[DIV_BLOCK]; /* the block's element indices, heavy ones first */
    __shared__ int heavy, light;    /* how many of each the block holds */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x;

    if (t == 0) {
        heavy = 0;
        light = 0;
    }
    __syncthreads();
    /* file the element: heavy ones count up from the front, light ones down
     * from the back; atomicAdd gives each thread its own slot */
    if (i < n) {
        if (is_heavy(in[i]))
            slot[atomicAdd(&heavy, 1)] = i;
        else
            slot[DIV_BLOCK - 1 - atomicAdd(&light, 1)] = i;
    }
    __syncthreads();
    /* thread t takes slot t: warps below the boundary all heavy, above it all light */
    if (t < heavy) {
        int j = slot[t];
        out[j] = hash_even(in[j]);
    } else if (t >= DIV_BLOCK - light) {
        int j = slot[t];
        out[j] = light_work(in[j]);
    }
}

/* Task 3: the block product with contiguous active threads. */
__global__ void block_products_contiguous_kernel(unsigned *products, const unsigned *in, int n)
{
    __shared__ unsigned partial[DIV_BLOCK];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    partial[tid] = i < n ? in[i] : 1u; /* past n: 1, the identity of gf_mul */
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        /* the active threads are 0, 1, 2, ...: whole warps work or idle */
        unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            partial[index] = gf_mul(partial[index], partial[index + s]);
        __syncthreads();
    }
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
