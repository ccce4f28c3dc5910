/* demo.c: lab 13-occupancy's comparison table.
 *
 *   make run LAB=13      your occupancy.cu        make demo LAB=13   the reference
 *   build/.../demo [--csv FILE] [N]               (default n = 2^22: a 256 MiB table)
 *
 * The sweep: the given walk on blocks_per_sm blocks of `threads` threads per SM, from 2 to 64
 * warps per SM (walk_sized): more warps in flight hide more of the latency, until the memory
 * system is busy and more buys nothing. Then each task against its given launcher: its
 * speedup is the ratio the grader's performance tests claim. Each row runs once and is checked
 * as the grader checks it (the lab's problem, lab.c); a right one is then timed (median of 21
 * runs, L2 flushed before each) and reported as effective bandwidth (the table's bytes read and
 * out written, per second) and as a share of cudaMemcpy device to device. */
#include "lab.h"

#include <stdio.h>

#define AT(t, b) {.threads = t, .blocks_per_sm = b}
static walk_size plain, sweep[8] = {AT(64, 1),  AT(128, 1), AT(256, 1), AT(256, 2),
                                    AT(256, 3), AT(256, 4), AT(256, 6), AT(256, 8)};

#define SWEEP(k, t, b, w)                                                                     \
    {.launcher = "walk_sized", .label = "walk_sized", .keys = {t, b, w}, .size = &sweep[k],   \
     .over = &cases[0]}
#define TASK(fn, over_case, t, b)                                                             \
    {.launcher = fn, .label = fn, .keys = {t, b, "-"}, .size = &plain, .over = over_case}
static const gl_demo_case cases[] = {
    SWEEP(0, "64", "1", "2"),   SWEEP(1, "128", "1", "4"),  SWEEP(2, "256", "1", "8"),
    SWEEP(3, "256", "2", "16"), SWEEP(4, "256", "3", "24"), SWEEP(5, "256", "4", "32"),
    SWEEP(6, "256", "6", "48"), SWEEP(7, "256", "8", "64"),
    TASK("walk_one_block_per_sm", &cases[8], "64", "1"),
    TASK("walk_occupancy_api", &cases[8], "-", "-"),
    TASK("mix_walk", &cases[10], "512", "-"),
    TASK("mix_walk_bounded", &cases[10], "512", "-"),
    {.launcher = NULL},
};

int main(int argc, char **argv)
{
    static const gl_demo_options options = {
        .speedup = "speedup", .keys = {"threads", "blocks_per_sm", "warps_per_sm"}};
    gl_demo_args args;
    char note[96];
    int k;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^22)", 1, 1, WALK_MAX_N, &args);
    plain.n = args.nvalues > 0 ? (int)args.values[0] : 1 << 22;
    for (k = 0; k < 8; k++)
        sweep[k].n = plain.n;
    snprintf(note, sizeof note, "n = %d walks of %d steps (a %d MiB table)", plain.n, WALK_HOPS,
             (int)((double)WALK_HOPS * plain.n * 4 / (1 << 20)));
    return gl_demo_cases("13-occupancy", note, cases, walk_problem, &options, &args);
}
