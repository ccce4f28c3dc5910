/* demo.c: lab 04-constant-memory's comparison table.
 *
 *   make run LAB=04      your constant_memory.cu     make demo LAB=04   the reference
 *   build/.../demo [--csv FILE] [N]                  (default 2^24 outputs)
 *
 * Each variant runs once on its problem (lab.c) and is checked as the grader checks its timed
 * calls (every output against the kit's launcher of the task); a right one is then timed
 * (median of 21 runs, L2 flushed before each) and compared with the row named in `against`:
 * speedup = that row's time / this row's time. The run-time-length filters run at several tap
 * counts: where the constant version falls behind is the trap of task 3. */
#include "lab.h"

/* launcher, taps (a filter), uniform indices (a lookup: one per warp), the row it is
 * compared with (its own: the reference) */
static const cm_variant variants[] = {
    {"poly_global", 0, 0, 0},
    {"poly_constant", 0, 0, 0},
    {"convolve_constant_runtime", 64, 0, 2},
    {"convolve_long", 64, 0, 2},
    {"convolve_constant_runtime", 128, 0, 4},
    {"convolve_long", 128, 0, 4},
    {"convolve_constant_runtime", 256, 0, 6},
    {"convolve_long", 256, 0, 6},
    {"convolve_constant_runtime", 1024, 0, 8},
    {"convolve_long", 1024, 0, 8},
    {"lookup_constant", 0, 1, 10},
    {"lookup_constant", 0, 0, 10},
    {"lookup_global", 0, 1, 10},
    {"lookup_global", 0, 0, 11},
};

int main(int argc, char **argv)
{
    gl_demo_args args;
    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 outputs)", 1, 1, 1L << 28, &args);
    return cm_demo_table(variants, (int)(sizeof variants / sizeof variants[0]),
                         args.nvalues > 0 ? (int)args.values[0] : 1 << 24, &args);
}
