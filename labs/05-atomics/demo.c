/* demo.c: lab 05-atomics's comparison table (make run LAB=05: your atomics.cu; make demo LAB=05:
 * the reference): build/.../demo [--csv FILE] [BYTES [N]], by default 2^26 bytes, N = 2^24.
 * Each row runs once on its task's problem (lab.c), checked as the grader checks it, then is
 * timed (median of 21, L2 flushed) against the row it improves on (x_baseline: that row's time
 * over this one's). GB/s: input bytes read per second. Task 2's "hot p": 1000 bins, a fraction
 * p of the values in one bin (bin 500), the rest uniform. */
#include "lab.h"

#include <stdio.h>

#define NCASES (7 * 2 + 2) /* tasks 1 and 2 on 7 inputs, the given kernel and yours; 3 and 4 */
static gl_demo_case cases[NCASES + 1];
static at_size sizes[NCASES];
static char elements[NCASES][16];
static int ncases;

/* launcher on z, its speedup over the row `back` rows before it (0: itself, 1.00; -1: none) */
static void row(const char *launcher, const char *input, at_size z, int back)
{
    sizes[ncases] = z;
    snprintf(elements[ncases], sizeof elements[ncases], "%d", z.n);
    cases[ncases] = (gl_demo_case){.launcher = launcher, .label = launcher,
                                   .keys = {input, elements[ncases]}, .size = &sizes[ncases],
                                   .over = back >= 0 ? &cases[ncases - back] : NULL};
    ncases++;
}

int main(int argc, char **argv)
{
    static const struct { const char *input; double hot; } in[] = {
        {"uniform bytes", 0}, {"equal bytes", 0}, {"hot 0", 0}, {"hot 0.5", 0.5},
        {"hot 0.9", 0.9}, {"hot 0.99", 0.99}, {"hot 1", 1}};
    static const gl_demo_options options = {.speedup = "x_baseline",
                                            .keys = {"input", "elements"}, .no_memcpy = 1};
    gl_demo_args args;
    char note[192];
    gl_demo_parse(argc, argv, "[--csv FILE] [BYTES [N]]  (default 2^26 bytes, N = 2^24)", 2, 1,
                  1L << 28, &args);
    int bytes_n = args.nvalues > 0 ? (int)args.values[0] : 1 << 26,
        n = args.nvalues > 1 ? (int)args.values[1] : 1 << 24;
    for (int i = 0; i < 7; i++) { /* the given kernel, then yours, on one input */
        at_size z = {.n = i < 2 ? bytes_n : n, .input = i == 1 ? AT_EQUAL : AT_RANDOM,
                     .nbins = 1000, .hot = in[i].hot, .hot_bin = 500, .chunk = 1};
        row(i < 2 ? "histogram_global" : "histogram_bins_global", in[i].input, z, 0);
        row(i < 2 ? "histogram_shared" : "histogram_bins", in[i].input, z, 1);
    }
    row("max_float", "random floats", (at_size){.n = n}, -1);
    row("sum_last_block", "random unsigned", (at_size){.n = n}, -1);
    snprintf(note, sizeof note, "%d bytes (task 1), %d elements (tasks 2 to 4), 1000 bins in "
             "task 2, blocks of %d threads", bytes_n, n, AT_BLOCK);
    return gl_demo_cases("05-atomics", note, cases, atomics_problem, &options, &args);
}
