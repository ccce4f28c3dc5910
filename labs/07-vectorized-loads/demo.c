/* demo.c: lab 07-vectorized-loads's comparison table.
 *
 *   make run LAB=07      your vectorized_loads.cu     make demo LAB=07   the reference
 *   build/.../demo [--csv FILE] [N]                   (default 2^26 ints)
 *
 * Each variant runs once and is checked as the grader checks it (the lab's problem, lab.c); a
 * right one is then timed (median of 21 runs, L2 flushed before each) and reported as effective
 * bandwidth (bytes read + written per second), as a share of cudaMemcpy device to device, and
 * against its scalar version (the copies and the scaled adds move different bytes). The "+1"
 * rows start every array one int past a 16-byte boundary: the launcher must notice and take its
 * scalar path. */
#include "lab.h"

#include <stdio.h>

static vl_size aligned, past_one = {.at = {1, 1, 1}};

#define CASE(fn, name, z, scalar) {.launcher = fn, .label = name, .size = z, .over = scalar}
static const gl_demo_case cases[] = {
    CASE("copy_int", "copy_int", &aligned, &cases[0]),
    CASE("copy_int2", "copy_int2", &aligned, &cases[0]),
    CASE("copy_int4", "copy_int4", &aligned, &cases[0]),
    CASE("copy_int4", "copy_int4 +1", &past_one, &cases[0]),
    CASE("scaled_add_int", "scaled_add_int", &aligned, &cases[4]),
    CASE("scaled_add_int4", "scaled_add_int4", &aligned, &cases[4]),
    CASE("scaled_add_int4", "scaled_add_int4 +1", &past_one, &cases[4]),
    {.launcher = NULL},
};

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.speedup = "x_scalar"};
    gl_demo_args args;
    gl_device_info info;
    char why[256], note[96];

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^26 ints)", 1, 1, (1L << 30) - 16,
                  &args);
    aligned.n = past_one.n = args.nvalues > 0 ? (int)args.values[0] : 1 << 26;
    if (gl_device_query(&info, why, sizeof why) != 0)
        info.sms = 0; /* no GPU: gl_demo_cases says so (gl_demo_begin) and exits */
    snprintf(note, sizeof note, "n = %d ints, %d blocks of %d threads", aligned.n,
             VL_BLOCKS_PER_SM * info.sms, VL_BLOCK);
    return gl_demo_cases("07-vectorized-loads", note, cases, vl_problem, &options, &args);
}
