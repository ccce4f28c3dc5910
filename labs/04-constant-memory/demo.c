/* demo.c: lab 04-constant-memory's comparison table (make run LAB=04; make demo LAB=04: the
 * reference): each row checked on its problem (lab.c), then timed against a row. Filters run at
 * several run-time tap counts: where the constant one falls behind is task 3's trap. */
#include "lab.h"

#include <stdio.h>

/* A row: launcher fn, shown as name, with t taps (a filter; key: t or "-") or uniform indices
 * (u: a lookup's, one per warp), its speedup over row `base` (itself: 1.00); n is set in main. */
#define ROW(fn, name, key, t, u, base) {.launcher = fn, .label = name, .keys = {key},              \
     .over = &cases[base], .size = &(cm_size){.ntaps = t, .uniform = u}}
#define FILTERS(t, at) /* the given constant filter, then the global one */                        \
    ROW("convolve_constant_runtime", "convolve_constant_runtime", #t, t, 0, at),                   \
        ROW("convolve_long", "convolve_long", #t, t, 0, at)
static const gl_demo_case cases[] = {
    ROW("poly_global", "poly_global", "-", 0, 0, 0),
    ROW("poly_constant", "poly_constant", "-", 0, 0, 0),
    FILTERS(64, 2), FILTERS(128, 4), FILTERS(256, 6), FILTERS(1024, 8),
    ROW("lookup_constant", "lookup_constant uniform", "-", 0, 1, 10),
    ROW("lookup_constant", "lookup_constant random", "-", 0, 0, 10),
    ROW("lookup_global", "lookup_global uniform", "-", 0, 1, 10),
    ROW("lookup_global", "lookup_global random", "-", 0, 0, 11),
    {.launcher = NULL}};

/* After the seed's note, as in slides/data: what a row counts, what it is compared with. */
static void notes(gl_table *t)
{
    gl_table_note(t, "ops", "a polynomial output is 2 * %d flops (Horner: a multiply-add per "
                  "coefficient); a convolution output is 2 * taps flops (multiply, add); a "
                  "lookup output is %d table reads", CM_COEFFS, CM_LOOKUPS);
    gl_table_note(t, "lookups", "uniform: the 32 lanes of a warp share one index; random: "
                  "each lane its own, in [0, %d)", CM_TABLE);
    gl_table_note(t, "speedup", "time of the row it is compared with / time of this row (1.00: "
                  "itself): poly_global, convolve_constant_runtime at the same taps, "
                  "lookup_constant uniform, or for lookup_global random lookup_constant random");
}

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.keys = {"taps"}, .speedup = "speedup",
                                            .no_memcpy = 1, .before = notes};
    gl_demo_args args;
    char note[96];
    int i, n;
    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 outputs)", 1, 1, 1L << 28, &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 24;
    for (i = 0; cases[i].launcher; i++)
        ((cm_size *)cases[i].size)->n = n;
    snprintf(note, sizeof note, "n = %d outputs, one thread each, blocks of %d threads", n,
             CM_BLOCK);
    return gl_demo_cases("04-constant-memory", note, cases, cm_problem, &options, &args);
}
