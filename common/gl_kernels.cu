/* gl_kernels.cu: the few kernels the kit itself needs (not part of any lab). */
#include "gl_check.h"
#include "gl_timing.h"
#include "gl_delay.h"
#include "gl_device_data.h"

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

/* ---- fresh inputs and comparisons on the GPU (the grader's timed runs) ---- */

__device__ static unsigned long long gl_mix(unsigned long long x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

__global__ void gl_fill_float_kernel(float *p, size_t n, float lo, float hi,
                                     unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long r = gl_mix(seed + i * 0x9e3779b97f4a7c15ull);
        p[i] = lo + (hi - lo) * (float)(r >> 40) * (1.0f / 16777216.0f);
    }
}

__global__ void gl_fill_int_kernel(int *p, size_t n, int lo, int hi, unsigned long long seed)
{
    unsigned long long span = (unsigned long long)((long long)hi - lo) + 1;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long r = gl_mix(seed + i * 0x9e3779b97f4a7c15ull);
        int v = (int)((long long)lo + (long long)(r % span));
        p[i] = v == -1 ? 0 : v; /* never the poison */
    }
}

__global__ void gl_fill_bytes_kernel(unsigned char *p, size_t n, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (unsigned char)(gl_mix(seed + i * 0x9e3779b97f4a7c15ull) >> 56);
}

/* Counts the elements that differ; the lowest such index goes to *first. */
__global__ void gl_diff_words_kernel(const unsigned *a, const unsigned *b, size_t n,
                                     unsigned long long *count, unsigned long long *first)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        if (a[i] != b[i]) {
            atomicAdd(count, 1ull);
            atomicMin(first, (unsigned long long)i);
        }
}

__global__ void gl_diff_float_kernel(const float *ref, const float *got, size_t n, float atol,
                                     float rtol, unsigned long long *count,
                                     unsigned long long *first)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float r = ref[i], g = got[i];
        if (!(fabsf(g - r) <= atol + rtol * fabsf(r))) { /* NaN is always wrong */
            atomicAdd(count, 1ull);
            atomicMin(first, (unsigned long long)i);
        }
    }
}

static int gl_fill_blocks(void)
{
    static int blocks;
    if (!blocks) {
        int dev = 0, sms = 0;
        GL_CUDA(cudaGetDevice(&dev));
        GL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        blocks = 8 * (sms > 0 ? sms : 16);
    }
    return blocks;
}

extern "C" void gl_device_fill_float(float *p, size_t n, float lo, float hi,
                                     unsigned long long seed)
{
    gl_fill_float_kernel<<<gl_fill_blocks(), 256>>>(p, n, lo, hi, seed);
    GL_CUDA(cudaGetLastError());
}

extern "C" void gl_device_fill_int(int *p, size_t n, int lo, int hi, unsigned long long seed)
{
    gl_fill_int_kernel<<<gl_fill_blocks(), 256>>>(p, n, lo, hi, seed);
    GL_CUDA(cudaGetLastError());
}

extern "C" void gl_device_fill_bytes(void *p, size_t n, unsigned long long seed)
{
    gl_fill_bytes_kernel<<<gl_fill_blocks(), 256>>>((unsigned char *)p, n, seed);
    GL_CUDA(cudaGetLastError());
}

static size_t gl_diff_finish(unsigned long long *d, size_t *first)
{
    unsigned long long h[2];
    GL_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaFree(d));
    if (first)
        *first = (size_t)h[1];
    return (size_t)h[0];
}

static unsigned long long *gl_diff_start(void)
{
    unsigned long long *d, h[2] = {0, ~0ull};
    GL_CUDA(cudaMalloc((void **)&d, sizeof h));
    GL_CUDA(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    return d;
}

extern "C" size_t gl_device_diff_words(const void *a, const void *b, size_t words, size_t *first)
{
    unsigned long long *d = gl_diff_start();
    gl_diff_words_kernel<<<gl_fill_blocks(), 256>>>((const unsigned *)a, (const unsigned *)b,
                                                    words, d, d + 1);
    GL_CUDA(cudaGetLastError());
    return gl_diff_finish(d, first);
}

extern "C" size_t gl_device_diff_float(const float *ref, const float *got, size_t n, float atol,
                                       float rtol, size_t *first)
{
    unsigned long long *d = gl_diff_start();
    gl_diff_float_kernel<<<gl_fill_blocks(), 256>>>(ref, got, n, atol, rtol, d, d + 1);
    GL_CUDA(cudaGetLastError());
    return gl_diff_finish(d, first);
}

/* The wrapping (mod 2^32) sum of n 32-bit words: a timed integer reduction's
 * expected answer, computed by the kit. */
__global__ void gl_sum_words_kernel(const unsigned *p, size_t n, unsigned *sum)
{
    unsigned s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        s += p[i];
    atomicAdd(sum, s);
}

extern "C" unsigned gl_device_sum_words(const void *p, size_t n)
{
    unsigned *d, h = 0;
    GL_CUDA(cudaMalloc((void **)&d, sizeof *d));
    GL_CUDA(cudaMemset(d, 0, sizeof *d));
    gl_sum_words_kernel<<<gl_fill_blocks(), 256>>>((const unsigned *)p, n, d);
    GL_CUDA(cudaGetLastError());
    GL_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaFree(d));
    return h;
}
