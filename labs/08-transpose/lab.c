/* lab.c: lab 08-transpose described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <string.h>

GL_INVOKER(call_transpose, transpose_naive, a, a[0].p, a[1].p, (int)a[2].i, (int)a[3].i)

const gl_launcher LAB_LAUNCHERS[] = {
    {"transpose_copy", "ppii", call_transpose, GL_GIVEN},
    {"transpose_naive", "ppii", call_transpose, GL_GIVEN},
    {"transpose_tiled", "ppii", call_transpose, 0},
    {"transpose_padded", "ppii", call_transpose, 0},
    {NULL, NULL, NULL, 0},
};

/* Runs launcher: in the demo, the linked one; in the grader, the student's in its own
 * process, or the kit's own. */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const transpose_size *z = ctx;
    gl_arg a[] = {GL_P(buf[1]), GL_P(buf[0]), GL_I(z->rows), GL_I(z->cols)};
    gl_exec(launcher, a);
}

static void problem_copy(void *ctx, void *const *buf)
{
    const transpose_size *z = ctx;
    gl_device_copy_words_strided(buf[1], 1, buf[0], 1, (size_t)z->rows * z->cols);
}

gl_problem transpose_problem(const char *launcher, void *size)
{
    transpose_size *z = size;
    size_t bytes = (size_t)z->rows * z->cols * sizeof(float);
    int copy = !strcmp(launcher, "transpose_copy");
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = 1, .ctx = z,
                    .call = problem_call, .reference = copy ? NULL : "transpose_naive",
                    .reference_fn = copy ? problem_copy : NULL, .inputs_read_only = 1,
                    .work = 2.0 * (double)bytes, .sets = 8, .rounds = 5};
    /* a missing bounds test writes up to 31 rows or columns too far; and a page more */
    size_t guard = 32 * (size_t)(z->rows > z->cols ? z->rows : z->cols) * sizeof(float) + 4096;
    snprintf(z->what, sizeof z->what, "at %d x %d", z->rows, z->cols);
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = bytes, .row = (size_t)z->cols,
                                .outside = "in is the read-only input", .guard = guard};
    p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes, .cmp = GL_CMP_FLOAT, /* exact */
                                .row = (size_t)(copy ? z->cols : z->rows), .guard = guard,
                                .outside = "the bounds test for the last, partial tiles is "
                                           "missing or wrong"};
    /* what usually causes what the comparison found, in the lab's terms */
    p.hint_none = "Is the kernel still a TODO, or is it never launched?";
    p.hint_partly = "Some elements were never written: the bounds test or the index arithmetic "
                    "skips them (when the size is not a multiple of 32, the last tiles stick "
                    "out of the matrix: test each element, not the whole tile)";
    p.hint = "Wrong values: for the write, the block indices swap (blockIdx.y picks the tile's "
             "column of out) and out has `rows` columns; a missing __syncthreads() reads tile "
             "elements other warps have not written yet";
    return p;
}
