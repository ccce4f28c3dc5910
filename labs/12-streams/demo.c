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

#include <stdio.h>

static const gl_demo_variant variants[] = {
    {"process_serial", "serial", 1},
    {"process_async", "async", 0},
    {"process_pipelined", "pipelined", 0},
    {NULL, NULL, 0},
};

int main(int argc, char **argv)
{
    gl_demo_args args;
    streams_size z;
    char note[160];
    double g[4];

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 16777216 floats)", 1, 1, 1 << 28,
                  &args);
    z.n = args.nvalues ? (int)args.values[0] : 1 << 24;
    gl_host_link_gbps((size_t)64 << 20, g);
    printf("host link, 64 MiB: pageable H2D %.1f GB/s, D2H %.1f GB/s; pinned H2D %.1f GB/s, "
           "D2H %.1f GB/s (pinned/pageable %.2fx, %.2fx)\n",
           g[0], g[1], g[2], g[3], g[2] / g[0], g[3] / g[1]);
    snprintf(note, sizeof note, "%d floats in pinned host memory, NCHUNKS %d, NSTREAMS %d",
             z.n, NCHUNKS, NSTREAMS);
    return gl_demo_table("12-streams", note, variants, streams_problem, &z, &args);
}
