/* gl_timing.h: timing GPU work the way the course measures it.
 *
 * Device events around each run, warm-up runs first, the median of many runs,
 * and the L2 cache flushed before each run (a kernel reads a buffer twice the
 * size of the L2), so no run is served by data a previous run left in L2. */
#ifndef GL_TIMING_H
#define GL_TIMING_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int warmup;   /* untimed runs first: module load, clocks ramp up */
    int reps;     /* timed runs; the median is reported */
    int flush_l2; /* flush the L2 before every run */
} gl_timing_opts;

/* 3 warm-up runs, median of 21, L2 flushed. */
gl_timing_opts gl_timing_default(void);

/* Median time in milliseconds of fn(arg), which enqueues GPU work on the
 * default stream. A launch or kernel error fails with its likely cause. */
double gl_time_ms(void (*fn)(void *arg), void *arg, gl_timing_opts opts);

/* Evicts the L2 by reading a buffer twice its size on the GPU (enqueued on
 * the default stream). */
void gl_flush_l2(void);

/* Effective bandwidth: bytes moved (read + written) over time, in GB/s. */
double gl_gbps(double bytes, double ms);

/* 100 * value / reference; 0 when reference is 0. */
double gl_percent(double value, double reference);

/* Seconds on a monotonic host clock (for host-side work only: GPU work is
 * timed with events). */
double gl_host_seconds(void);

/* Median of n values (reorders the array). */
double gl_median(double *v, int n);

#ifdef __cplusplus
}
#endif
#endif
