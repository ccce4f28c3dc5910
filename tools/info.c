/* info.c: `make info`, what the GPU is and how fast it copies. */
#include "gpulabs.h"

#include <stdio.h>

int main(void)
{
    gl_device_info d;
    char why[512];
    double copy;

    if (gl_device_query(&d, why, sizeof why) != 0) {
        printf("GPU:              none: %s.\n                  The labs run on an NVIDIA GPU with "
               "its driver. Here, make all builds every lab, and make check LAB=NN "
               "KIND=technique previews the technique tests from your PTX (no points).\n", why);
        return 0; /* a machine without a GPU is an answer, not an error */
    }
    copy = gl_memcpy_gbps(0);
    printf("device               %d: %s\n", d.device, d.name);
    printf("compute capability   %d.%d (build: make ARCH=sm_%d%d)\n", d.cc_major, d.cc_minor,
           d.cc_major, d.cc_minor);
    printf("multiprocessors      %d\n", d.sms);
    printf("global memory        %.1f GiB\n", d.global_mem_bytes / 1073741824.0);
    printf("L2 cache             %.1f MiB\n", d.l2_bytes / 1048576.0);
    printf("shared memory        %d KiB per block (default), %d KiB per SM\n",
           d.shared_per_block / 1024, d.shared_per_sm / 1024);
    printf("memory bus           %d bits at %.0f MHz\n", d.bus_width_bits, d.mem_clock_khz / 1e3);
    printf("theoretical bandwidth %.0f GB/s (2 x clock x bus width)\n", d.theoretical_gbps);
    printf("measured copy        %.0f GB/s (cudaMemcpy device to device, bytes read + written; "
           "%.0f%% of theoretical)\n", copy, gl_percent(copy, d.theoretical_gbps));
    printf("CUDA                 runtime %d.%d, driver supports %d.%d\n",
           d.runtime_version / 1000, d.runtime_version % 1000 / 10, d.driver_version / 1000,
           d.driver_version % 1000 / 10);
    return 0;
}
