/* perf.c: a launcher run by the grader on a lab's problem (gl_perf, grader.h): timed on fresh
 * inputs and checked against the reference (gl_perf_ms), or shown to only enqueue its work
 * (gl_perf_queued). It owns the problem's buffers, the making of its inputs from the seed and
 * the check of the outputs; the clock is clock.c's, the delayed copy harness.c's. */
#include "grader.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_device_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SETS 31

typedef struct {
    const gl_perf *p;
    const char *launcher;
    gl_buf set[MAX_SETS][GL_PERF_BUFS]; /* each call's buffers */
    gl_buf again[GL_PERF_BUFS];         /* inputs made again, and the expected outputs */
} run;

static int nbufs(const gl_perf *p)
{
    return p->inputs + p->outputs;
}

static int is_made(const gl_perf *p, int k)
{
    return k < p->inputs || p->buf[k].made;
}

/* Buffer k of call i in a round: its own stream of the seed (the first buffer's is
 * gl_call_seed's), the same again when verify makes it again. */
static unsigned long long buf_seed(const gl_perf *p, int round, int i, int k)
{
    return gl_call_seed(round, i, p->sets) ^ (0x9e3779b97f4a7c15ull * (unsigned long long)k);
}

static void prepare(void *ctx, int round)
{
    run *r = ctx;
    const gl_perf *p = r->p;
    int i, k;
    for (i = 0; i < p->sets; i++)
        for (k = 0; k < nbufs(p); k++) {
            if (k >= p->inputs) /* an output, for the seal (outputs.c), even one made */
                gl_buf_poison(&r->set[i][k]);
            if (is_made(p, k))
                p->make(p->ctx, k, r->set[i][k].ptr, buf_seed(p, round, i, k));
        }
}

static void call(void *ctx, int i)
{
    run *r = ctx;
    void *b[GL_PERF_BUFS];
    int k;
    for (k = 0; k < nbufs(r->p); k++)
        b[k] = r->set[i][k].ptr;
    r->p->call(r->p->ctx, r->launcher, b);
}

static void setup(void *ctx, int round)
{
    run *r = ctx;
    r->p->setup(r->p->ctx, r->launcher, round);
}

/* "[i]", or "[row][col]" where the buffer has rows */
static void where(const gl_perf_buf *b, size_t i, char *out, size_t len)
{
    if (b->row)
        snprintf(out, len, "[%zu][%zu]", i / b->row, i % b->row);
    else
        snprintf(out, len, "[%zu]", i);
}

static size_t elem_size(const gl_perf_buf *b)
{
    return b->cmp == GL_CMP_DOUBLE ? 8 : 4;
}

static size_t wrong_at(const gl_perf_buf *b, const void *expected, const void *got, size_t *first)
{
    size_t n = b->bytes / elem_size(b);
    if (b->cmp == GL_CMP_FLOAT)
        return gl_device_diff_float(expected, got, n, (float)b->atol, (float)b->rtol, first);
    if (b->cmp == GL_CMP_DOUBLE)
        return gl_device_diff_double(expected, got, n, b->atol, b->rtol, first);
    return gl_device_diff_words(expected, got, b->bytes / 4, first);
}

/* Every output of the round against the reference on its inputs, made again. */
static void verify(void *ctx, int round)
{
    run *r = ctx;
    const gl_perf *p = r->p;
    void *again[GL_PERF_BUFS];
    char at[64];
    size_t first, wrong;
    int i, k;
    for (k = 0; k < nbufs(p); k++)
        again[k] = r->again[k].ptr;
    for (i = 0; i < p->sets; i++) {
        for (k = 0; k < nbufs(p); k++) {
            if (!is_made(p, k))
                continue;
            p->make(p->ctx, k, again[k], buf_seed(p, round, i, k));
            if (k < p->inputs && p->inputs_read_only &&
                gl_device_diff_words(again[k], r->set[i][k].ptr, p->buf[k].bytes / 4, &first)) {
                where(&p->buf[k], first, at, sizeof at);
                gl_check_fail("%s %s: in timed round %d its input %s changed at %s: the inputs "
                              "are read-only",
                              r->launcher, p->what, round, p->buf[k].name, at);
            }
        }
        if (p->reference) {
            p->call(p->ctx, p->reference, again);
            GL_CHECK_LAUNCH(p->reference);
        } else {
            p->reference_fn(p->ctx, again);
        }
        for (k = p->inputs; k < nbufs(p); k++) {
            const gl_perf_buf *b = &p->buf[k];
            wrong = wrong_at(b, again[k], r->set[i][k].ptr, &first);
            if (!wrong)
                continue;
            where(b, first, at, sizeof at);
            gl_check_fail("%s %s is not right in timed round %d (fresh random inputs), so "
                          "its speed is not graded: %s is wrong at %zu of %zu elements, first "
                          "at %s; %s (the correctness tests say more)",
                          r->launcher, p->what, round, b->name, wrong, b->bytes / elem_size(b),
                          at, p->hint ? p->hint : "every call must compute its whole output "
                                                  "from its own inputs");
        }
    }
}

double gl_perf_ms(const char *launcher, const gl_perf *p)
{
    const gl_launcher *l = gl_launcher_find(launcher);
    run *r;
    gl_timed t = {p->sets, p->rounds, prepare, call, verify, p->setup ? setup : NULL};
    double ms;
    int i, k;
    if (!l || p->sets < 1 || p->sets > MAX_SETS || nbufs(p) > GL_PERF_BUFS || p->outputs < 1 ||
        (!p->reference && !p->reference_fn))
        gl_kit_error("gl_perf_ms(%s, %s): a malformed problem", launcher, p->what);
    r = gl_malloc(sizeof *r);
    memset(r, 0, sizeof *r);
    r->p = p;
    r->launcher = launcher;
    for (i = 0; i < p->sets; i++)
        for (k = 0; k < nbufs(p); k++)
            r->set[i][k] = gl_buf_alloc(p->buf[k].bytes, 0);
    if (l->flags & GL_GIVEN) { /* the kit's own: once per lab and problem, not checked */
        char key[256];
        snprintf(key, sizeof key, "%s %s %d", launcher, p->what, p->sets);
        t.verify = NULL;
        if (p->baseline_sets > 0 && p->baseline_sets < p->sets)
            t.calls = p->baseline_sets;
        ms = gl_time_baseline_once(key, &t, r);
    } else {
        for (k = 0; k < nbufs(p); k++)
            r->again[k] = gl_buf_alloc(p->buf[k].bytes, 0);
        ms = gl_time_student(&t, r);
    }
    for (i = 0; i < p->sets; i++)
        for (k = 0; k < nbufs(p); k++)
            gl_buf_free(&r->set[i][k]);
    for (k = 0; k < nbufs(p); k++)
        gl_buf_free(&r->again[k]);
    free(r);
    return ms;
}

/* ---- the launcher only enqueues its work (gl_expect_queued) ---- */

typedef struct {
    const gl_perf *p;
    const char *launcher;
    gl_buf set[GL_PERF_BUFS], expected[GL_PERF_BUFS];
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    void *b[GL_PERF_BUFS];
    int k;
    for (k = 0; k < nbufs(q->p); k++)
        b[k] = q->set[k].ptr;
    q->p->call(q->p->ctx, q->launcher, b);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    size_t first;
    int k;
    for (k = q->p->inputs; k < nbufs(q->p); k++)
        if (wrong_at(&q->p->buf[k], q->expected[k].ptr, q->set[k].ptr, &first))
            return 0;
    return 1;
}

void gl_perf_queued(const char *launcher, const gl_perf *p)
{
    queued q;
    void *e[GL_PERF_BUFS];
    gl_buf staged;
    gl_queue_buffers b;
    unsigned long long seed = gl_seed() ^ 0x51ed27u;
    int k;
    if (nbufs(p) > GL_PERF_BUFS || p->outputs < 1 || p->inputs < 1 ||
        (!p->reference && !p->reference_fn))
        gl_kit_error("gl_perf_queued(%s, %s): a malformed problem", launcher, p->what);
    for (k = p->inputs; k < nbufs(p); k++)
        if (p->buf[k].made) /* the warm-up call would have updated it already */
            gl_kit_error("gl_perf_queued(%s, %s): an output updated in place", launcher, p->what);
    memset(&q, 0, sizeof q);
    q.p = p;
    q.launcher = launcher;
    for (k = 0; k < nbufs(p); k++) { /* the expected outputs, from the inputs made here */
        q.set[k] = gl_buf_alloc(p->buf[k].bytes, 0);
        q.expected[k] = gl_buf_alloc(p->buf[k].bytes, 0);
        e[k] = q.expected[k].ptr;
        if (is_made(p, k)) {
            p->make(p->ctx, k, q.set[k].ptr, seed + (unsigned long long)k);
            p->make(p->ctx, k, e[k], seed + (unsigned long long)k);
        }
    }
    if (p->reference) {
        p->call(p->ctx, p->reference, e);
        GL_CHECK_LAUNCH(p->reference);
    } else {
        p->reference_fn(p->ctx, e);
    }
    /* the first input arrives by the delayed copy, from staged */
    staged = gl_buf_alloc(p->buf[0].bytes, 0);
    p->make(p->ctx, 0, staged.ptr, seed);
    b = (gl_queue_buffers){q.set[0].ptr, staged.ptr, p->buf[0].bytes, q.set[p->inputs].ptr,
                           p->buf[p->inputs].bytes};
    gl_expect_queued(launcher, queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    for (k = 0; k < nbufs(p); k++) {
        gl_buf_free(&q.set[k]);
        gl_buf_free(&q.expected[k]);
    }
}
