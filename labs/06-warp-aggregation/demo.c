/* demo.c: lab 06-warp-aggregation's comparison table.
 *
 *   make run LAB=06      your warp_aggregation.cu     make demo LAB=06   the reference
 *   build/.../demo [--csv FILE] [N]                   (default 2^24 elements)
 *
 * Each variant is checked as the grader checks it (lab.c: *count, nothing
 * written past it, out[0, *count) the right values in any order); a right
 * one is then timed (median of 21 runs, L2 flushed before each) and compared
 * with the row it improves on (x_baseline: that row's time over this one's).
 * The input: random values in [-10^8, 10^8], so about half of them are
 * positive (the filters keep those) and each element emits 0 .. WA_MAX_ITEMS
 * items alike (the emitters). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

#define NVARIANTS 6

typedef struct {
    const char *name;
    int *out, *count;
    const int *in;
    int n;
} job;

static void run(void *arg)
{
    job *j = arg;
    wa_run(j->name, j->out, j->count, j->in, j->n);
}

int main(int argc, char **argv)
{
    static const char *variants[NVARIANTS] = {"filter_atomic", "filter_coalesced",
                                              "filter_intrinsics", "emit_atomic", "emit_warp",
                                              "emit_block"};
    static const int baseline[NVARIANTS] = {0, 0, 0, 3, 3, 4}; /* the row each improves on */
    static const char *headers[] = {"variant", "items", "time_ms", "Gelem/s", "Gitems/s",
                                    "x_baseline", "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in, out, cnt;
    int *h_in;
    double ms[NVARIANTS];
    int n, v, c, wrong = 0, status;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 elements)", 1, 1, 1L << 26,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 24;

    gl_demo_begin(&info);
    gl_rng_init(&rng, gl_seed(), "06-warp-aggregation demo");
    h_in = wa_make(&rng, "emit_atomic", n, WA_RANDOM);
    in = gl_buf_alloc((size_t)n * sizeof(int), 0);
    out = gl_buf_alloc(wa_capacity("emit_atomic", n) * sizeof(int), 0);
    cnt = gl_buf_alloc(sizeof(int), 0);
    gl_buf_upload(&in, h_in);

    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "06-warp-aggregation, n = %d elements, blocks of %d threads, "
                  "0 .. %d items per element", n, WA_BLOCK, WA_MAX_ITEMS);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        job j = {variants[v], out.ptr, cnt.ptr, in.ptr, n};
        const char *why = wa_check(variants[v], n, h_in, 2);
        ms[v] = -1.0; /* wrong: not timed */
        if (*why) {
            wrong++;
            printf("%s is WRONG: %s\n", variants[v], why);
            continue;
        }
        ms[v] = gl_time_ms(run, &j, gl_timing_default());
    }

    for (v = 0; v < NVARIANTS; v++) {
        size_t items = wa_reference(variants[v], h_in, n, NULL);
        gl_table_cell(table, "%s", variants[v]);
        gl_table_cell(table, "%zu", items);
        if (ms[v] < 0.0) {
            for (c = 0; c < 4; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.1f", n / ms[v] / 1e6);
        gl_table_cell(table, "%.1f", (double)items / ms[v] / 1e6);
        if (ms[baseline[v]] > 0.0)
            gl_table_cell(table, "%.2f", ms[baseline[v]] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "06");
    gl_buf_free(&in);
    gl_buf_free(&out);
    gl_buf_free(&cnt);
    free(h_in);
    return status;
}
