/* gl_device.h: what the GPU is, and how fast it copies.
 * Attributes come from cudaDeviceGetAttribute (CUDA 13 removed clockRate and
 * memoryClockRate from cudaDeviceProp). */
#ifndef GL_DEVICE_H
#define GL_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int device;
    char name[256];
    int cc_major, cc_minor;
    int sms;
    size_t global_mem_bytes;
    int l2_bytes;
    int mem_clock_khz;       /* peak memory clock */
    int bus_width_bits;
    double theoretical_gbps; /* 2 (double data rate) x clock x bus width */
    int shared_per_block;    /* default limit, bytes */
    int shared_per_sm;
    int runtime_version, driver_version;
} gl_device_info;

/* Fills info for the current device. Returns 0, or -1 with a reason in why
 * when there is no usable GPU (no driver, no device, a driver too old). */
int gl_device_query(gl_device_info *info, char *why, size_t whylen);

/* Like gl_device_query, but a missing GPU is a failure (the fail handler). */
void gl_device_require(gl_device_info *info);

/* Measured cudaMemcpy device-to-device bandwidth in GB/s, counting bytes read
 * plus bytes written; median of several copies of `bytes` bytes (0 chooses a
 * size well beyond the L2). The kit's "copy bandwidth". */
double gl_memcpy_gbps(size_t bytes);

/* Measured cudaMemcpy bandwidth of the host link in GB/s (bytes moved one way), median of
 * several copies of `bytes` bytes: gbps[0] host to device and gbps[1] device to host from
 * and to pageable memory (malloc), gbps[2] and gbps[3] from and to pinned memory
 * (cudaMallocHost). */
void gl_host_link_gbps(size_t bytes, double gbps[4]);

#ifdef __cplusplus
}
#endif
#endif
