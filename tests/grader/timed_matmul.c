/* timed_matmul.c: the timed square products of labs 09 and 11 (grader.h,
 * gl_time_matmul): the judge's clock over fresh A and B every call, each C
 * checked on the GPU against A and B made again. */
#include "grader.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_device_data.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const gl_matmul_timing *m;
    gl_buf a[GL_MATMUL_SETS], b[GL_MATMUL_SETS], c[GL_MATMUL_SETS];
    gl_buf again_a, again_b; /* a call's A and B made again, to check its C against */
} timed;

/* A (which 1) or B (2) of call i in a round, made on the GPU from the seed: the same
 * again in verify, whatever the launcher did to the buffers. */
static void input(const timed *t, float *dst, int round, int i, int which)
{
    int d = t->m->dim;
    gl_device_fill_float(dst, (size_t)d * d, -1.0f, 1.0f,
                         gl_call_seed(round, i, t->m->sets) ^ ((unsigned long long)which << 40));
}

static void prepare(void *ctx, int round)
{
    timed *t = ctx;
    int i;
    for (i = 0; i < t->m->sets; i++) {
        input(t, t->a[i].ptr, round, i, 1);
        input(t, t->b[i].ptr, round, i, 2);
        gl_buf_poison(&t->c[i]);
    }
}

static void call(void *ctx, int i)
{
    timed *t = ctx;
    t->m->call(t->m->ctx, t->c[i].ptr, t->a[i].ptr, t->b[i].ptr, t->m->dim);
}

/* Every call's C of the round, on a sample, against a reference computed on the GPU in
 * double from the call's own A and B, made again. */
static void verify(void *ctx, int round)
{
    timed *t = ctx;
    const gl_matmul_timing *m = t->m;
    char why[1024];
    int i;
    for (i = 0; i < m->sets; i++) {
        gl_rng rng;
        gl_rng_init(&rng, gl_call_seed(round, i, m->sets) ^ (3ull << 40), m->stream);
        input(t, t->again_a.ptr, round, i, 1);
        input(t, t->again_b.ptr, round, i, 2);
        if (m->check(m->ctx, t->again_a.ptr, t->again_b.ptr, t->c[i].ptr, m->dim, m->sample,
                     &rng, why, sizeof why))
            gl_check_fail("%s is not right at m = n = k = %d in timed round %d, call %d (fresh A "
                          "and B every call), so its speed is not graded (the correctness tests "
                          "say more): %s",
                          m->label, m->dim, round, i + 1, why);
    }
}

double gl_time_matmul(const gl_matmul_timing *m)
{
    timed *t = gl_malloc(sizeof *t);
    gl_timed clock = {m->sets, 5, prepare, call, verify, NULL};
    size_t bytes = (size_t)m->dim * m->dim * sizeof(float);
    double ms;
    int i;

    if (m->sets < 1 || m->sets > GL_MATMUL_SETS)
        gl_fail("grader bug: %d timed products a round (1 to %d)", m->sets, GL_MATMUL_SETS);
    memset(t, 0, sizeof *t);
    t->m = m;
    for (i = 0; i < m->sets; i++) {
        t->a[i] = gl_buf_alloc(bytes, 0);
        t->b[i] = gl_buf_alloc(bytes, 0);
        t->c[i] = gl_buf_alloc(bytes, 0);
    }
    t->again_a = gl_buf_alloc(bytes, 0);
    t->again_b = gl_buf_alloc(bytes, 0);
    if (m->given) {
        clock.verify = NULL; /* the kit's own */
        ms = gl_time_baseline(&clock, t);
    } else {
        ms = gl_time_student(&clock, t);
    }
    for (i = 0; i < m->sets; i++) {
        gl_buf_free(&t->a[i]);
        gl_buf_free(&t->b[i]);
        gl_buf_free(&t->c[i]);
    }
    gl_buf_free(&t->again_a);
    gl_buf_free(&t->again_b);
    free(t);
    return ms;
}
