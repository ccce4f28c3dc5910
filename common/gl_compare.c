/* gl_compare.c: element-wise comparison with a report of the first errors. */
#include "gl_compare.h"

#include "gl_buffer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void note(gl_cmp *c, size_t i, double expected, double actual, int unwritten)
{
    c->wrong++;
    c->unwritten += unwritten != 0;
    if (c->shown < GL_CMP_SHOW) {
        gl_diff *d = &c->diff[c->shown++];
        d->index = i;
        d->expected = expected;
        d->actual = actual;
        d->unwritten = unwritten;
    }
}

static int is_poison(const void *p, size_t size)
{
    const unsigned char *b = p;
    size_t i;
    for (i = 0; i < size; i++)
        if (b[i] != GL_POISON_BYTE)
            return 0;
    return 1;
}

/* float or double, read through memcpy so one loop serves both */
static size_t compare_reals(const void *ref, const void *got, size_t n, size_t size, double atol,
                            double rtol, const float *bound, gl_cmp *c)
{
    const unsigned char *r8 = ref, *g8 = got;
    size_t i;
    memset(c, 0, sizeof *c);
    c->n = n;
    for (i = 0; i < n; i++) {
        double r, g, err;
        if (size == sizeof(float)) {
            float rf, gf;
            memcpy(&rf, r8 + i * size, size);
            memcpy(&gf, g8 + i * size, size);
            r = rf;
            g = gf;
        } else {
            memcpy(&r, r8 + i * size, size);
            memcpy(&g, g8 + i * size, size);
        }
        err = fabs(g - r);
        if (is_poison(g8 + i * size, size) && !is_poison(r8 + i * size, size)) {
            note(c, i, r, g, 1);
            continue;
        }
        if (isnan(g) || (g != r && err > (bound ? (double)bound[i] : atol + rtol * fabs(r)))) {
            note(c, i, r, g, 0);
            continue;
        }
        if (err > c->max_abs_err)
            c->max_abs_err = err;
    }
    return c->wrong;
}

size_t gl_compare_float(const float *ref, const float *got, size_t n, double atol, double rtol,
                        gl_cmp *c)
{
    return compare_reals(ref, got, n, sizeof(float), atol, rtol, NULL, c);
}

size_t gl_compare_double(const double *ref, const double *got, size_t n, double atol,
                         double rtol, gl_cmp *c)
{
    return compare_reals(ref, got, n, sizeof(double), atol, rtol, NULL, c);
}

size_t gl_compare_float_bound(const float *ref, const float *got, const float *bound, size_t n,
                              gl_cmp *c)
{
    return compare_reals(ref, got, n, sizeof(float), 0.0, 0.0, bound, c);
}

/* 32-bit integers, signed or not: equal bits are equal values */
static size_t compare_words(const unsigned *ref, const unsigned *got, size_t n, int is_signed,
                            gl_cmp *c)
{
    size_t i;
    memset(c, 0, sizeof *c);
    c->n = n;
    for (i = 0; i < n; i++)
        if (got[i] != ref[i])
            note(c, i, is_signed ? (double)(int)ref[i] : ref[i],
                 is_signed ? (double)(int)got[i] : got[i], is_poison(&got[i], sizeof got[i]));
    return c->wrong;
}

size_t gl_compare_int(const int *ref, const int *got, size_t n, gl_cmp *c)
{
    return compare_words((const unsigned *)ref, (const unsigned *)got, n, 1, c);
}

size_t gl_compare_uint(const unsigned *ref, const unsigned *got, size_t n, gl_cmp *c)
{
    return compare_words(ref, got, n, 0, c);
}

void gl_index_2d(size_t index, const void *cols, char *buf, size_t len)
{
    size_t w = (size_t)*(const int *)cols;
    snprintf(buf, len, "[%zu][%zu]", index / w, index % w);
}

static void index_1d(size_t index, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    snprintf(buf, len, "[%zu]", index);
}

void gl_cmp_describe(const gl_cmp *c, const char *name, gl_index_fmt fmt, const void *ctx,
                     char *buf, size_t len)
{
    size_t w;
    int i;
    if (!fmt)
        fmt = index_1d;
    if (c->wrong == 0) {
        snprintf(buf, len, "%s is right (%zu elements)", name, c->n);
        return;
    }
    if (c->unwritten == c->n) {
        snprintf(buf, len, "nothing was written to %s: all %zu elements still hold the poison value",
                 name, c->n);
        return;
    }
    w = (size_t)snprintf(buf, len, "%s is wrong at %zu of %zu elements", name, c->wrong, c->n);
    if (c->unwritten && w < len)
        w += (size_t)snprintf(buf + w, len - w, " (%zu never written: still the poison value)",
                              c->unwritten);
    for (i = 0; i < c->shown && w < len; i++) {
        const gl_diff *d = &c->diff[i];
        char idx[64];
        fmt(d->index, ctx, idx, sizeof idx);
        if (d->unwritten)
            w += (size_t)snprintf(buf + w, len - w, "%s %s%s: expected %.9g, never written",
                                  i ? ";" : ", first", name, idx, d->expected);
        else
            w += (size_t)snprintf(buf + w, len - w, "%s %s%s: expected %.9g, got %.9g",
                                  i ? ";" : ", first", name, idx, d->expected, d->actual);
    }
    if (c->wrong > (size_t)c->shown && w < len)
        snprintf(buf + w, len - w, "; ...");
}
