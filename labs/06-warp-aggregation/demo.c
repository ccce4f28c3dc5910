/* demo.c: lab 06-warp-aggregation's comparison table: make run LAB=06 (your
 * warp_aggregation.cu), make demo LAB=06 (the reference), build/.../demo [--csv FILE] [N]
 * (default 2^24 elements). Each variant is checked as the grader checks it (lab.c), then timed
 * on the lab's problem (median of 21 runs, L2 flushed before each) and compared with the row it
 * improves on (x_baseline: that row's time over this one's). The input: random values in
 * [-10^8, 10^8]: about half are positive (the filters keep those), each emits 0 .. WA_MAX_ITEMS
 * items. */
#include "lab.h"

#include <stdio.h>

static wa_size z;
static char items[6][24];

/* The grader's check (two calls in a row) on the input every variant is timed on: the seed's */
static const char *check(const char *launcher, void *size)
{
    wa_size twice = {.n = ((wa_size *)size)->n, .twice = 1};
    gl_problem p = wa_problem(launcher, &twice);
    return gl_problem_check(launcher, &p, gl_seed());
}

#define CASE(fn, k, base) \
    {.launcher = fn, .label = fn, .keys = {items[k]}, .size = &z, .over = &cases[base]}
static gl_demo_case cases[] = {
    CASE("filter_atomic", 0, 0), CASE("filter_coalesced", 1, 0), CASE("filter_intrinsics", 2, 0),
    CASE("emit_atomic", 3, 3), CASE("emit_warp", 4, 3), CASE("emit_block", 5, 4),
    {.launcher = NULL}};

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.speedup = "x_baseline", .keys = {"items"},
        .no_memcpy = 1, .rates = {"Gelem/s", "Gitems/s"}, .check = check};
    gl_demo_args args;
    gl_device_info info;
    char why[256], note[128];
    gl_demo_dims(argc, argv, "[--csv FILE] [N]  (default 2^24 elements)", 1, 1 << 24, 1L << 26,
                 &args, &z.n);
    if (gl_device_query(&info, why, sizeof why) == 0) { /* else gl_demo_begin says why, exits */
        gl_problem p = wa_problem("emit_atomic", &z);
        gl_buf b[3] = {gl_problem_alloc(&p.buf[0], 0), gl_problem_alloc(&p.buf[1], 0),
                       gl_problem_alloc(&p.buf[2], 0)};
        int count;
        gl_problem_make(&p, 0, b[0].ptr, gl_problem_seed(gl_seed(), 0)); /* as timed */
        for (int v = 0; v < 6; v++) { /* its elements, and the items the given kind appends */
            p.call(p.ctx, cases[v / 3 * 3].launcher, (void *[]){b[0].ptr, b[1].ptr, b[2].ptr});
            gl_buf_download(&b[2], &count);
            cases[v].counts[0] = z.n;
            cases[v].counts[1] = count;
            snprintf(items[v], sizeof items[v], "%d", count);
        }
        for (int k = 0; k < 3; k++)
            gl_buf_free(&b[k]);
    }
    snprintf(note, sizeof note, "n = %d elements, blocks of %d threads, 0 .. %d items per "
             "element", z.n, WA_BLOCK, WA_MAX_ITEMS);
    return gl_demo_cases("06-warp-aggregation", note, cases, wa_problem, &options, &args);
}
