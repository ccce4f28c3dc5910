/* gl_problem.c: one call of a launcher on a lab's problem, checked, or timed for a demo
 * (gl_problem.h). */
#include "gl_problem.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_device_data.h"
#include "gl_timing.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long long gl_problem_seed(unsigned long long seed, int k)
{
    return seed ^ (0x9e3779b97f4a7c15ull * (unsigned long long)k);
}

static size_t elem_size(const gl_problem_buf *b)
{
    return b->cmp == GL_CMP_DOUBLE ? 8 : 4;
}

size_t gl_problem_wrong(const gl_problem_buf *b, const void *expected, const void *got,
                        size_t *first)
{
    size_t n = b->bytes / elem_size(b);
    *first = 0;
    if (b->cmp == GL_CMP_FLOAT)
        return gl_device_diff_float(expected, got, n, (float)b->atol, (float)b->rtol, first);
    if (b->cmp == GL_CMP_DOUBLE)
        return gl_device_diff_double(expected, got, n, b->atol, b->rtol, first);
    return gl_device_diff_words(expected, got, b->bytes / 4, first);
}

int gl_problem_value(const gl_problem_buf *b, const void *expected, const void *got, char *out,
                     size_t len)
{
    union {
        float f;
        double d;
        int i;
    } e, g;
    if (b->bytes != elem_size(b))
        return 0;
    GL_CUDA(cudaMemcpy(&e, expected, b->bytes, cudaMemcpyDefault));
    GL_CUDA(cudaMemcpy(&g, got, b->bytes, cudaMemcpyDefault));
    if (b->cmp == GL_CMP_FLOAT)
        snprintf(out, len, "%.9g, expected %.9g within %.3g", (double)g.f, (double)e.f,
                 b->atol + b->rtol * fabs((double)e.f));
    else if (b->cmp == GL_CMP_DOUBLE)
        snprintf(out, len, "%.17g, expected %.17g within %.3g", g.d, e.d,
                 b->atol + b->rtol * fabs(e.d));
    else if (b->cmp == GL_CMP_UINT)
        snprintf(out, len, "%u, expected %u", (unsigned)g.i, (unsigned)e.i);
    else
        snprintf(out, len, "%d, expected %d", g.i, e.i);
    return 1;
}

void gl_problem_where(const gl_problem_buf *b, size_t i, char *out, size_t len)
{
    if (b->row)
        snprintf(out, len, "[%zu][%zu]", i / b->row, i % b->row);
    else
        snprintf(out, len, "[%zu]", i);
}

size_t gl_problem_outside(const gl_problem_buf *b, const gl_buf *buf, char *why, size_t len)
{
    gl_guard_report r;
    size_t changed = gl_buf_check_guards(buf, &r), n;
    if (!changed)
        return 0;
    gl_guard_describe(&r, b->bytes, elem_size(b), b->name, why, len);
    n = strlen(why);
    if (b->outside && n < len)
        snprintf(why + n, len - n, ": %s", b->outside);
    return changed;
}

size_t gl_problem_changed(const gl_problem_buf *b, const void *made, const void *got, char *why,
                          size_t len)
{
    size_t first, changed = gl_device_diff_words(made, got, b->bytes / 4, &first);
    char at[64];
    if (!changed)
        return 0;
    gl_problem_where(b, first / (elem_size(b) / 4), at, sizeof at); /* the word's element */
    snprintf(why, len, "its input %s changed at %s: %s", b->name, at,
             b->outside ? b->outside : "the inputs are read-only");
    return changed;
}

void gl_problem_make(const gl_problem *p, int k, void *dst, unsigned long long seed)
{
    if (p->make)
        p->make(p->ctx, k, dst, seed);
    else
        gl_device_fill_float(dst, p->buf[k].bytes / sizeof(float), -1.0f, 1.0f, seed);
}

gl_buf gl_problem_alloc(const gl_problem_buf *b, size_t guard)
{
    return b->host ? gl_buf_alloc_host(b->bytes, guard) : gl_buf_alloc(b->bytes, guard);
}

static int nbufs(const gl_problem *p)
{
    return p->inputs + p->outputs;
}

static void where_in(size_t i, const void *b, char *out, size_t len)
{
    gl_problem_where(b, i, out, len);
}

void gl_problem_describe(const gl_problem *p, const gl_problem_buf *b, const char *launcher,
                         const void *expected, const void *got, size_t wrong, size_t first,
                         char *why, size_t len)
{
    size_t n = b->bytes / elem_size(b), w;
    void *e = malloc(b->bytes + 1), *g = malloc(b->bytes + 1);
    const char *hint;
    char value[192], at[64];
    gl_cmp c;
    if (!e || !g)
        gl_fail("out of host memory to compare %s (%zu bytes)", b->name, b->bytes);
    GL_CUDA(cudaMemcpy(e, expected, b->bytes, cudaMemcpyDefault));
    GL_CUDA(cudaMemcpy(g, got, b->bytes, cudaMemcpyDefault));
    if (b->cmp == GL_CMP_FLOAT)
        gl_compare_float(e, g, n, b->atol, b->rtol, &c);
    else if (b->cmp == GL_CMP_DOUBLE)
        gl_compare_double(e, g, n, b->atol, b->rtol, &c);
    else if (b->cmp == GL_CMP_UINT)
        gl_compare_uint(e, g, n, &c);
    else
        gl_compare_int(e, g, n, &c);
    hint = p->hint_of_values ? p->hint_of_values(p->ctx, launcher, b, &c, e, g)
           : p->hint_of ? p->hint_of(p->ctx, launcher, &c)
           : c.unwritten == c.n && p->hint_none ? p->hint_none
           : c.unwritten && p->hint_partly ? p->hint_partly
           : p->hint  ? p->hint
                      : "every call must compute its whole output from its own inputs";
    if (!c.unwritten && gl_problem_value(b, expected, got, value, sizeof value)) {
        snprintf(why, len, "%s is %s. %s", b->name, value, hint);
    } else if (c.wrong == 0) { /* within the tolerance on the host, just out of it on the GPU */
        gl_problem_where(b, first, at, sizeof at);
        snprintf(why, len, "%s is wrong at %zu of %zu elements, first %s%s. %s", b->name, wrong,
                 n, b->name, at, hint);
    } else {
        gl_cmp_describe(&c, b->name, where_in, b, why, len);
        w = strlen(why);
        if (w < len)
            snprintf(why + w, len - w, ". %s", hint);
    }
    free(e);
    free(g);
}

const char *gl_problem_check(const char *launcher, const gl_problem *p, unsigned long long seed)
{
    static char why[2048];
    gl_buf got[GL_PROBLEM_BUFS], want[GL_PROBLEM_BUFS];
    void *g[GL_PROBLEM_BUFS], *w[GL_PROBLEM_BUFS];
    char place[1024];
    size_t first, wrong;
    int k;
    why[0] = '\0';
    if (nbufs(p) > GL_PROBLEM_BUFS || p->outputs < 1 ||
        (!p->reference && !p->reference_fn && !p->verify))
        gl_fail("gl_problem_check(%s, %s): a malformed problem", launcher, p->what);
    for (k = 0; k < nbufs(p); k++) {
        got[k] = gl_problem_alloc(&p->buf[k], p->buf[k].guard);
        want[k] = gl_problem_alloc(&p->buf[k], 0);
        g[k] = got[k].ptr;
        w[k] = want[k].ptr;
        if (k >= p->inputs)
            gl_buf_poison(&got[k]); /* an element never written is found */
        if (k < p->inputs || p->buf[k].made) {
            gl_problem_make(p, k, g[k], gl_problem_seed(seed, k));
            gl_problem_make(p, k, w[k], gl_problem_seed(seed, k));
            if (k >= p->inputs)
                gl_buf_made(&got[k]); /* written: only what the call changes */
        }
    }
    if (p->setup)
        p->setup(p->ctx, launcher, seed);
    p->call(p->ctx, launcher, g);
    GL_CHECK_LAUNCH(launcher);
    if (p->reference) {
        p->call(p->ctx, p->reference, w);
        GL_CHECK_LAUNCH(p->reference);
    } else if (p->reference_fn) {
        p->reference_fn(p->ctx, w);
    }
    for (k = 0; k < nbufs(p) && !why[0]; k++) {
        const gl_problem_buf *b = &p->buf[k];
        if (gl_problem_outside(b, &got[k], place, sizeof place)) {
            snprintf(why, sizeof why, "%s: %s", p->what, place);
        } else if (k < p->inputs && p->inputs_read_only &&
                   gl_problem_changed(b, w[k], g[k], place, sizeof place)) {
            snprintf(why, sizeof why, "%s: %s", p->what, place);
        } else if (k >= p->inputs && p->verify) {
            if (k == p->inputs) { /* the lab's check, once, of every output */
                const char *v = p->verify(p->ctx, g, seed);
                if (*v)
                    snprintf(why, sizeof why, "%s: %s", p->what, v);
            }
        } else if (k >= p->inputs && !b->scratch &&
                   (wrong = gl_problem_wrong(b, w[k], g[k], &first))) {
            size_t n = (size_t)snprintf(why, sizeof why, "%s: ", p->what);
            gl_problem_describe(p, b, launcher, w[k], g[k], wrong, first, why + n,
                                sizeof why - n);
        }
    }
    for (k = 0; k < nbufs(p); k++) {
        gl_buf_free(&got[k]);
        gl_buf_free(&want[k]);
    }
    return why;
}

typedef struct {
    const gl_problem *p;
    const char *launcher;
    void *buf[GL_PROBLEM_BUFS];
} timed_call;

static void timed_run(void *arg)
{
    timed_call *t = arg;
    t->p->call(t->p->ctx, t->launcher, t->buf);
}

double gl_problem_time_ms(const char *launcher, const gl_problem *p, unsigned long long seed)
{
    timed_call t = {p, launcher, {NULL}};
    gl_buf b[GL_PROBLEM_BUFS];
    double ms;
    int k;
    if (nbufs(p) > GL_PROBLEM_BUFS)
        gl_fail("gl_problem_time_ms(%s, %s): a malformed problem", launcher, p->what);
    for (k = 0; k < nbufs(p); k++) {
        b[k] = gl_problem_alloc(&p->buf[k], 0);
        t.buf[k] = b[k].ptr;
        if (k < p->inputs || p->buf[k].made)
            gl_problem_make(p, k, t.buf[k], gl_problem_seed(seed, k));
    }
    if (p->setup)
        p->setup(p->ctx, launcher, seed);
    ms = gl_time_ms(timed_run, &t, gl_timing_default());
    for (k = 0; k < nbufs(p); k++)
        gl_buf_free(&b[k]);
    return ms;
}
