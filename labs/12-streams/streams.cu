/* streams.cu: lab 12-streams, the file you edit and hand in.
 *
 * The given process_serial (baselines.cu) copies in, computes and copies out one
 * after the other on the legacy default stream. Your launchers do the same work
 * on streams of their own, so that copies and kernels overlap. Only this file is
 * graded: `make check LAB=12` grades it. */
#include "streams.h"

/* One thread per element of a chunk: y[i] = process_element(x[i]), in place. */
__global__ void process_kernel(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = process_element(x[i]);
}

/* TODO(1): the three steps on a stream of your own (README.md, task 1).
 *  1. Create a stream (cudaStreamCreate).
 *  2. On it: cudaMemcpyAsync in_host -> dev, process_kernel over dev, cudaMemcpyAsync
 *     dev -> out_host. Launch the kernel with the stream as its fourth <<< >>> argument.
 *  3. Destroy the stream (cudaStreamDestroy returns at once: its work still finishes).
 *  Return at once: no cudaDeviceSynchronize, no cudaMemcpy (it waits). */
void process_async(float *out_host, const float *in_host, float *dev, int n)
{
    /* TODO(1) */
}

/* TODO(2): the pipeline (README.md, task 2).
 *  1. Create NSTREAMS streams.
 *  2. Cut the n elements into NCHUNKS chunks of (n + NCHUNKS - 1) / NCHUNKS; the last
 *     one takes what is left (it may be shorter, or empty when n is small).
 *  3. For chunk c, on stream c % NSTREAMS: copy its part of in_host to dev, run
 *     process_kernel over it, copy it back to out_host (pointers plus the chunk's
 *     first element: dev + first, in_host + first, out_host + first).
 *  4. Destroy the streams. */
void process_pipelined(float *out_host, const float *in_host, float *dev, int n)
{
    /* TODO(2) */
}
