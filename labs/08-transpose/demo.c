/* demo.c: lab 08-transpose's comparison table.
 *
 *   make run LAB=08      your transpose.cu       make demo LAB=08   the reference
 *   build/.../demo [--csv FILE] [ROWS [COLS]]    (default 8192 x 8192)
 *
 * Each variant runs once and is checked as the grader checks it (lab.c);
 * a right one is then timed (median of 21 runs, L2 flushed before each) and
 * reported as effective bandwidth (bytes read + written per second) and as a
 * share of the device's measured cudaMemcpy device-to-device bandwidth. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    const char *name;
    float *out;
    const float *in;
    int rows, cols;
} job;

static void run(void *arg)
{
    job *j = arg;
    transpose_run(j->name, j->out, j->in, j->rows, j->cols);
}

int main(int argc, char **argv)
{
    static const char *variants[] = {"transpose_copy", "transpose_naive", "transpose_tiled",
                                     "transpose_padded"};
    static const char *labels[] = {"copy", "naive", "tiled", "tiled+padded"};
    static const char *headers[] = {"variant", "time_ms", "GB/s", "pct_of_memcpy", "x_naive",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in, out;
    float *h_in, *h_ref;
    double memcpy_gbps, ms[4], bytes;
    int rows, cols, v, c, wrong = 0, status;

    gl_demo_parse(argc, argv, "[--csv FILE] [ROWS [COLS]]  (default 8192 x 8192)", 2, 1,
                  TRANSPOSE_MAX_DIM, &args);
    rows = args.nvalues > 0 ? (int)args.values[0] : 8192;
    cols = args.nvalues > 1 ? (int)args.values[1] : rows;
    if ((long long)rows * cols >= (1LL << 31)) {
        fprintf(stderr, "%s: %d x %d has 2^31 elements or more; the lab's int indices do not "
                        "reach that far\n", argv[0], rows, cols);
        return 2;
    }
    bytes = 2.0 * (double)rows * cols * sizeof(float);

    gl_demo_begin(&info);
    memcpy_gbps = gl_memcpy_gbps(0);
    gl_rng_init(&rng, gl_seed(), "08-transpose demo");
    transpose_make(&rng, rows, cols, &h_in, &h_ref);
    in = gl_buf_alloc((size_t)rows * cols * sizeof(float), 0);
    out = gl_buf_alloc((size_t)rows * cols * sizeof(float), 0);
    gl_buf_upload(&in, h_in);

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "08-transpose, %d x %d floats", rows, cols);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write; "
                  "theoretical %.0f)", memcpy_gbps, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < 4; v++) {
        job j = {variants[v], out.ptr, in.ptr, rows, cols};
        const char *why = transpose_check(variants[v], rows, cols, h_in, h_ref);
        ms[v] = -1.0; /* wrong: not timed */
        if (*why) {
            wrong++;
            printf("%s is WRONG: %s\n", variants[v], why);
            continue;
        }
        ms[v] = gl_time_ms(run, &j, gl_timing_default());
    }

    for (v = 0; v < 4; v++) {
        gl_table_cell(table, "%s", labels[v]);
        if (ms[v] < 0.0) {
            for (c = 0; c < 4; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.0f", gl_gbps(bytes, ms[v]));
        gl_table_cell(table, "%.1f", gl_percent(gl_gbps(bytes, ms[v]), memcpy_gbps));
        if (ms[1] > 0.0)
            gl_table_cell(table, "%.2f", ms[1] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "08");
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_ref);
    return status;
}
