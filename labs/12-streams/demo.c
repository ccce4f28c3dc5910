/* demo.c: lab 12-streams' comparison table.
 *
 *   make run LAB=12      your streams.cu       make demo LAB=12   the reference
 *   build/.../demo [--csv FILE] [N]            (default N = 2^24 floats, 64 MiB)
 *
 * First the host link itself: cudaMemcpy of 64 MiB from and to pageable (malloc) and pinned
 * (cudaMallocHost) host memory, in GB/s. Then each launcher runs once and is checked as the
 * grader checks it (the lab's problem, lab.c); a right one is timed (median of 21 runs) and
 * shown as host bytes moved (in and out) per second and as a speedup over serial: the ratio
 * the grader's pipelined_vs_serial claims. */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

static const gl_demo_variant variants[] = {
    {"process_serial", "serial", 1},
    {"process_async", "async", 0},
    {"process_pipelined", "pipelined", 0},
    {NULL, NULL, 0},
};

/* GB/s of a cudaMemcpy of bytes (the median of 5, after one to warm up) */
static double link_gbps(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    cudaEvent_t e[2];
    float t[5], ms = 0;
    GL_CUDA(cudaEventCreate(&e[0]));
    GL_CUDA(cudaEventCreate(&e[1]));
    for (int r = -1; r < 5; r++) {
        GL_CUDA(cudaEventRecord(e[0], 0));
        GL_CUDA(cudaMemcpy(dst, src, bytes, kind));
        GL_CUDA(cudaEventRecord(e[1], 0));
        GL_CUDA(cudaEventSynchronize(e[1]));
        if (r >= 0)
            GL_CUDA(cudaEventElapsedTime(&t[r], e[0], e[1]));
    }
    for (int i = 0; i < 5; i++) /* the median: the third smallest */
        for (int j = i + 1; j < 5; j++)
            if (t[j] < t[i])
                ms = t[i], t[i] = t[j], t[j] = ms;
    cudaEventDestroy(e[0]);
    cudaEventDestroy(e[1]);
    return (double)bytes / (t[2] * 1e-3) / 1e9;
}

int main(int argc, char **argv)
{
    gl_demo_args args;
    streams_size z;
    char note[160];
    size_t bytes = (size_t)64 << 20;
    void *pageable = malloc(bytes), *pinned = NULL, *dev = NULL;
    double g[4];

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 16777216 floats)", 1, 1, 1 << 28,
                  &args);
    z.n = args.nvalues ? (int)args.values[0] : 1 << 24;
    if (!pageable)
        gl_fail("out of host memory for %zu bytes", bytes);
    GL_CUDA(cudaMallocHost(&pinned, bytes));
    GL_CUDA(cudaMalloc(&dev, bytes));
    for (size_t i = 0; i < bytes; i += 4096) /* pageable pages exist before they are timed */
        ((char *)pageable)[i] = 1;
    g[0] = link_gbps(dev, pageable, bytes, cudaMemcpyHostToDevice);
    g[1] = link_gbps(pageable, dev, bytes, cudaMemcpyDeviceToHost);
    g[2] = link_gbps(dev, pinned, bytes, cudaMemcpyHostToDevice);
    g[3] = link_gbps(pinned, dev, bytes, cudaMemcpyDeviceToHost);
    printf("host link, 64 MiB: pageable H2D %.1f GB/s, D2H %.1f GB/s; pinned H2D %.1f GB/s, "
           "D2H %.1f GB/s (pinned/pageable %.2fx, %.2fx)\n",
           g[0], g[1], g[2], g[3], g[2] / g[0], g[3] / g[1]);
    free(pageable);
    GL_CUDA(cudaFreeHost(pinned));
    GL_CUDA(cudaFree(dev));
    snprintf(note, sizeof note, "%d floats in pinned host memory, NCHUNKS %d, NSTREAMS %d",
             z.n, NCHUNKS, NSTREAMS);
    return gl_demo_table("12-streams", note, variants, streams_problem, &z, &args);
}
