/* vectorized_loads.h: the interface of lab 07-vectorized-loads. Do not edit
 * this file: the grader and the demo call these functions as declared here.
 *
 * Every launcher takes device pointers, launches on the default stream and
 * returns at once, without synchronising. n is any count >= 0 (0 launches
 * nothing); the pointers may be any int addresses, aligned or not. Each
 * launches a grid of VL_BLOCKS_PER_SM blocks per multiprocessor of VL_BLOCK
 * threads, whose grid-stride loop covers all n elements. */
#ifndef VECTORIZED_LOADS_H
#define VECTORIZED_LOADS_H

#define VL_BLOCK 256        /* threads per block */
#define VL_BLOCKS_PER_SM 1  /* blocks per multiprocessor: a kernel held to few threads (by its
                               registers or shared memory, in real code): too few to hide memory
                               latency one int at a time */

#ifdef __cplusplus
extern "C" {
#endif

/* Given (baselines.cu): out[i] = in[i], one int per load and per store. */
void copy_int(int *out, const int *in, int n);

/* Task 1 (vectorized_loads.cu): the same with int2 loads and stores. */
void copy_int2(int *out, const int *in, int n);

/* Task 2 (vectorized_loads.cu): the same with int4 loads and stores. */
void copy_int4(int *out, const int *in, int n);

/* Given (baselines.cu): out[i] = a[i] + k * b[i], one int at a time. */
void scaled_add_int(int *out, const int *a, const int *b, int k, int n);

/* Task 3 (vectorized_loads.cu): the same with int4 loads and stores. */
void scaled_add_int4(int *out, const int *a, const int *b, int k, int n);

#ifdef __cplusplus
}

#include <stdint.h>

/* Is every pointer a multiple of bytes (the size of a vector access)? */
static inline bool vl_aligned(const void *p, const void *q, const void *r, size_t bytes)
{
    return ((uintptr_t)p | (uintptr_t)q | (uintptr_t)r) % bytes == 0;
}

/* The grid: VL_BLOCKS_PER_SM blocks per multiprocessor of this GPU. */
static inline int vl_grid(void)
{
    static int sms;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0)
            sms = 1;
    }
    return VL_BLOCKS_PER_SM * sms;
}
#endif
#endif
