/* streams.cu: lab 12-streams (reference solution).
 *
 * The given process_serial (labs/12-streams/baselines.cu) copies in, computes and
 * copies out one after the other. Here the same steps go on streams of the
 * launcher's own, from and to pinned host memory, so that they can overlap. */
#include "streams.h"

/* One thread per element of a chunk: y[i] = process_element(x[i]), in place. */
__global__ void process_kernel(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = process_element(x[i]);
}

/* Task 1: the three steps on a stream of our own. cudaStreamCreate makes a
 * blocking stream: its work still waits for the caller's earlier work on the
 * legacy default stream, and the caller's later work there waits for it.
 * cudaStreamDestroy returns at once; the stream's work finishes first. */
void process_async(float *out_host, const float *in_host, float *dev, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    cudaStream_t stream;
    if (n <= 0)
        return;
    cudaStreamCreate(&stream);
    cudaMemcpyAsync(dev, in_host, bytes, cudaMemcpyHostToDevice, stream);
    process_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(dev, dev, n);
    cudaMemcpyAsync(out_host, dev, bytes, cudaMemcpyDeviceToHost, stream);
    cudaStreamDestroy(stream);
}

/* Task 2: chunk c (elements [first, first + count)) is copied in, processed and
 * copied out on stream c % NSTREAMS, in that order (a stream runs its work in
 * order). Chunks on different streams overlap: while chunk c's kernel runs, chunk
 * c + 1 is copied in and chunk c - 1 copied out, each direction on its own copy
 * engine. The last chunk takes what the division leaves over. */
void process_pipelined(float *out_host, const float *in_host, float *dev, int n)
{
    cudaStream_t stream[NSTREAMS];
    int chunk = (n + NCHUNKS - 1) / NCHUNKS;
    if (n <= 0)
        return;
    for (int s = 0; s < NSTREAMS; s++)
        cudaStreamCreate(&stream[s]);
    for (int c = 0; c < NCHUNKS; c++) {
        int first = c * chunk;
        int count = n - first < chunk ? n - first : chunk;
        size_t bytes = (size_t)count * sizeof(float);
        cudaStream_t s = stream[c % NSTREAMS];
        if (count <= 0)
            break;
        cudaMemcpyAsync(dev + first, in_host + first, bytes, cudaMemcpyHostToDevice, s);
        process_kernel<<<(count + BLOCK - 1) / BLOCK, BLOCK, 0, s>>>(dev + first, dev + first,
                                                                     count);
        cudaMemcpyAsync(out_host + first, dev + first, bytes, cudaMemcpyDeviceToHost, s);
    }
    for (int s = 0; s < NSTREAMS; s++)
        cudaStreamDestroy(stream[s]);
}
