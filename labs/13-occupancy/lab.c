/* lab.c: lab 13-occupancy described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <string.h>

GL_INVOKER(call_walk, walk_one_block_per_sm, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_sized, walk_sized, a, a[0].p, a[1].p, (int)a[2].i, (int)a[3].i, (int)a[4].i)

const gl_launcher LAB_LAUNCHERS[] = {
    {"walk_one_block_per_sm", "ppi", call_walk, GL_GIVEN},
    {"walk_sized", "ppiii", call_sized, GL_GIVEN},
    {"walk_occupancy_api", "ppi", call_walk, 0},
    {"mix_walk", "ppi", call_walk, GL_GIVEN},
    {"mix_walk_bounded", "ppi", call_walk, 0},
    {NULL, NULL, NULL, 0},
};

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const walk_size *z = ctx;
    (void)k;
    gl_device_fill_int(dst, (size_t)WALK_HOPS * z->n, 0, WALK_REACH - 1, seed);
}

/* Runs launcher: in the demo, the linked one; in the grader, the student's in its own
 * process, or the kit's own. */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const walk_size *z = ctx;
    gl_arg a[] = {GL_P(buf[1]), GL_P(buf[0]), GL_I(z->n), GL_I(z->threads),
                  GL_I(z->blocks_per_sm)};
    gl_exec(launcher, a);
}

gl_problem walk_problem(const char *launcher, void *size)
{
    walk_size *z = size;
    int mixed = !strncmp(launcher, "mix_", 4);
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call,
                    .reference = mixed ? "mix_walk" : "walk_one_block_per_sm",
                    .inputs_read_only = 1, .work = (WALK_HOPS + 1.0) * z->n * sizeof(int),
                    .sets = 4, .rounds = 5};
    snprintf(z->what, sizeof z->what, "at n = %d", z->n);
    p.buf[0] = (gl_problem_buf){.name = "table", .bytes = (size_t)WALK_HOPS * z->n * sizeof(int),
                                .row = (size_t)z->n, .outside = "table is the read-only input"};
    /* a missing bounds test writes up to a block (1024 threads) past the end */
    p.buf[1] = (gl_problem_buf){.name = "out", .bytes = (size_t)z->n * sizeof(int),
                                .cmp = GL_CMP_WORDS, .guard = 4096 + 1024 * sizeof(int),
                                .outside = "only out[0 .. n - 1] is written: the bounds test "
                                           "(i < n) is missing or wrong"};
    /* what usually causes what the comparison found, in the lab's terms */
    p.hint_none = mixed ? "Does mix_walk_bounded still launch its kernel on every n > 0?"
                        : "Is walk_occupancy_api still a TODO, or is its grid or block 0 (the "
                          "occupancy API's answers not read back, or for another kernel)?";
    p.hint_partly = "Some elements were never written: the grid-stride loop must start at the "
                    "thread's index in the whole grid (blockIdx.x * blockDim.x + threadIdx.x) "
                    "and step by the grid's threads (gridDim.x * blockDim.x) while i < n";
    p.hint = "Wrong values: step s reads row s of the table at the current column, "
             "table[s * n + c], and moves to (i + that value) % n; the mixed walk mixes every "
             "word on every step";
    return p;
}
