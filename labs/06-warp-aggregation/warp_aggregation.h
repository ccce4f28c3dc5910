/* warp_aggregation.h: the interface of lab 06-warp-aggregation. Do not edit
 * this file: the grader and the demo call these functions as declared here.
 *
 * Every launcher takes device pointers, launches on the default stream and
 * returns at once, without synchronising. n is any count >= 0. Each one
 * appends values to out through one counter, *count (one int in device
 * memory): it sets *count to 0 on the stream first (also when n is 0), and
 * when its kernel is done, out[0 .. *count) holds the values in any order
 * (which thread gets which slot is a race; the set of values is not). out
 * has room for n ints (the filters) or WA_MAX_ITEMS * n ints (the emitters);
 * nothing is written from out[*count] on. The work functions below are
 * shared by the kernels and the CPU reference, so results compare exactly. */
#ifndef WARP_AGGREGATION_H
#define WARP_AGGREGATION_H

#define WA_BLOCK 256              /* threads per block, in every kernel of the lab */
#define WA_WARPS (WA_BLOCK / 32)  /* warps per block */
#define WA_MAX_ITEMS 4            /* tasks 2 and 3: an element emits 0 .. WA_MAX_ITEMS items */

#ifdef __CUDACC__
#define WA_FN static inline __host__ __device__
#else
#define WA_FN static inline
#endif

/* Blocks for n elements, one thread per element. */
WA_FN int wa_blocks(int n)
{
    return (n + WA_BLOCK - 1) / WA_BLOCK;
}

/* Tasks 2 and 3: how many items element x emits, 0 .. WA_MAX_ITEMS (about
 * as many of each on random input). */
WA_FN int items_of(int x)
{
    return (int)((unsigned)x % (WA_MAX_ITEMS + 1));
}

/* The value of item j of element x: different items of one element differ.
 * Computed in unsigned, so that it wraps instead of overflowing. */
WA_FN int item_value(int x, int j)
{
    return (int)((unsigned)x * (WA_MAX_ITEMS + 1) + (unsigned)j);
}

#ifdef __cplusplus
extern "C" {
#endif

/* ---- task 1: the filter (stream compaction): every in[i] > 0 is appended to out ---- */

/* Given (baselines.cu): each thread that keeps its element takes a slot
 * with its own atomicAdd(count, 1). */
void filter_atomic(int *out, int *count, const int *in, int n);

/* Task 1 (warp_aggregation.cu): one atomicAdd per warp, with cooperative
 * groups (coalesced_threads). */
void filter_coalesced(int *out, int *count, const int *in, int n);

/* Task 1: one atomicAdd per warp, with the warp intrinsics (__activemask,
 * __popc, __ffs, __shfl_sync). */
void filter_intrinsics(int *out, int *count, const int *in, int n);

/* ---- task 2 and 3: element i appends items_of(in[i]) items,
 * item_value(in[i], 0) .. item_value(in[i], items_of(in[i]) - 1),
 * next to each other ---- */

/* Given: each thread takes its items' slots with its own
 * atomicAdd(count, items): a different increment in every lane. */
void emit_atomic(int *out, int *count, const int *in, int n);

/* Task 2: a scan of the item counts across the warp, one atomicAdd per warp. */
void emit_warp(int *out, int *count, const int *in, int n);

/* Task 3: the warps' totals combined in shared memory, one atomicAdd per block. */
void emit_block(int *out, int *count, const int *in, int n);

#ifdef __cplusplus
}
#endif
#endif
