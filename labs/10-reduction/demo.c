/* demo.c: lab 10-reduction's comparison table (make run LAB=10: your reduction.cu; make demo
 * LAB=10: the reference): build/.../demo [--csv FILE] [N], by default 2^28 elements (1 GiB).
 * Each variant is checked as the grader checks it (the lab's problem, lab.c), then timed on
 * its input (median of 21 runs, L2 flushed before each) as read bandwidth (n x 4 bytes read
 * per second: it writes almost nothing), as a share of the copy bandwidth (cudaMemcpy device
 * to device of the same bytes, read + written) and against the rung before it (x_prev). The
 * atomics and the last block run twice more on the same floats (lab.c): whose sum changes? */
#include "lab.h"

#include <stdio.h>

static reduce_size z;

#define RUNG(fn, before) {.launcher = "reduce_" fn, .label = fn, .size = &z, .over = before}
static const gl_demo_case cases[] = {
    RUNG("interleaved", NULL), RUNG("sequential", &cases[0]), RUNG("first_add", &cases[1]),
    RUNG("shuffle", &cases[2]), RUNG("grid_stride", &cases[3]), RUNG("last_block", &cases[4]),
    RUNG("grid_stride_int", &cases[5]), {.launcher = NULL}};

/* Run to run, where they are right: the atomics add the blocks' sums in whatever order the
 * blocks finish (with the exact sum); the last block adds them in a fixed order. */
static void runs(gl_table *t, const double *ms)
{
    if (ms[4] > 0.0)
        gl_table_note(t, "atomics_runs", "%s", reduce_twice("reduce_grid_stride", &z, 1));
    if (ms[5] > 0.0)
        gl_table_note(t, "last_block_runs", "%s", reduce_twice("reduce_last_block", &z, 0));
}

int main(int argc, char **argv)
{
    static char gpu[192], copy[320];
    static const char *const notes[] = {"gpu", gpu, "copy_gbps", copy, NULL};
    gl_demo_options options = {.pct = "pct_of_copy", .speedup = "x_prev", .notes = notes,
                               .after = runs};
    gl_demo_args args;
    gl_device_info info;
    char why[256], note[96];

    gl_demo_dims(argc, argv, "[--csv FILE] [N]  (default 2^28 elements)", 1, 1 << 28,
                 REDUCE_MAX_N, &args, &z.n);
    if (gl_device_query(&info, why, sizeof why) == 0) { /* else gl_demo_cases says why, exits */
        options.pct_of = gl_memcpy_gbps((size_t)z.n * sizeof(float)); /* the input's bytes */
        snprintf(gpu, sizeof gpu, "%s (sm_%d%d, %d SMs)", info.name, info.cc_major,
                 info.cc_minor, info.sms);
        snprintf(copy, sizeof copy, "%.0f (cudaMemcpy device to device of the same %zu bytes, "
                 "counted read + written; theoretical %.0f). GB/s of a reduction: bytes read / "
                 "time", options.pct_of, (size_t)z.n * sizeof(float), info.theoretical_gbps);
    }
    snprintf(note, sizeof note, "n = %d elements (%.0f MiB read)", z.n, z.n / 262144.0);
    return gl_demo_cases("10-reduction", note, cases, reduce_problem, &options, &args);
}
