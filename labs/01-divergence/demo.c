/* demo.c: lab 01-divergence's comparison table.
 *
 *   make run LAB=01      your divergence.cu     make demo LAB=01   the reference
 *   build/.../demo [--csv FILE] [N]             (default 2^24 elements)
 *
 * Each variant is checked as the grader checks it (lab.c), a right one timed (median of 21, L2
 * flushed) and compared with the row it improves on (x_baseline: its time over this one's).
 * "random": each element's class a coin toss; "partitioned": the same values, the light ones
 * first: whole warps agree. Gelem/s: input elements a second (gf_mul's too: 255 a block). */
#include "lab.h"

#include <stdio.h>

static div_size in_random, in_partitioned = {.input = DIV_PARTITIONED};

/* launcher on the input (random or partitioned), its speedup over case base */
#define CASE(fn, input, base) \
    {.launcher = fn, .label = fn, .keys = {#input}, .size = &in_##input, .over = &cases[base]}
static gl_demo_case cases[] = {
    CASE("branch_by_lane", random, 0), CASE("branch_by_warp", random, 0),
    CASE("same_code_by_lane", random, 2), CASE("same_code_by_warp", random, 2),
    CASE("classify", random, 4), CASE("classify", partitioned, 4),
    CASE("classify_partitioned", random, 4), CASE("classify_partitioned", partitioned, 4),
    CASE("block_products_interleaved", random, 8), CASE("block_products_contiguous", random, 8),
    {.launcher = NULL}};

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.speedup = "x_baseline", .keys = {"input"},
                                            .no_memcpy = 1, .rates = {"Gelem/s"}};
    gl_demo_args args;
    char note[160];
    gl_demo_dims(argc, argv, "[--csv FILE] [N]  (default 2^24 elements)", 1, 1 << 24, 1L << 28,
                 &args, &in_random.n);
    in_partitioned.n = in_random.n;
    for (int i = 0; cases[i].launcher; i++) /* elements a call: the rate */
        cases[i].counts[0] = in_random.n;
    snprintf(note, sizeof note, "n = %d elements, blocks of %d threads, %d rounds of heavy "
             "work, block products in GF(2^32)", in_random.n, DIV_BLOCK, DIV_ROUNDS);
    return gl_demo_cases("01-divergence", note, cases, div_problem, &options, &args);
}
