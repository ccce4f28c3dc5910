/* baselines.cu: lab 01-divergence's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy. */
#include "divergence.h"

/* Thread i takes element i: lanes 0, 2, 4, ... of every warp take the first
 * branch, lanes 1, 3, 5, ... the second. The warp runs both loops, each with
 * half of its lanes masked off. */
__global__ void branch_by_lane_kernel(unsigned *out, const unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (i % 2 == 0)
            out[i] = hash_even(in[i]);
        else
            out[i] = hash_odd(in[i]);
    }
}

/* The trap: the two branches are the same loop with different constants.
 * The compiler picks the constant with a select and runs one loop for all 32
 * lanes: nothing diverges, and there is nothing for the warp mapping to win. */
__global__ void same_code_by_lane_kernel(unsigned *out, const unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = in[i];
        if (i % 2 == 0)
            x = hash_with(x, DIV_MULT_EVEN);
        else
            x = hash_with(x, DIV_MULT_ODD);
        out[i] = x;
    }
}

/* The same code with a condition that is uniform per warp: each warp of 32
 * consecutive elements hashes them all with one constant, DIV_MULT_EVEN in
 * even warps, DIV_MULT_ODD in odd ones (another output than
 * same_code_by_lane's, the same work). Whether the lanes agree or not, the
 * select runs one loop for all 32 of them: there was no divergence to remove. */
__global__ void same_code_by_warp_kernel(unsigned *out, const unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = in[i];
        if (i / 32 % 2 == 0)
            x = hash_with(x, DIV_MULT_EVEN);
        else
            x = hash_with(x, DIV_MULT_ODD);
        out[i] = x;
    }
}

/* A data-dependent branch: which lanes take the heavy path depends on the
 * input. Random input: about half of each warp's lanes, so every warp runs
 * both paths. Sorted input: whole warps agree. */
__global__ void classify_kernel(unsigned *out, const unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = in[i];
        if (is_heavy(x))
            out[i] = hash_even(x);
        else
            out[i] = light_work(x);
    }
}

/* The first reduction of the notes, combining with gf_mul (divergence.h)
 * instead of +: at step s, the threads whose tid is a multiple of 2s combine.
 * Every warp stays busy while most of its lanes idle, and tid % (2 * s) is an
 * integer division. Elements from n on count as 1, gf_mul's identity. */
__global__ void block_products_interleaved_kernel(unsigned *products, const unsigned *in, int n)
{
    __shared__ unsigned partial[DIV_BLOCK];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    partial[tid] = i < n ? in[i] : 1u;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            partial[tid] = gf_mul(partial[tid], partial[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        products[blockIdx.x] = partial[0];
}

void branch_by_lane(unsigned *out, const unsigned *in, int n)
{
    if (n > 0)
        branch_by_lane_kernel<<<div_blocks(n), DIV_BLOCK>>>(out, in, n);
}

void same_code_by_lane(unsigned *out, const unsigned *in, int n)
{
    if (n > 0)
        same_code_by_lane_kernel<<<div_blocks(n), DIV_BLOCK>>>(out, in, n);
}

void same_code_by_warp(unsigned *out, const unsigned *in, int n)
{
    if (n > 0)
        same_code_by_warp_kernel<<<div_blocks(n), DIV_BLOCK>>>(out, in, n);
}

void classify(unsigned *out, const unsigned *in, int n)
{
    if (n > 0)
        classify_kernel<<<div_blocks(n), DIV_BLOCK>>>(out, in, n);
}

void block_products_interleaved(unsigned *products, const unsigned *in, int n)
{
    if (n > 0)
        block_products_interleaved_kernel<<<div_blocks(n), DIV_BLOCK>>>(products, in, n);
}
