/* demo.c: lab 07-vectorized-loads's comparison table.
 *
 *   make run LAB=07      your vectorized_loads.cu     make demo LAB=07   the reference
 *   build/.../demo [--csv FILE] [N]                   (default 2^26 ints)
 *
 * Each variant runs once and is checked as the grader checks it (lab.c); a
 * right one is then timed (median of 21 runs, L2 flushed before each) and
 * reported as effective bandwidth (bytes read + written per second), as a
 * share of cudaMemcpy device to device, and against its scalar version. The
 * "+1" rows start every array one int past a 16-byte boundary: the launcher
 * must notice and take its scalar path. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

#define NVARIANTS 7
#define K 3

typedef struct {
    const char *name;
    int *out;
    const int *a, *b;
    int n;
} job;

static void run(void *arg)
{
    job *j = arg;
    vl_run(j->name, j->out, j->a, j->b, K, j->n);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name, *label;
        int offset;   /* ints past the allocation's (aligned) start */
        int baseline; /* row of the scalar version, for x_scalar */
    } variants[NVARIANTS] = {
        {"copy_int", "copy_int", 0, 0},
        {"copy_int2", "copy_int2", 0, 0},
        {"copy_int4", "copy_int4", 0, 0},
        {"copy_int4", "copy_int4 +1", 1, 0},
        {"scaled_add_int", "scaled_add_int", 0, 4},
        {"scaled_add_int4", "scaled_add_int4", 0, 4},
        {"scaled_add_int4", "scaled_add_int4 +1", 1, 4},
    };
    static const char *headers[] = {"variant", "time_ms", "GB/s", "pct_of_memcpy", "x_scalar",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf a, b, out;
    int *h_a, *h_b;
    double memcpy_gbps, ms[NVARIANTS];
    int n, v, c, wrong = 0, status;
    size_t bytes;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^26 ints)", 1, 1, (1L << 30) - 16,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 26;
    bytes = ((size_t)n + VL_ROOM) * sizeof(int); /* room for the +1 offset */

    gl_demo_begin(&info);
    memcpy_gbps = gl_memcpy_gbps(0);
    gl_rng_init(&rng, gl_seed(), "07-vectorized-loads demo");
    vl_make(&rng, n, &h_a, &h_b);
    a = gl_buf_alloc(bytes, 0);
    b = gl_buf_alloc(bytes, 0);
    out = gl_buf_alloc(bytes, 0);
    gl_buf_upload(&a, h_a);
    gl_buf_upload(&b, h_b);

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "07-vectorized-loads, n = %d ints, %d blocks of %d threads", n,
                  VL_BLOCKS_PER_SM * info.sms, VL_BLOCK);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write; "
                  "theoretical %.0f)", memcpy_gbps, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) { /* a row's scalar row comes before it */
        int off = variants[v].offset, base = variants[v].baseline;
        job j = {variants[v].name, (int *)out.ptr + off, (const int *)a.ptr + off,
                 (const int *)b.ptr + off, n};
        const char *why = vl_check(j.name, n, (vl_offsets){off, off, off}, K, h_a, h_b);
        double moved = (vl_is_copy(j.name) ? 2.0 : 3.0) * n * sizeof(int);
        gl_table_cell(table, "%s", variants[v].label);
        ms[v] = -1.0; /* wrong: not timed */
        if (*why) {
            wrong++;
            printf("%s is WRONG: %s\n", variants[v].label, why);
            for (c = 0; c < 4; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        ms[v] = gl_time_ms(run, &j, gl_timing_default());
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.0f", gl_gbps(moved, ms[v]));
        gl_table_cell(table, "%.1f", gl_percent(gl_gbps(moved, ms[v]), memcpy_gbps));
        if (ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "07");
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&out);
    free(h_a);
    free(h_b);
    return status;
}
