/* demo.c: lab 10-reduction's comparison table.
 *
 *   make run LAB=10      your reduction.cu       make demo LAB=10   the reference
 *   build/.../demo [--csv FILE] [N]              (default 2^28 elements: 1 GiB)
 *
 * Each variant runs once and is checked as the grader checks it (lab.c:
 * floats within 2^-14 x sum |x| of the exact sum, ints exactly); a right one
 * is then timed (median of 21 runs, L2 flushed before each) and reported as
 * read bandwidth (the n x 4 bytes it reads per second: it writes almost
 * nothing) and as a share of the copy bandwidth (cudaMemcpy device to device
 * of the same n x 4 bytes, counting them read and written), and against the
 * rung before it (x_prev: that row's time over this one's). Then two runs
 * each of the atomics and of the last block, to show which float sum
 * changes between runs. */
#include "lab.h"

#include <stdio.h>
#include <string.h>

#define NVARIANTS 7
#define INT_ROW 6 /* the last row sums ints */

typedef struct {
    const char *name;
    reduce_bufs *b;
} job;

static void run(void *arg)
{
    job *j = arg;
    if (reduce_sums_ints(j->name))
        reduce_int(j->name, j->b->sum.ptr, j->b->partial.ptr, j->b->in.ptr, j->b->n);
    else
        reduce_float(j->name, j->b->sum.ptr, j->b->partial.ptr, j->b->in.ptr, j->b->n);
}

/* Two runs of launcher on the same input: their sums and how many bits differ. */
static int twice(const char *launcher, reduce_bufs *b, const reduce_data *d, float *x, float *y)
{
    unsigned u, v, bits = 0;
    reduce_check(launcher, b, d, &u);
    reduce_check(launcher, b, d, &v);
    memcpy(x, &u, sizeof u);
    memcpy(y, &v, sizeof v);
    for (u ^= v; u; u &= u - 1)
        bits++;
    return (int)bits;
}

int main(int argc, char **argv)
{
    static const char *variants[NVARIANTS] = {
        "reduce_interleaved", "reduce_sequential",  "reduce_first_add",      "reduce_shuffle",
        "reduce_grid_stride", "reduce_last_block", "reduce_grid_stride_int"};
    static const char *headers[] = {"variant", "time_ms", "GB/s", "pct_of_copy", "x_prev",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    reduce_bufs b;
    reduce_data d;
    double copy_gbps, ms[NVARIANTS];
    int n, v, c, wrong = 0, status;
    size_t bytes;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^28 elements)", 1, 1, REDUCE_MAX_N,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 28;
    bytes = (size_t)n * sizeof(float);

    gl_demo_begin(&info);
    /* the copy roof: the same bytes as the input, counted read + written */
    copy_gbps = gl_memcpy_gbps(bytes);
    gl_rng_init(&rng, gl_seed(), "10-reduction demo");
    reduce_make(&d, &rng, REDUCE_RANDOM_FLOATS, n, 0);
    reduce_bufs_alloc(&b, n);

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "10-reduction, n = %d elements (%.0f MiB read)", n,
                  (double)bytes / (1 << 20));
    gl_table_note(table, "gpu", "%s (sm_%d%d, %d SMs)", info.name, info.cc_major, info.cc_minor,
                  info.sms);
    gl_table_note(table, "copy_gbps", "%.0f (cudaMemcpy device to device of the same %zu "
                  "bytes, counted read + written; theoretical %.0f). GB/s of a reduction: bytes "
                  "read / time", copy_gbps, bytes, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        job j = {variants[v], &b};
        const char *why;
        if (v == INT_ROW) {
            /* run to run, on the floats: the atomics add the blocks' sums in whatever order
             * the blocks finish; the last block adds them in a fixed order */
            float x, y;
            int bits;
            if (ms[4] > 0.0) {
                bits = twice("reduce_grid_stride", &b, &d, &x, &y);
                gl_table_note(table, "atomics_runs", "reduce_grid_stride twice: %.9g and %.9g "
                              "(%d bits differ; the exact sum is %.9g)", (double)x, (double)y,
                              bits, d.sum);
            }
            if (ms[5] > 0.0) {
                bits = twice("reduce_last_block", &b, &d, &x, &y);
                gl_table_note(table, "last_block_runs", "reduce_last_block twice: %.9g and %.9g "
                              "(%d bits differ)", (double)x, (double)y, bits);
            }
            reduce_data_free(&d);
            reduce_make(&d, &rng, REDUCE_SMALL_INTS, n, 0);
        }
        why = reduce_check(variants[v], &b, &d, NULL);
        ms[v] = -1.0; /* wrong: not timed */
        if (*why) {
            wrong++;
            printf("%s is WRONG: %s\n", variants[v], why);
            continue;
        }
        ms[v] = gl_time_ms(run, &j, gl_timing_default());
    }

    for (v = 0; v < NVARIANTS; v++) {
        double gbps = gl_gbps((double)bytes, ms[v]);
        gl_table_cell(table, "%s", variants[v] + strlen("reduce_"));
        if (ms[v] < 0.0) {
            for (c = 0; c < 4; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.0f", gbps);
        gl_table_cell(table, "%.1f", gl_percent(gbps, copy_gbps));
        if (v > 0 && ms[v - 1] > 0.0)
            gl_table_cell(table, "%.2f", ms[v - 1] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "10");
    reduce_bufs_free(&b);
    reduce_data_free(&d);
    return status;
}
