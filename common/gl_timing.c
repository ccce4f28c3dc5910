/* gl_timing.c: event timing, median, bandwidth. */
#include "gl_timing.h"

#include "gl_check.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <time.h>

gl_timing_opts gl_timing_default(void)
{
    gl_timing_opts o = {3, 21, 1};
    return o;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gl_median(double *v, int n)
{
    if (n <= 0)
        return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double gl_time_ms(void (*fn)(void *arg), void *arg, gl_timing_opts opts)
{
    int reps = opts.reps > 0 ? opts.reps : 1;
    cudaEvent_t *start = calloc((size_t)reps, sizeof *start);
    cudaEvent_t *stop = calloc((size_t)reps, sizeof *stop);
    double *ms = calloc((size_t)reps, sizeof *ms), median;
    int i;

    if (!start || !stop || !ms)
        gl_fail("gl_time_ms: out of host memory");
    for (i = 0; i < opts.warmup; i++) {
        fn(arg);
        GL_CHECK_LAUNCH("warm-up run");
    }
    for (i = 0; i < reps; i++) {
        GL_CUDA(cudaEventCreate(&start[i]));
        GL_CUDA(cudaEventCreate(&stop[i]));
    }
    for (i = 0; i < reps; i++) {
        if (opts.flush_l2)
            gl_flush_l2();
        GL_CUDA(cudaEventRecord(start[i], 0));
        fn(arg);
        GL_CUDA(cudaGetLastError());
        GL_CUDA(cudaEventRecord(stop[i], 0));
    }
    GL_CHECK_LAUNCH("timed run");
    for (i = 0; i < reps; i++) {
        float t = 0.0f;
        GL_CUDA(cudaEventElapsedTime(&t, start[i], stop[i]));
        ms[i] = t;
        cudaEventDestroy(start[i]);
        cudaEventDestroy(stop[i]);
    }
    median = gl_median(ms, reps);
    free(start);
    free(stop);
    free(ms);
    return median;
}

double gl_gbps(double bytes, double ms)
{
    return ms > 0.0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

double gl_percent(double value, double reference)
{
    return reference > 0.0 ? 100.0 * value / reference : 0.0;
}

double gl_host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
