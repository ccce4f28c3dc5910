/* occupancy.cu: lab 13-occupancy. Your file: the only one graded.
 *
 * The walk and the mixed walk are occupancy.h's; the given launchers this starts from
 * are in baselines.cu. README.md tells the story and the tasks; `make run LAB=13`
 * shows where you are, `make check LAB=13` grades it. */
#include "occupancy.h"

/* Task 1's kernel: the given walk, with a grid-stride loop (any grid covers any n).
 * Nothing to change here. */
__global__ void walk_grid_stride_kernel(int *out, const int *table, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int c = i;
        for (int s = 0; s < WALK_HOPS; s++)
            c = (i + table[s * n + c]) % n;
        out[i] = c;
    }
}

/* TODO(1): size the launch with the occupancy API (README.md, task 1).
 *  1. cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, walk_grid_stride_kernel,
 *     0, 0): the block size with which an SM holds the most warps of this kernel.
 *  2. cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm,
 *     walk_grid_stride_kernel, block_size, 0): how many of those blocks an SM holds.
 *  3. The SM count: cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
 *     device from cudaGetDevice.
 *  4. Launch walk_grid_stride_kernel on blocks_per_sm * sms blocks of block_size threads
 *     (nothing when n is 0). The answers do not change between calls: you may work them
 *     out once, in static variables. */
void walk_occupancy_api(int *out, const int *table, int n)
{
    /* TODO(1) */
}

/* TODO(2): cap the registers with __launch_bounds__ (README.md, task 2).
 * This is the given mixed walk, and it gets more than 64 registers a thread: an SM
 * holds one block of MIX_THREADS. Put __launch_bounds__(MIX_THREADS, MIX_MIN_BLOCKS)
 * between __global__ and the kernel's name, so that ptxas fits it in 64 registers
 * and two blocks fit on an SM. Nothing else changes; ask for more blocks than that
 * and ptxas spills the state to local memory. */
__global__ void mix_walk_bounded_kernel(int *out, const int *table, int n)
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
