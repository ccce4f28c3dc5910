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
    cg::coalesced_group active = cg::coalesced_threads();
    int first = 0;
    /* the leader claims one slot for every active thread at once */
    if (active.thread_rank() == 0)
        first = atomicAdd(ctr, (int)active.size());
    /* and hands the first slot to all: the threads take consecutive ones */
    return active.shfl(first, 0) + (int)active.thread_rank();
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
        unsigned active = __activemask(); /* the lanes here: those that keep their element */
        int lane = threadIdx.x % 32;
        int leader = __ffs(active) - 1;   /* the lowest active lane */
        /* this lane's slot among the warp's: the active lanes below it */
        int rank = __popc(active & ((1u << lane) - 1));
        int first = 0;
        if (lane == leader)
            first = atomicAdd(count, __popc(active));
        first = __shfl_sync(active, first, leader);
        out[first + rank] = in[i];
    }
}

/* Task 2: one atomicAdd per warp, each lane with its own number of items. */
__global__ void emit_warp_kernel(int *out, int *count, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    /* every lane takes part in the shuffles, those past n with no items */
    int x = i < n ? in[i] : 0;
    int k = i < n ? items_of(x) : 0;

    /* inclusive scan of k across the warp: after the step of distance d,
     * sum covers lanes lane - 2d + 1 .. lane */
    int sum = k;
    for (int d = 1; d < 32; d *= 2) {
        int below = __shfl_up_sync(FULL_MASK, sum, d);
        if (lane >= d)
            sum += below;
    }
    /* lane 31 holds the warp's total: one atomic for the whole warp */
    int first = 0;
    if (lane == 31)
        first = atomicAdd(count, sum);
    first = __shfl_sync(FULL_MASK, first, 31);
    /* this lane's items start after those of the lanes below it */
    first += sum - k;
    for (int j = 0; j < k; j++)
        out[first + j] = item_value(x, j);
}

/* Task 3: one atomicAdd per block. */
__global__ void emit_block_kernel(int *out, int *count, const int *in, int n)
{
    __shared__ int warp_first[WA_WARPS]; /* each warp's total, then its first slot in the block */
    __shared__ int block_first;          /* the block's first slot in out */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int x = i < n ? in[i] : 0;
    int k = i < n ? items_of(x) : 0;

    /* the warp's inclusive scan, as in task 2 */
    int sum = k;
    for (int d = 1; d < 32; d *= 2) {
        int below = __shfl_up_sync(FULL_MASK, sum, d);
        if (lane >= d)
            sum += below;
    }
    if (lane == 31)
        warp_first[warp] = sum;
    __syncthreads(); /* every warp's total is written */
    /* one thread turns the totals into each warp's first slot in the block
     * (an exclusive scan of 8 values) and claims the block's slots at once */
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < WA_WARPS; w++) {
            int t = warp_first[w];
            warp_first[w] = total;
            total += t;
        }
        block_first = atomicAdd(count, total);
    }
    __syncthreads(); /* the block's slot and the warps' offsets are ready */
    int first = block_first + warp_first[warp] + sum - k;
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
