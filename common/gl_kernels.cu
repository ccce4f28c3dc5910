/* gl_kernels.cu: the few kernels the kit itself needs (not part of any lab). */
#include "gl_check.h"
#include "gl_timing.h"
#include "gl_delay.h"

#include <cuda_runtime.h>

/* Reads every word of buf; writes only if the sum is impossible, so the
 * compiler cannot drop the reads and nothing is written in practice. */
__global__ void gl_flush_kernel(const int4 *buf, size_t n, int *sink)
{
    int acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        int4 v = buf[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x7eadbeef)
        *sink = acc;
}

static int4 *flush_buf;
static size_t flush_n;
static int *flush_sink;
static int flush_blocks;

extern "C" void gl_flush_l2(void)
{
    if (!flush_buf) {
        int dev = 0, l2 = 0, sms = 0;
        size_t bytes;
        GL_CUDA(cudaGetDevice(&dev));
        GL_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
        GL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        bytes = 2 * (size_t)(l2 > 0 ? l2 : (8 << 20));
        flush_n = bytes / sizeof(int4);
        GL_CUDA(cudaMalloc((void **)&flush_buf, bytes));
        GL_CUDA(cudaMemset(flush_buf, 0x11, bytes));
        GL_CUDA(cudaMalloc((void **)&flush_sink, sizeof(int)));
        flush_blocks = 4 * (sms > 0 ? sms : 16);
    }
    gl_flush_kernel<<<flush_blocks, 256>>>(flush_buf, flush_n, flush_sink);
    GL_CUDA(cudaGetLastError());
}

/* Waits on the GPU for ms milliseconds (by the global nanosecond timer),
 * then copies src to dst. Work enqueued after it on the same stream must
 * wait for it; a launcher that synchronises or copies to the host waits too. */
__global__ void gl_delayed_copy_kernel(unsigned char *dst, const unsigned char *src,
                                       size_t bytes, unsigned long long ns)
{
    if (threadIdx.x == 0) {
        unsigned long long t0, t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        do {
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        } while (t - t0 < ns);
    }
    __syncthreads();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes;
             i += (size_t)gridDim.x * blockDim.x)
            dst[i] = src[i];
}

extern "C" void gl_delayed_copy(void *dst, const void *src, size_t bytes, double ms)
{
    gl_delayed_copy_kernel<<<64, 256>>>((unsigned char *)dst, (const unsigned char *)src, bytes,
                                        (unsigned long long)(ms * 1e6));
    GL_CUDA(cudaGetLastError());
}
