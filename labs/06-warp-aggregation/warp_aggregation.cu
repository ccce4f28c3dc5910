/* warp_aggregation.cu: lab 06-warp-aggregation. Your file: the only one graded.
 *
 * When every thread appends to one output through one counter, every
 * atomicAdd goes to the same address, and the atomics on one address run one
 * after another. Warp aggregation: the lanes of a warp agree on how many
 * slots they need, one lane makes ONE atomicAdd for all of them, broadcasts
 * the first slot with a shuffle, and each lane adds its own offset.
 * README.md tells the story and the tasks; `make run LAB=06` shows where you
 * are, `make check LAB=06` grades it. */
#include "warp_aggregation.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define FULL_MASK 0xffffffffu /* all 32 lanes of the warp */

/* Task 1 (README.md): the slot of the calling thread, one atomicAdd for all
 * the threads of its warp that call it together. */
__device__ int atomic_inc_coalesced(int *ctr)
{
    /* TODO(1): the threads that call this together, as a group:
     *     cg::coalesced_group active = cg::coalesced_threads();
     * Its leader (active.thread_rank() == 0) claims active.size() slots with
     * one atomicAdd(ctr, ...); active.shfl(value, 0) hands the leader's
     * first slot to every thread of the group, and each returns that plus
     * its own active.thread_rank(). (Until then: slot 0 for everyone.) */
    return 0;
}

__global__ void filter_coalesced_kernel(int *out, int *count, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0)
        out[atomic_inc_coalesced(count)] = in[i];
}

/* Task 1: the same with the warp intrinsics. */
__global__ void filter_intrinsics_kernel(int *out, int *count, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0) {
        /* TODO(1): what coalesced_threads() does, by hand. With
         *     unsigned active = __activemask();   (the lanes here)
         *     int lane = threadIdx.x % 32;
         * the leader is the lowest active lane, __ffs(active) - 1 (__ffs
         * counts from 1); this lane's rank is the number of active lanes
         * below it, __popc(active & ((1u << lane) - 1)). The leader claims
         * __popc(active) slots with one atomicAdd(count, ...);
         * __shfl_sync(active, first, leader) broadcasts its first slot; this
         * lane writes in[i] to out[first + rank]. */
    }
}

/* Task 2: one atomicAdd per warp, each lane with its own number of items. */
__global__ void emit_warp_kernel(int *out, int *count, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    /* every lane takes part in the shuffles, those past n with no items */
    int x = i < n ? in[i] : 0;
    int k = i < n ? items_of(x) : 0;

    /* TODO(2): this lane's first slot, with one atomicAdd for the warp.
     * With int lane = threadIdx.x % 32:
     * 1. sum = the inclusive scan of k across the warp (k of lanes 0 ..
     *    lane): start with sum = k; for d = 1, 2, 4, 8, 16, add
     *    __shfl_up_sync(FULL_MASK, sum, d) when lane >= d. Every lane calls
     *    the shuffle, also when it does not add (and those past n: so no
     *    return before it).
     * 2. Lane 31 then holds the warp's total: it alone makes
     *    atomicAdd(count, sum); __shfl_sync(FULL_MASK, ..., 31) broadcasts
     *    the warp's first slot.
     * 3. This lane's items start after those of the lanes below it: at the
     *    warp's first slot + sum - k (the exclusive prefix). */
    int first = 0;
    for (int j = 0; j < k; j++)
        out[first + j] = item_value(x, j);
}

/* Task 3: one atomicAdd per block. */
__global__ void emit_block_kernel(int *out, int *count, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0;
    int k = i < n ? items_of(x) : 0;

    /* TODO(3): this thread's first slot, with one atomicAdd for the block.
     * In shared memory, each warp's total and the block's first slot:
     *     __shared__ int warp_first[WA_WARPS];
     *     __shared__ int block_first;
     * 1. The warp's inclusive scan of k, as in task 2; lane 31 stores the
     *    warp's total in warp_first[warp] (warp = threadIdx.x / 32).
     * 2. __syncthreads(): all the totals are written.
     * 3. Thread 0 replaces each total by the sum of the totals before it
     *    (the warp's first slot in the block), and claims the block's total
     *    with one atomicAdd(count, total) into block_first.
     * 4. __syncthreads(): then this thread's items start at
     *    block_first + warp_first[warp] + sum - k. */
    int first = 0;
    for (int j = 0; j < k; j++)
        out[first + j] = item_value(x, j);
}

/* The kernels count on from *count: it is set to 0 on the stream, before them. */
void filter_coalesced(int *out, int *count, const int *in, int n)
{
    cudaMemsetAsync(count, 0, sizeof(int));
    if (n > 0)
        filter_coalesced_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, count, in, n);
}

void filter_intrinsics(int *out, int *count, const int *in, int n)
{
    cudaMemsetAsync(count, 0, sizeof(int));
    if (n > 0)
        filter_intrinsics_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, count, in, n);
}

void emit_warp(int *out, int *count, const int *in, int n)
{
    cudaMemsetAsync(count, 0, sizeof(int));
    if (n > 0)
        emit_warp_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, count, in, n);
}

void emit_block(int *out, int *count, const int *in, int n)
{
    cudaMemsetAsync(count, 0, sizeof(int));
    if (n > 0)
        emit_block_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, count, in, n);
}
