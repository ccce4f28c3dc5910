/* occupancy.cu: lab 13-occupancy (reference solution).
 *
 * The walk and the mixed walk are occupancy.h's; the given launchers this starts from
 * are in labs/13-occupancy/baselines.cu. */
#include "occupancy.h"

/* Task 1's kernel: the given walk, with a grid-stride loop (any grid covers any n). */
__global__ void walk_grid_stride_kernel(int *out, const int *table, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int c = i;
        for (int s = 0; s < WALK_HOPS; s++)
            c = (i + table[s * n + c]) % n;
        out[i] = c;
    }
}

/* Task 1: the occupancy API sizes the launch. The block size that lets an SM hold the most
 * warps of this kernel, then how many such blocks one SM holds, times the SMs: a grid
 * that fills the GPU once (one full wave), each thread looping over its elements.
 * The answers do not change between calls: they are worked out once. */
void walk_occupancy_api(int *out, const int *table, int n)
{
    static int block_size, grid_size;
    if (block_size == 0) {
        int min_grid, blocks_per_sm, device, sms;
        cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, walk_grid_stride_kernel, 0, 0);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, walk_grid_stride_kernel,
                                                      block_size, 0);
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        grid_size = blocks_per_sm * sms;
    }
    if (n > 0)
        walk_grid_stride_kernel<<<grid_size, block_size>>>(out, table, n);
}

/* Task 2: the given mixed walk, with __launch_bounds__: at most MIX_THREADS threads a
 * block, and at least MIX_MIN_BLOCKS blocks per SM. ptxas then keeps the kernel within
 * 65536 / (2 x 512) = 64 registers: two blocks, 32 warps, fit on an SM instead of one. */
__global__ void __launch_bounds__(MIX_THREADS, MIX_MIN_BLOCKS)
    mix_walk_bounded_kernel(int *out, const int *table, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned mix[MIX_WORDS];
    for (int k = 0; k < MIX_WORDS; k++)
        mix[k] = k;
    int c = i;
    for (int s = 0; s < WALK_HOPS; s++) {
        int value = table[s * n + c];
        c = (i + value) % n;
        for (int k = 0; k < MIX_WORDS; k++)
            mix[k] = mix[k] * 33u + (value ^ k);
    }
    unsigned h = 0;
    for (int k = 0; k < MIX_WORDS; k++)
        h ^= mix[k] >> (k % 16);
    out[i] = c ^ (int)(h & 0x7fffffff);
}

void mix_walk_bounded(int *out, const int *table, int n)
{
    if (n > 0)
        mix_walk_bounded_kernel<<<(n + MIX_THREADS - 1) / MIX_THREADS, MIX_THREADS>>>(out, table,
                                                                                     n);
}
