/* baselines.cu: lab 12-streams' given kernel and launcher, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy. */
#include "streams.h"

/* One thread per element: out[i] = process_element(in[i]). */
__global__ void process_serial_kernel(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = process_element(in[i]);
}

/* Copy in, compute in place, copy out, all on the legacy default stream (0): each step
 * waits for the one before, and the copy engines idle while the kernel runs. */
void process_serial(float *out_host, const float *in_host, float *dev, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    if (n <= 0)
        return;
    cudaMemcpyAsync(dev, in_host, bytes, cudaMemcpyHostToDevice, 0);
    process_serial_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(dev, dev, n);
    cudaMemcpyAsync(out_host, dev, bytes, cudaMemcpyDeviceToHost, 0);
}
