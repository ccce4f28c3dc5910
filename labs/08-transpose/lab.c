/* lab.c: lab 08-transpose described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*transpose_fn)(float *out, const float *in, int rows, int cols);

static long long call_transpose(void *fn, const gl_arg *a)
{
    ((transpose_fn)fn)((float *)a[0].p, (const float *)a[1].p, (int)a[2].i, (int)a[3].i);
    return 0;
}

const gl_launcher LAB_LAUNCHERS[] = {
    {"transpose_copy", "ppii", call_transpose, GL_GIVEN},
    {"transpose_naive", "ppii", call_transpose, GL_GIVEN},
    {"transpose_tiled", "ppii", call_transpose, 0},
    {"transpose_padded", "ppii", call_transpose, 0},
    {NULL, NULL, NULL, 0},
};

void transpose_run(const char *name, float *out, const float *in, int rows, int cols)
{
    gl_arg a[] = {GL_P(out), GL_P(in), GL_I(rows), GL_I(cols)};
    gl_exec(name, a);
}

void transpose_make(gl_rng *rng, int rows, int cols, float **in, float **ref)
{
    size_t n = (size_t)rows * cols;
    int r, c;
    *in = malloc(n * sizeof(float) + 1);
    *ref = malloc(n * sizeof(float) + 1);
    if (!*in || !*ref)
        gl_fail("out of host memory for a %d x %d matrix", rows, cols);
    gl_fill_float(rng, *in, n, -1.0f, 1.0f);
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            (*ref)[(size_t)c * rows + r] = (*in)[(size_t)r * cols + c];
}

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(const gl_cmp *cmp)
{
    if (cmp->unwritten == cmp->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (cmp->unwritten)
        return "Some elements were never written: the bounds test or the index arithmetic "
               "skips them (when the size is not a multiple of 32, the last tiles stick out of "
               "the matrix: test each element, not the whole tile)";
    return "Wrong values: for the write, the block indices swap (blockIdx.y picks the tile's "
           "column of out) and out has `rows` columns; a missing __syncthreads() reads tile "
           "elements other warps have not written yet";
}

const char *transpose_check(const char *launcher, int rows, int cols, const float *h_in,
                            const float *h_ref)
{
    static char why[2048];
    size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
    /* a missing bounds test writes up to 31 rows or columns too far */
    size_t guard = (size_t)32 * (size_t)(rows > cols ? rows : cols) * sizeof(float) + 4096;
    gl_buf in = gl_buf_alloc(bytes, guard), out = gl_buf_alloc(bytes, guard);
    float *h_out = malloc(bytes + 1), *h_back = malloc(bytes + 1);
    int copy = !strcmp(launcher, "transpose_copy"); /* the given copy does not transpose */
    int out_cols = copy ? cols : rows;
    gl_guard_report g;
    gl_cmp cmp;

    if (!h_out || !h_back)
        gl_fail("out of host memory for a %d x %d matrix", rows, cols);
    why[0] = '\0';
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    transpose_run(launcher, out.ptr, in.ptr, rows, cols);
    GL_CHECK_LAUNCH(launcher);
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, bytes, sizeof(float), "out", d, sizeof d);
        snprintf(why, sizeof why, "%s: the bounds test for the last, partial tiles is missing or "
                 "wrong", d);
    } else if (gl_buf_check_guards(&in, &g)) {
        snprintf(why, sizeof why, "wrote outside `in`, which is read-only input");
    } else {
        gl_buf_download(&in, h_back);
        gl_buf_download(&out, h_out);
        if (memcmp(h_back, h_in, bytes) != 0) {
            snprintf(why, sizeof why, "changed `in`: the input is read-only");
        } else if (gl_compare_float(copy ? h_in : h_ref, h_out, n, 0.0, 0.0, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, "out", gl_index_2d, &out_cols, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d, hint(&cmp));
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_out);
    free(h_back);
    return why;
}

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const transpose_size *z = ctx;
    (void)k;
    gl_device_fill_float(dst, (size_t)z->rows * z->cols, -1.0f, 1.0f, seed);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const transpose_size *z = ctx;
    transpose_run(launcher, buf[1], buf[0], z->rows, z->cols);
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
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call, .reference = copy ? NULL : "transpose_naive",
                    .reference_fn = copy ? problem_copy : NULL, .inputs_read_only = 1,
                    .work = 2.0 * (double)bytes, .sets = 8, .rounds = 5};
    snprintf(z->what, sizeof z->what, "at %d x %d", z->rows, z->cols);
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = bytes, .row = (size_t)z->cols};
    p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes,
                                .row = (size_t)(copy ? z->cols : z->rows)};
    return p;
}
