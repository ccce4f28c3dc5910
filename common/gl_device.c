/* gl_device.c: device attributes and the measured copy bandwidth. */
#include "gl_device.h"

#include "gl_check.h"
#include "gl_timing.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
        return 0;
    return v;
}

int gl_device_query(gl_device_info *info, char *why, size_t whylen)
{
    struct cudaDeviceProp prop;
    int count = 0, dev = 0;
    cudaError_t err;

    memset(info, 0, sizeof *info);
    err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        if (why && err != cudaSuccess)
            snprintf(why, whylen, "no usable GPU: %s (%s)", gl_cuda_likely_cause(err),
                     cudaGetErrorName(err));
        else if (why)
            snprintf(why, whylen, "no usable GPU: the driver sees none");
        cudaGetLastError(); /* clear the sticky-free error state */
        return -1;
    }
    if ((err = cudaGetDevice(&dev)) != cudaSuccess ||
        (err = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess) {
        if (why)
            snprintf(why, whylen, "the CUDA device cannot be used: %s", cudaGetErrorString(err));
        return -1;
    }
    info->device = dev;
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->cc_major = attr(cudaDevAttrComputeCapabilityMajor, dev);
    info->cc_minor = attr(cudaDevAttrComputeCapabilityMinor, dev);
    info->sms = attr(cudaDevAttrMultiProcessorCount, dev);
    info->global_mem_bytes = prop.totalGlobalMem;
    info->l2_bytes = attr(cudaDevAttrL2CacheSize, dev);
    info->mem_clock_khz = attr(cudaDevAttrMemoryClockRate, dev);
    info->bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth, dev);
    info->theoretical_gbps = 2.0 * info->mem_clock_khz * 1e3 * (info->bus_width_bits / 8.0) / 1e9;
    info->shared_per_block = attr(cudaDevAttrMaxSharedMemoryPerBlock, dev);
    info->shared_per_sm = attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    cudaRuntimeGetVersion(&info->runtime_version);
    cudaDriverGetVersion(&info->driver_version);
    return 0;
}

void gl_device_require(gl_device_info *info)
{
    char why[512];
    if (gl_device_query(info, why, sizeof why) != 0)
        gl_fail("%s", why);
}

typedef struct {
    void *dst;
    const void *src;
    size_t bytes;
    enum cudaMemcpyKind kind;
} memcpy_job;

static void run_memcpy(void *arg)
{
    memcpy_job *job = arg;
    GL_CUDA(cudaMemcpyAsync(job->dst, job->src, job->bytes, job->kind, 0));
}

double gl_memcpy_gbps(size_t bytes)
{
    gl_device_info info;
    memcpy_job job;
    double ms;

    if (bytes == 0) {
        gl_device_require(&info);
        /* 256 MiB each way, far beyond any L2, unless the GPU is small */
        bytes = (size_t)256 << 20;
        if (bytes * 4 > info.global_mem_bytes)
            bytes = info.global_mem_bytes / 8;
    }
    GL_CUDA(cudaMalloc(&job.dst, bytes));
    GL_CUDA(cudaMalloc((void **)&job.src, bytes));
    GL_CUDA(cudaMemset(job.dst, 0x3c, bytes));
    GL_CUDA(cudaMemset((void *)job.src, 0x5a, bytes));
    job.bytes = bytes;
    job.kind = cudaMemcpyDeviceToDevice;
    ms = gl_time_ms(run_memcpy, &job, gl_timing_default());
    GL_CUDA(cudaFree(job.dst));
    GL_CUDA(cudaFree((void *)job.src));
    return gl_gbps(2.0 * (double)bytes, ms);
}

/* One way of the host link: GB/s of a copy of job's bytes (median of 5 after one warm-up;
 * nothing of it in the L2 to flush) */
static double link_gbps(memcpy_job job)
{
    gl_timing_opts once = {.warmup = 1, .reps = 5, .flush_l2 = 0};
    return gl_gbps((double)job.bytes, gl_time_ms(run_memcpy, &job, once));
}

void gl_host_link_gbps(size_t bytes, double gbps[4])
{
    char *pageable = malloc(bytes);
    void *pinned, *dev;
    size_t i;
    if (!pageable)
        gl_fail("out of host memory for %zu bytes", bytes);
    for (i = 0; i < bytes; i += 4096) /* its pages exist before they are timed */
        pageable[i] = 1;
    GL_CUDA(cudaMallocHost(&pinned, bytes));
    GL_CUDA(cudaMalloc(&dev, bytes));
    gbps[0] = link_gbps((memcpy_job){dev, pageable, bytes, cudaMemcpyHostToDevice});
    gbps[1] = link_gbps((memcpy_job){pageable, dev, bytes, cudaMemcpyDeviceToHost});
    gbps[2] = link_gbps((memcpy_job){dev, pinned, bytes, cudaMemcpyHostToDevice});
    gbps[3] = link_gbps((memcpy_job){pinned, dev, bytes, cudaMemcpyDeviceToHost});
    free(pageable);
    GL_CUDA(cudaFreeHost(pinned));
    GL_CUDA(cudaFree(dev));
}
