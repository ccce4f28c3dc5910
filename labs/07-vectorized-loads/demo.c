/* demo.c: lab 07-vectorized-loads's comparison table.
 *
 *   make run LAB=07      your vectorized_loads.cu     make demo LAB=07   the reference
 *   build/.../demo [--csv FILE] [N]                   (default 2^26 ints)
 *
 * Each variant is checked as the grader checks it (lab.c), a right one timed (median of 21, L2
 * flushed): effective bandwidth (bytes read + written a second), share of cudaMemcpy device to
 * device, speedup over its scalar version (copies and scaled adds move different bytes). "+1"
 * rows start every array an int past a 16-byte boundary: the launcher must take its scalar path. */
#include "lab.h"

#include <stdio.h>

static vl_size aligned, past_one = {.at = {1, 1, 1}};

/* launcher fn on size z, its label fn and then more, its speedup over case scalar */
#define CASE(fn, more, z, scalar) \
    {.launcher = fn, .label = fn more, .size = &z, .over = &cases[scalar]}
static const gl_demo_case cases[] = {
    CASE("copy_int", "", aligned, 0), CASE("copy_int2", "", aligned, 0),
    CASE("copy_int4", "", aligned, 0), CASE("copy_int4", " +1", past_one, 0),
    CASE("scaled_add_int", "", aligned, 4), CASE("scaled_add_int4", "", aligned, 4),
    CASE("scaled_add_int4", " +1", past_one, 4), {.launcher = NULL}};

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.speedup = "x_scalar"};
    gl_demo_args args;
    gl_device_info info;
    char why[256], note[96];
    gl_demo_dims(argc, argv, "[--csv FILE] [N]  (default 2^26 ints)", 1, 1 << 26,
                 (1L << 30) - 16, &args, &aligned.n);
    past_one.n = aligned.n;
    if (gl_device_query(&info, why, sizeof why) != 0)
        info.sms = 0; /* no GPU: gl_demo_cases says so (gl_demo_begin) and exits */
    snprintf(note, sizeof note, "n = %d ints, %d blocks of %d threads", aligned.n,
             VL_BLOCKS_PER_SM * info.sms, VL_BLOCK);
    return gl_demo_cases("07-vectorized-loads", note, cases, vl_problem, &options, &args);
}
