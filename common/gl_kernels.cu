/* gl_kernels.cu: the few kernels the kit itself needs (not part of any lab). */
#include "gl_check.h"
#include "gl_timing.h"
#include "gl_delay.h"
#include "gl_device_data.h"

#include <cuda_runtime.h>
#if defined(__has_include)
#if __has_include(<cub/cub.cuh>) /* CUDA 11's Debian toolkit has it apart (libcub-dev) */
#include <cub/cub.cuh>
#define GL_HAVE_CUB 1
#endif
#endif
#include <float.h>

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

/* As gl_fill_int_kernel, except that each chunk of `chunk` elements is, with
 * probability hot, all `hot_value` (skewed data: one value in long runs). */
__global__ void gl_fill_int_skewed_kernel(int *p, size_t n, int lo, int hi, int hot_value,
                                          double hot, size_t chunk, unsigned long long seed)
{
    unsigned long long span = (unsigned long long)((long long)hi - lo) + 1;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long c = gl_mix(~seed + (i / chunk) * 0xd1b54a32d192ed03ull);
        unsigned long long r = gl_mix(seed + i * 0x9e3779b97f4a7c15ull);
        int v = (double)(c >> 11) * 0x1p-53 < hot ? hot_value
                                                  : (int)((long long)lo + (long long)(r % span));
        p[i] = v == -1 ? 0 : v;
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

__global__ void gl_diff_double_kernel(const double *ref, const double *got, size_t n, double atol,
                                      double rtol, unsigned long long *count,
                                      unsigned long long *first)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        double r = ref[i], g = got[i];
        if (!(g == r || fabs(g - r) <= atol + rtol * fabs(r))) { /* equal infinities: right */
            atomicAdd(count, 1ull);
            atomicMin(first, (unsigned long long)i);
        }
    }
}

__global__ void gl_diff_float_kernel(const float *ref, const float *got, size_t n, float atol,
                                     float rtol, unsigned long long *count,
                                     unsigned long long *first)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float r = ref[i], g = got[i];
        if (!(g == r || fabsf(g - r) <= atol + rtol * fabsf(r))) { /* NaN is always wrong */
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

extern "C" void gl_device_fill_int_skewed(int *p, size_t n, int lo, int hi, int hot_value,
                                          double hot, size_t chunk, unsigned long long seed)
{
    gl_fill_int_skewed_kernel<<<gl_fill_blocks(), 256>>>(p, n, lo, hi, hot_value, hot,
                                                         chunk ? chunk : 1, seed);
    GL_CUDA(cudaGetLastError());
}

extern "C" void gl_device_fill_bytes(void *p, size_t n, unsigned long long seed)
{
    gl_fill_bytes_kernel<<<gl_fill_blocks(), 256>>>((unsigned char *)p, n, seed);
    GL_CUDA(cudaGetLastError());
}

/* The kit's own counters on the GPU (the judge's memory, allocated once): a
 * count and the lowest index, or a digest. */
static unsigned long long *gl_scratch(void)
{
    static unsigned long long *d;
    if (!d)
        GL_CUDA(cudaMalloc((void **)&d, 4 * sizeof *d));
    return d;
}

static size_t gl_diff_finish(unsigned long long *d, size_t *first)
{
    unsigned long long h[2];
    GL_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    if (first)
        *first = (size_t)h[1];
    return (size_t)h[0];
}

static unsigned long long *gl_diff_start(void)
{
    unsigned long long *d = gl_scratch(), h[2] = {0, ~0ull};
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

extern "C" size_t gl_device_diff_double(const double *ref, const double *got, size_t n,
                                        double atol, double rtol, size_t *first)
{
    unsigned long long *d = gl_diff_start();
    gl_diff_double_kernel<<<gl_fill_blocks(), 256>>>(ref, got, n, atol, rtol, d, d + 1);
    GL_CUDA(cudaGetLastError());
    return gl_diff_finish(d, first);
}

/* Elements `where` of C = A B (m x n, inner k; row-major floats): the reference
 * summed in double, its FP32 error bound (gl_matmul.h) and the element got. */
__global__ void gl_matmul_sample_kernel(const float *a, const float *b, const float *got, int n,
                                        int k, const size_t *where, size_t count, float *ref,
                                        float *bound, float *picked)
{
    const double u = 1.0 / 16777216.0, g = (k + 1) * u / (1.0 - (k + 1) * u);
    for (size_t s = blockIdx.x * (size_t)blockDim.x + threadIdx.x; s < count;
         s += (size_t)gridDim.x * blockDim.x) {
        size_t row = where[s] / (size_t)n, col = where[s] % (size_t)n;
        double sum = 0.0, abs_sum = 0.0;
        for (int i = 0; i < k; i++) {
            double p = (double)a[row * k + i] * b[(size_t)i * n + col];
            sum += p;
            abs_sum += fabs(p);
        }
        ref[s] = (float)sum;
        bound[s] = (float)(g * abs_sum * (1.0 + 4.0 * u)) + FLT_MIN;
        picked[s] = got[where[s]];
    }
}

extern "C" void gl_device_matmul_sample(const float *a, const float *b, const float *got, int n,
                                        int k, const size_t *where, size_t count, float *ref,
                                        float *bound, float *picked)
{
    size_t *d_where;
    float *d_out;
    if (!count)
        return;
    GL_CUDA(cudaMalloc((void **)&d_where, count * sizeof *d_where));
    GL_CUDA(cudaMalloc((void **)&d_out, 3 * count * sizeof *d_out));
    GL_CUDA(cudaMemcpy(d_where, where, count * sizeof *d_where, cudaMemcpyHostToDevice));
    gl_matmul_sample_kernel<<<(unsigned)((count + 127) / 128), 128>>>(
        a, b, got, n, k, d_where, count, d_out, d_out + count, d_out + 2 * count);
    GL_CUDA(cudaGetLastError());
    GL_CUDA(cudaMemcpy(ref, d_out, count * sizeof *ref, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(bound, d_out + count, count * sizeof *bound, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(picked, d_out + 2 * count, count * sizeof *picked, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaFree(d_where));
    GL_CUDA(cudaFree(d_out));
}

/* dst[i * dst_stride] = src[i * src_stride], 32-bit words: the kit moves a field
 * between an array and records (lab 02's reference kick runs on records). */
__global__ void gl_copy_words_strided_kernel(unsigned *dst, size_t dst_stride, const unsigned *src,
                                             size_t src_stride, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i * dst_stride] = src[i * src_stride];
}

extern "C" void gl_device_copy_words_strided(void *dst, size_t dst_stride, const void *src,
                                             size_t src_stride, size_t n)
{
    if (!n)
        return;
    gl_copy_words_strided_kernel<<<gl_fill_blocks(), 256>>>(
        (unsigned *)dst, dst_stride, (const unsigned *)src, src_stride, n);
    GL_CUDA(cudaGetLastError());
}

extern "C" void *gl_device_grown(void *p, size_t *have, size_t bytes)
{
    if (bytes <= *have)
        return p;
    if (p)
        GL_CUDA(cudaFree(p));
    GL_CUDA(cudaMalloc(&p, bytes));
    *have = bytes;
    return p;
}

/* A histogram by CUB (the kit's check of a timed histogram: fast whatever the data's
 * skew, and nothing like the labs' kernels): bins[v] = how many of the n samples are v,
 * bytes (nbins 256) or ints in [0, nbins). */
extern "C" int gl_device_histogram(const void *in, size_t n, int bytes, int nbins,
                                   unsigned *bins)
{
#ifdef GL_HAVE_CUB
    static void *temp;
    static size_t temp_bytes;
    size_t need = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            temp = gl_device_grown(temp, &temp_bytes, need);
        if (bytes)
            GL_CUDA(cub::DeviceHistogram::HistogramEven(pass ? temp : NULL, need,
                                                        (const unsigned char *)in, bins,
                                                        nbins + 1, 0, nbins, (int)n));
        else
            GL_CUDA(cub::DeviceHistogram::HistogramEven(pass ? temp : NULL, need,
                                                        (const int *)in, bins, nbins + 1, 0,
                                                        nbins, (int)n));
    }
    return 0;
#else
    (void)in, (void)n, (void)bytes, (void)nbins, (void)bins;
    return -1;
#endif
}

/* A scan by CUB (the kit's check of an appending kernel: where each element's outputs go,
 * without atomics). */
extern "C" long long gl_device_exclusive_scan(int *a, int n)
{
#ifdef GL_HAVE_CUB
    static void *temp;
    static size_t temp_bytes;
    size_t need = 0;
    int last[2]; /* a[n - 1], before the scan and after it */
    if (n <= 0)
        return 0;
    GL_CUDA(cudaMemcpy(&last[0], a + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    GL_CUDA(cub::DeviceScan::ExclusiveSum(NULL, need, a, a, n));
    temp = gl_device_grown(temp, &temp_bytes, need);
    GL_CUDA(cub::DeviceScan::ExclusiveSum(temp, need, a, a, n)); /* in place */
    GL_CUDA(cudaMemcpy(&last[1], a + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    return (long long)last[0] + last[1];
#else
    (void)a, (void)n;
    return -1;
#endif
}

/* A keyed mix (splitmix64's finaliser). */
static __device__ __forceinline__ unsigned long long gl_mix64(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The sum of a keyed mix of each 8-byte word of p with its index (the last, partial word
 * padded with zeros): an order-aware fingerprint that no change keeps without the key. */
__global__ void gl_hash_kernel(const unsigned char *p, size_t bytes, unsigned long long key,
                               unsigned long long *sum)
{
    size_t words = (bytes + 7) / 8;
    int aligned = ((size_t)p % 8) == 0;
    unsigned long long s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long w = 0;
        if (aligned && 8 * i + 8 <= bytes) {
            w = ((const unsigned long long *)p)[i];
        } else {
            for (size_t b = 8 * i; b < bytes && b < 8 * i + 8; b++)
                w |= (unsigned long long)p[b] << (8 * (b - 8 * i));
        }
        s += gl_mix64(w ^ gl_mix64(key + i));
    }
    atomicAdd(sum, s);
}

extern "C" unsigned long long gl_device_hash(const void *p, size_t bytes, unsigned long long key)
{
    unsigned long long *d = gl_scratch(), h = 0;
    GL_CUDA(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    if (bytes)
        gl_hash_kernel<<<gl_fill_blocks(), 256>>>((const unsigned char *)p, bytes, key, d);
    GL_CUDA(cudaGetLastError());
    GL_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    return h ^ bytes;
}

/* How many bytes of p are not `value` (an output's bytes written, against its poison). */
__global__ void gl_count_not_kernel(const unsigned char *p, size_t bytes, unsigned char value,
                                    unsigned long long *count)
{
    unsigned long long c = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes;
         i += (size_t)gridDim.x * blockDim.x)
        c += p[i] != value;
    atomicAdd(count, c);
}

extern "C" size_t gl_device_count_not(const void *p, size_t bytes, unsigned char value)
{
    unsigned long long *d = gl_scratch(), h = 0;
    GL_CUDA(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    if (bytes)
        gl_count_not_kernel<<<gl_fill_blocks(), 256>>>((const unsigned char *)p, bytes, value, d);
    GL_CUDA(cudaGetLastError());
    GL_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    return (size_t)h;
}
