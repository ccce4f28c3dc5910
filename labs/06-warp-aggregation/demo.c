/* demo.c: lab 06-warp-aggregation's comparison table.
 *
 *   make run LAB=06      your warp_aggregation.cu     make demo LAB=06   the reference
 *   build/.../demo [--csv FILE] [N]                   (default 2^24 elements)
 *
 * Each variant is checked as the grader checks it (lab.c: *count, nothing
 * written past it, out[0, *count) the right values in any order); a right
 * one is then timed on the lab's problem (median of 21 runs, L2 flushed before each) and
 * compared with the row it improves on (x_baseline: that row's time over this one's).
 * The input: random values in [-10^8, 10^8], so about half of them are
 * positive (the filters keep those) and each element emits 0 .. WA_MAX_ITEMS
 * items alike (the emitters). Not gl_demo_table: its columns are elements and items per
 * second, and each row has its own baseline. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

static const struct {
    const char *launcher;
    int baseline; /* the row it improves on, before it */
} variants[] = {{"filter_atomic", 0}, {"filter_coalesced", 0}, {"filter_intrinsics", 0},
                {"emit_atomic", 3},   {"emit_warp", 3},        {"emit_block", 4}};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

int main(int argc, char **argv)
{
    static const char *headers[] = {"variant", "items", "time_ms", "Gelem/s", "Gitems/s",
                                    "x_baseline", "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_table *table;
    wa_size z;
    gl_problem p;
    gl_buf in;
    double ms[NVARIANTS];
    int *h_in, v, c, wrong = 0;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 elements)", 1, 1, 1L << 26,
                  &args);
    z.n = args.nvalues > 0 ? (int)args.values[0] : 1 << 24;
    gl_demo_begin(&info);
    /* the input each variant is timed on (gl_problem_time_ms makes it from the seed), on the
     * host for its check and its items */
    p = wa_problem("emit_atomic", &z);
    in = gl_buf_alloc(p.buf[0].bytes, 0);
    if (!(h_in = malloc(p.buf[0].bytes)))
        gl_fail("out of host memory for %d elements", z.n);
    p.make(p.ctx, 0, in.ptr, gl_problem_seed(gl_seed(), 0));
    gl_buf_download(&in, h_in);
    gl_buf_free(&in);

    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "06-warp-aggregation, n = %d elements, blocks of %d threads, "
                  "0 .. %d items per element", z.n, WA_BLOCK, WA_MAX_ITEMS);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        const char *name = variants[v].launcher, *why = wa_check(name, z.n, h_in, 2);
        size_t items = wa_reference(name, h_in, z.n, NULL);
        int base = variants[v].baseline;
        gl_table_cell(table, "%s", name);
        gl_table_cell(table, "%zu", items);
        ms[v] = -1.0; /* wrong: not timed */
        if (*why) {
            wrong++;
            printf("%s is WRONG: %s\n", name, why);
            for (c = 0; c < 4; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        p = wa_problem(name, &z);
        ms[v] = gl_problem_time_ms(name, &p, gl_seed());
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.1f", z.n / ms[v] / 1e6);
        gl_table_cell(table, "%.1f", (double)items / ms[v] / 1e6);
        if (ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }
    free(h_in);
    return gl_demo_end(table, &args, wrong, "06");
}
