/* demo.c: lab 07-vectorized-loads's comparison table.
 *
 *   make run LAB=07      your vectorized_loads.cu     make demo LAB=07   the reference
 *   build/.../demo [--csv FILE] [N]                   (default 2^26 ints)
 *
 * Each variant runs once on poisoned output and is checked against the CPU;
 * a right one is then timed (median of 21 runs, L2 flushed before each) and
 * reported as effective bandwidth (bytes read + written per second), as a
 * share of cudaMemcpy device to device, and against its scalar version. The
 * "+1" rows start every array one int past a 16-byte boundary: the launcher
 * must notice and take its scalar path. */
#include "gpulabs.h"
#include "vectorized_loads.h"

#include <stdio.h>
#include <stdlib.h>

#define NVARIANTS 7

typedef struct {
    const char *name;
    void (*copy)(int *out, const int *in, int n);
    void (*add)(int *out, const int *a, const int *b, int k, int n);
    int offset;   /* elements past the allocation's (aligned) start */
    int baseline; /* row of the scalar version, for x_scalar */
} variant;

typedef struct {
    const variant *v;
    int *out;
    const int *a, *b;
    int n;
} job;

static const int K = 3;

static void run(void *arg)
{
    job *j = arg;
    if (j->v->copy)
        j->v->copy(j->out, j->a, j->n);
    else
        j->v->add(j->out, j->a, j->b, K, j->n);
}

int main(int argc, char **argv)
{
    static const variant variants[NVARIANTS] = {
        {"copy_int", copy_int, NULL, 0, 0},
        {"copy_int2", copy_int2, NULL, 0, 0},
        {"copy_int4", copy_int4, NULL, 0, 0},
        {"copy_int4 +1", copy_int4, NULL, 1, 0},
        {"scaled_add_int", NULL, scaled_add_int, 0, 4},
        {"scaled_add_int4", NULL, scaled_add_int4, 0, 4},
        {"scaled_add_int4 +1", NULL, scaled_add_int4, 1, 4},
    };
    static const char *headers[] = {"variant", "time_ms", "GB/s", "pct_of_memcpy", "x_scalar",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf a, b, out;
    int *h_a, *h_b, *h_ref, *h_out;
    double memcpy_gbps, ms[NVARIANTS];
    int n, v, wrong = 0, status;
    size_t i, bytes;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^26 ints)", 1, 1, (1L << 30) - 16,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 26;
    bytes = ((size_t)n + 4) * sizeof(int); /* room for the +1 offset */

    gl_demo_begin(&info);
    memcpy_gbps = gl_memcpy_gbps(0);
    h_a = malloc(bytes);
    h_b = malloc(bytes);
    h_ref = malloc(bytes);
    h_out = malloc(bytes);
    if (!h_a || !h_b || !h_ref || !h_out) {
        fprintf(stderr, "%s: not enough host memory for n = %d\n", argv[0], n);
        return 1;
    }
    gl_rng_init(&rng, gl_seed(), "07-vectorized-loads demo");
    gl_fill_int(&rng, h_a, (size_t)n + 4, -1000000, 1000000);
    gl_fill_int(&rng, h_b, (size_t)n + 4, -1000000, 1000000);
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

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        int off = var->offset;
        job j = {var, (int *)out.ptr + off, (const int *)a.ptr + off, (const int *)b.ptr + off, n};
        gl_guard_report guards;
        gl_cmp cmp;
        char why[1024];

        for (i = 0; i < (size_t)n; i++)
            h_ref[i] = var->copy ? h_a[i + off] : h_a[i + off] + K * h_b[i + off];
        gl_buf_poison(&out);
        run(&j);
        GL_CHECK_LAUNCH(var->name);
        gl_buf_download(&out, h_out);
        if (gl_buf_check_guards(&out, &guards)) {
            gl_guard_describe(&guards, out.bytes, sizeof(int), "out", why, sizeof why);
        } else if (gl_compare_int(h_ref, h_out + off, (size_t)n, &cmp)) {
            gl_cmp_describe(&cmp, "out", NULL, NULL, why, sizeof why);
        } else {
            ms[v] = gl_time_ms(run, &j, gl_timing_default());
            continue;
        }
        ms[v] = -1.0;
        wrong++;
        printf("%s is WRONG: %s\n", var->name, why);
    }

    for (v = 0; v < NVARIANTS; v++) {
        double moved = (variants[v].copy ? 2.0 : 3.0) * n * sizeof(int);
        int base = variants[v].baseline;
        gl_table_cell(table, "%s", variants[v].name);
        if (ms[v] < 0.0) {
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
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
    free(h_ref);
    free(h_out);
    return status;
}
