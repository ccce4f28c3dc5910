/* demo.c: lab 07-vectorized-loads's comparison table.
 *
 *   make run LAB=07      your vectorized_loads.cu     make demo LAB=07   the reference
 *   build/.../demo [--csv FILE] [N]                   (default 2^26 ints)
 *
 * Each variant runs once and is checked as the grader checks it (vl_check, lab.c); a right one
 * is then timed on the lab's problem (median of 21 runs, L2 flushed before each) and reported
 * as effective bandwidth (bytes read + written per second), as a share of cudaMemcpy device to
 * device, and against its scalar version. The "+1" rows start every array one int past a
 * 16-byte boundary: the launcher must notice and take its scalar path. (Not gl_demo_table: the
 * copies and the scaled adds move different bytes, each against its own scalar version.) */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

static const struct {
    const char *launcher, *label;
    int offset, baseline; /* ints past an aligned start; the row of the scalar version */
} variants[] = {
    {"copy_int", "copy_int", 0, 0},           {"copy_int2", "copy_int2", 0, 0},
    {"copy_int4", "copy_int4", 0, 0},         {"copy_int4", "copy_int4 +1", 1, 0},
    {"scaled_add_int", "scaled_add_int", 0, 4}, {"scaled_add_int4", "scaled_add_int4", 0, 4},
    {"scaled_add_int4", "scaled_add_int4 +1", 1, 4},
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

int main(int argc, char **argv)
{
    static const char *headers[] = {"variant", "time_ms", "GB/s", "pct_of_memcpy", "x_scalar",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    double memcpy_gbps, ms[NVARIANTS];
    int *h_a, *h_b, n, v, c, wrong = 0;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^26 ints)", 1, 1, (1L << 30) - 16,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 26;
    gl_demo_begin(&info);
    memcpy_gbps = gl_memcpy_gbps(0);
    gl_rng_init(&rng, gl_seed(), "07-vectorized-loads demo");
    vl_make(&rng, n, &h_a, &h_b);
    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "07-vectorized-loads, n = %d ints, %d blocks of %d threads", n,
                  VL_BLOCKS_PER_SM * info.sms, VL_BLOCK);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write; "
                  "theoretical %.0f)", memcpy_gbps, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) { /* a row's scalar row comes before it */
        int off = variants[v].offset, base = variants[v].baseline;
        vl_size z = {.n = n, .offset = off};
        gl_problem p = vl_problem(variants[v].launcher, &z);
        const char *why =
            vl_check(variants[v].launcher, n, (vl_offsets){off, off, off}, 3, h_a, h_b);
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
        ms[v] = gl_problem_time_ms(variants[v].launcher, &p, gl_seed());
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.0f", gl_gbps(p.work, ms[v]));
        gl_table_cell(table, "%.1f", gl_percent(gl_gbps(p.work, ms[v]), memcpy_gbps));
        if (ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }
    free(h_a);
    free(h_b);
    return gl_demo_end(table, &args, wrong, "07");
}
