/* lab.c: lab 14-stencil described once (lab.h). */
#include "lab.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

GL_INVOKER(call_stencil, stencil_global, a, a[0].p, a[1].p, (int)a[2].i, (int)a[3].i, (int)a[4].i)

const gl_launcher LAB_LAUNCHERS[] = {
    {"stencil_global", "ppiii", call_stencil, GL_GIVEN},
    {"stencil_ldg", "ppiii", call_stencil, GL_GIVEN},
    {"stencil_shared", "ppiii", call_stencil, 0},
    {"stencil_texture", "ppiii", call_stencil, 0},
    {NULL, NULL, NULL, 0},
};

/* Runs launcher: in the demo, the linked one; in the grader, the student's in its own
 * process, or the kit's own. Every buffer of the kit starts on a GL_GUARD_ALIGN boundary, at
 * least STENCIL_BASE_ALIGN: a texture's base must be aligned so. */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const stencil_size *z = ctx;
    gl_arg a[] = {GL_P(buf[1]), GL_P(buf[0]), GL_I(z->rows), GL_I(z->cols), GL_I(z->pitch)};
    gl_exec(launcher, a);
}

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(void *ctx, const char *launcher, const gl_cmp *c)
{
    (void)ctx;
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched? (Task 2: did "
               "cudaCreateTextureObject fail? Its error says why.)";
    if (c->unwritten)
        return "Some pixels were never written: each thread must write every pixel of its "
               "own that is inside the image (rows and columns that are not multiples of "
               "TILE leave the last tiles sticking out of it: test each pixel)";
    if (!strcmp(launcher, "stencil_texture"))
        return "Wrong values: the texture must clamp (cudaAddressModeClamp in x and y, not "
               "Border), sample points (cudaFilterModePoint), address pixels "
               "(normalizedCoords = 0) at their centres (col + 0.5f, row + 0.5f), x the "
               "column; its rows are pitch * sizeof(float) bytes apart";
    return "Wrong values: the tile needs RADIUS pixels of halo on every side (HALO_TILE = TILE "
           "+ 2 * RADIUS), each loaded from the clamped row and column, rows of in pitch "
           "floats apart; a missing __syncthreads() reads tile elements that other warps "
           "have not loaded yet";
}

gl_problem stencil_problem(const char *launcher, void *size)
{
    stencil_size *z = size;
    size_t pixels = (size_t)z->rows * z->cols;
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = 1, .ctx = z,
                    .call = problem_call, .reference = "stencil_global",
                    .inputs_read_only = 1, .hint_of = hint,
                    .work = 2.0 * (double)pixels * sizeof(float), .sets = 8, .rounds = 5};
    (void)launcher; /* one problem for every launcher */
    /* a missing bounds test writes up to 31 rows or columns too far */
    size_t guard = (size_t)32 * (size_t)(z->rows > z->cols ? z->rows : z->cols) * sizeof(float);
    if (z->pitch < z->cols)
        z->pitch = (z->cols + STENCIL_PITCH_ALIGN - 1) / STENCIL_PITCH_ALIGN * STENCIL_PITCH_ALIGN;
    snprintf(z->what, sizeof z->what, "at %d x %d (pitch %d)", z->rows, z->cols, z->pitch);
    p.buf[0] = (gl_problem_buf){
        .name = "in", .bytes = (size_t)z->rows * z->pitch * sizeof(float),
        .outside = "in is the read-only image"};
    p.buf[1] = (gl_problem_buf){.name = "out", .bytes = pixels * sizeof(float),
                                .cmp = GL_CMP_FLOAT, .atol = 2e-5, .rtol = 1e-5,
                                .row = (size_t)z->cols,
                                .outside = "the bounds test for the last, partial tiles is "
                                           "missing or wrong",
                                .guard = guard + 4096};
    return p;
}
