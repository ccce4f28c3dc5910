/* demo.c: lab 08-transpose's comparison table.
 *
 *   make run LAB=08      your transpose.cu       make demo LAB=08   the reference
 *   build/.../demo [--csv FILE] [ROWS [COLS]]    (default 8192 x 8192)
 *
 * Each variant runs once on poisoned output and is checked against the CPU;
 * a right one is then timed (median of 21 runs, L2 flushed before each) and
 * reported as effective bandwidth (bytes read + written per second) and as a
 * share of the device's measured cudaMemcpy device-to-device bandwidth. */
#include "gpulabs.h"
#include "transpose.h"

#include <stdio.h>
#include <stdlib.h>

#define NVARIANTS 4 /* copy, naive (the baseline of x_naive), tiled, padded */

typedef void (*transpose_fn)(float *out, const float *in, int rows, int cols);

typedef struct {
    transpose_fn fn;
    float *out;
    const float *in;
    int rows, cols;
} job;

static void run(void *arg)
{
    job *j = arg;
    j->fn(j->out, j->in, j->rows, j->cols);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        transpose_fn fn;
        int transposes;
    } variants[NVARIANTS] = {
        {"copy", transpose_copy, 0},
        {"naive", transpose_naive, 1},
        {"tiled", transpose_tiled, 1},
        {"tiled+padded", transpose_padded, 1},
    };
    static const char *headers[] = {"variant", "time_ms", "GB/s", "pct_of_memcpy", "x_naive",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in, out;
    float *h_in, *h_ref, *h_t, *h_out;
    double memcpy_gbps, ms[NVARIANTS];
    int rows, cols, r, c, v, wrong = 0, status;
    size_t n;

    gl_demo_parse(argc, argv, "[--csv FILE] [ROWS [COLS]]  (default 8192 x 8192)", 2, 1,
                  TRANSPOSE_MAX_DIM, &args);
    rows = args.nvalues > 0 ? (int)args.values[0] : 8192;
    cols = args.nvalues > 1 ? (int)args.values[1] : rows;
    if ((long long)rows * cols >= (1LL << 31)) {
        fprintf(stderr, "%s: %d x %d has 2^31 elements or more; the lab's int indices do not "
                        "reach that far\n", argv[0], rows, cols);
        return 2;
    }
    n = (size_t)rows * (size_t)cols;

    gl_demo_begin(&info);
    memcpy_gbps = gl_memcpy_gbps(0);

    h_in = malloc(n * sizeof *h_in);
    h_ref = malloc(n * sizeof *h_ref);
    h_out = malloc(n * sizeof *h_out);
    if (!h_in || !h_ref || !h_out) {
        fprintf(stderr, "%s: not enough host memory for %d x %d\n", argv[0], rows, cols);
        return 1;
    }
    gl_rng_init(&rng, gl_seed(), "08-transpose demo");
    gl_fill_float(&rng, h_in, n, -1.0f, 1.0f);
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            h_ref[(size_t)c * rows + r] = h_in[(size_t)r * cols + c];

    in = gl_buf_alloc(n * sizeof(float), 0);
    out = gl_buf_alloc(n * sizeof(float), 0);
    gl_buf_upload(&in, h_in);

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "08-transpose, %d x %d floats", rows, cols);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write; "
                  "theoretical %.0f)", memcpy_gbps, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        job j = {variants[v].fn, out.ptr, in.ptr, rows, cols};
        gl_guard_report guards;
        gl_cmp cmp;
        char why[1024];

        h_t = variants[v].transposes ? h_ref : h_in;
        gl_buf_poison(&out);
        run(&j);
        GL_CHECK_LAUNCH(variants[v].name);
        gl_buf_download(&out, h_out);
        if (gl_buf_check_guards(&out, &guards)) {
            gl_guard_describe(&guards, out.bytes, sizeof(float), "out", why, sizeof why);
        } else if (gl_compare_float(h_t, h_out, n, 0.0, 0.0, &cmp)) {
            int out_cols = variants[v].transposes ? rows : cols;
            gl_cmp_describe(&cmp, "out", gl_index_2d, &out_cols, why, sizeof why);
        } else {
            ms[v] = gl_time_ms(run, &j, gl_timing_default());
            continue;
        }
        ms[v] = -1.0; /* wrong: not timed */
        wrong++;
        printf("%s is WRONG: %s\n", variants[v].name, why);
    }

    for (v = 0; v < NVARIANTS; v++) {
        double gbps = ms[v] > 0.0 ? gl_gbps(2.0 * (double)n * sizeof(float), ms[v]) : 0.0;
        double naive_gbps = ms[1] > 0.0 ? gl_gbps(2.0 * (double)n * sizeof(float), ms[1]) : 0.0;
        gl_table_cell(table, "%s", variants[v].name);
        if (ms[v] < 0.0) {
            for (c = 0; c < 4; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.0f", gbps);
        gl_table_cell(table, "%.1f", gl_percent(gbps, memcpy_gbps));
        if (naive_gbps > 0.0)
            gl_table_cell(table, "%.2f", gbps / naive_gbps);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "08");
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_ref);
    free(h_out);
    return status;
}
