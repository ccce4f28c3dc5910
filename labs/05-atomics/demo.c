/* demo.c: lab 05-atomics's comparison table (make run LAB=05: your atomics.cu; make demo LAB=05:
 * the reference): build/.../demo [--csv FILE] [BYTES [N]], by default 2^26 bytes, N = 2^24.
 * Each row runs once on its task's problem (lab.c), checked as the grader checks it, then is
 * timed (median of 21, L2 flushed) against the row it improves on (x_baseline: that row's time
 * over this one's). GB/s: input bytes read per second. Task 2's "hot p": 1000 bins, a fraction
 * p of the values in one bin (bin 500), the rest uniform. */
#include "lab.h"

#include <stdio.h>

static gl_table *table;
static int wrong;

/* launcher's row on z, checked, then timed; base_ms: the time of the row it improves on (0:
 * itself, -1: none). Returns its time, or -1: WRONG, not timed. */
static double row(const char *launcher, const char *input, at_size z, double base_ms)
{
    gl_problem p = atomics_problem(launcher, &z);
    const char *why = gl_problem_check(launcher, &p, gl_seed()); /* a pair: one input */
    double ms;
    int k;
    gl_table_cell(table, "%s", launcher);
    gl_table_cell(table, "%s", input);
    gl_table_cell(table, "%d", z.n);
    if (*why) {
        printf("%s (%s) is WRONG: %s\n", launcher, input, why);
        wrong++;
        for (k = 0; k < 3; k++)
            gl_table_cell(table, "-"); /* time_ms, GB/s, x_baseline */
        gl_table_cell(table, "WRONG");
        return -1.0;
    }
    ms = gl_problem_time_ms(launcher, &p, gl_seed());
    gl_table_cell(table, "%.4f", ms);
    gl_table_cell(table, "%.0f", gl_gbps(p.work, ms));
    if (base_ms < 0.0)
        gl_table_cell(table, "-");
    else
        gl_table_cell(table, "%.2f", base_ms > 0.0 ? base_ms / ms : 1.0);
    gl_table_cell(table, "ok");
    return ms;
}

int main(int argc, char **argv)
{
    static const char *const headers[] = {"variant", "input", "elements", "time_ms", "GB/s",
                                          "x_baseline", "check"};
    static const struct { const char *input; double hot; } in[] = {
        {"uniform bytes", 0}, {"equal bytes", 0}, {"hot 0", 0}, {"hot 0.5", 0.5},
        {"hot 0.9", 0.9}, {"hot 0.99", 0.99}, {"hot 1", 1}};
    gl_demo_args args;
    gl_device_info info;
    int i, bytes_n, n;
    gl_demo_parse(argc, argv, "[--csv FILE] [BYTES [N]]  (default 2^26 bytes, N = 2^24)", 2, 1,
                  1L << 28, &args);
    bytes_n = args.nvalues > 0 ? (int)args.values[0] : 1 << 26;
    n = args.nvalues > 1 ? (int)args.values[1] : 1 << 24;
    gl_demo_begin(&info);
    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "05-atomics, %d bytes (task 1), %d elements (tasks 2 to 4), "
                  "1000 bins in task 2, blocks of %d threads", bytes_n, n, AT_BLOCK);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());
    for (i = 0; i < 7; i++) { /* the given kernel, then yours, on one input */
        at_size z = {.n = i < 2 ? bytes_n : n, .input = i == 1 ? AT_EQUAL : AT_RANDOM,
                     .nbins = 1000, .hot = in[i].hot, .hot_bin = 500, .chunk = 1};
        row(i < 2 ? "histogram_shared" : "histogram_bins", in[i].input, z,
            row(i < 2 ? "histogram_global" : "histogram_bins_global", in[i].input, z, 0.0));
    }
    row("max_float", "random floats", (at_size){.n = n}, -1.0);
    row("sum_last_block", "random unsigned", (at_size){.n = n}, -1.0);
    return gl_demo_end(table, &args, wrong, "05");
}
