/* lab.c: lab 03-bank-conflicts described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sums_fn)(float *out, const float *in, int rows);
typedef void (*sums_double_fn)(double *out, const double *in, int rows);
typedef int (*degree_fn)(const int *words, int lanes);
typedef void (*probe_fn)(int *sink, const int *words, int iters);

static long long call_sums(void *fn, const gl_arg *a)
{
    ((sums_fn)fn)((float *)a[0].p, (const float *)a[1].p, (int)a[2].i);
    return 0;
}

static long long call_sums_double(void *fn, const gl_arg *a)
{
    ((sums_double_fn)fn)((double *)a[0].p, (const double *)a[1].p, (int)a[2].i);
    return 0;
}

/* host code: words is a host array, copied to the callee */
static long long call_degree(void *fn, const gl_arg *a)
{
    return ((degree_fn)fn)((const int *)a[0].p, (int)a[1].i);
}

static long long call_probe(void *fn, const gl_arg *a)
{
    ((probe_fn)fn)((int *)a[0].p, (const int *)a[1].p, (int)a[2].i);
    return 0;
}

const gl_launcher LAB_LAUNCHERS[] = {
    {"row_sums", "ppi", call_sums, GL_GIVEN},
    {"row_sums_padded", "ppi", call_sums, 0},
    {"bank_conflict_degree", "hi", call_degree, GL_HOST_CODE},
    {"row_sums_double", "ppi", call_sums_double, GL_GIVEN},
    {"row_sums_double_padded", "ppi", call_sums_double, 0},
    {"bank_probe", "ppi", call_probe, GL_GIVEN},
    {NULL, NULL, NULL, 0},
};

void bc_sums(const char *name, float *out, const float *in, int rows)
{
    gl_arg a[] = {GL_P(out), GL_P(in), GL_I(rows)};
    gl_exec(name, a);
}

void bc_sums_double(const char *name, double *out, const double *in, int rows)
{
    gl_arg a[] = {GL_P(out), GL_P(in), GL_I(rows)};
    gl_exec(name, a);
}

int bc_degree(const int *words, int lanes)
{
    gl_arg a[] = {GL_H(words, (size_t)(lanes > 0 ? lanes : 0) * sizeof(int)), GL_I(lanes)};
    return (int)gl_exec("bank_conflict_degree", a);
}

void bc_probe(int *sink, const int *words, int iters)
{
    gl_arg a[] = {GL_P(sink), GL_P(words), GL_I(iters)};
    gl_exec("bank_probe", a);
}

int bc_is_double(const char *launcher)
{
    return strstr(launcher, "double") != NULL;
}

/* ---- tasks 1 and 3: the row sums ---- */

void bc_sums_make(gl_rng *rng, int rows, int dbl, void **in, void **ref)
{
    size_t size = dbl ? sizeof(double) : sizeof(float), r, k;
    *in = malloc((size_t)rows * BC_TILE * size + 1);
    *ref = malloc((size_t)rows * size + 1);
    if (!*in || !*ref)
        gl_fail("out of host memory for %d rows of %d", rows, BC_TILE);
    for (r = 0; r < (size_t)rows; r++) {
        double sd = 0.0;
        float sf = 0.0f;
        for (k = 0; k < BC_TILE; k++) {
            size_t i = r * BC_TILE + k;
            if (dbl) { /* not just floats widened */
                ((double *)*in)[i] = gl_rng_float(rng, -1, 1) + 1e-9 * gl_rng_float(rng, -1, 1);
                sd += ((double *)*in)[i];
            } else {
                ((float *)*in)[i] = gl_rng_float(rng, -1, 1);
                sf += ((float *)*in)[i];
            }
        }
        if (dbl)
            ((double *)*ref)[r] = sd;
        else
            ((float *)*ref)[r] = sf;
    }
}

const char *bc_sums_check(const char *launcher, int rows, const void *h_in, const void *ref)
{
    static char why[2048];
    int dbl = bc_is_double(launcher);
    size_t size = dbl ? sizeof(double) : sizeof(float), n = (size_t)rows * BC_TILE;
    gl_buf in = gl_buf_alloc(n * size, 0), out = gl_buf_alloc((size_t)rows * size, 0);
    void *got = malloc((size_t)rows * size + 1);
    gl_guard_report g;
    gl_cmp cmp;

    if (!got)
        gl_fail("out of host memory for %d rows", rows);
    why[0] = '\0';
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    if (dbl)
        bc_sums_double(launcher, out.ptr, in.ptr, rows);
    else
        bc_sums(launcher, out.ptr, in.ptr, rows);
    GL_CHECK_LAUNCH(launcher);
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, out.bytes, size, "out", d, sizeof d);
        snprintf(why, sizeof why, "%s: the last tile has fewer than 32 rows when rows is not a "
                 "multiple of 32; test first + threadIdx.x < rows", d);
    } else if (gl_buf_check_guards(&in, &g)) {
        snprintf(why, sizeof why, "wrote outside `in`, which is read-only input");
    } else {
        size_t bad;
        gl_buf_download(&out, got);
        /* 32 terms in [-1, 1): the order of the additions may differ from ours */
        bad = dbl ? gl_compare_double(ref, got, (size_t)rows, 1e-12, 1e-12, &cmp)
                  : gl_compare_float(ref, got, (size_t)rows, 1e-5, 1e-5, &cmp);
        if (bad) {
            char d[1024];
            gl_cmp_describe(&cmp, "out", NULL, NULL, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d,
                     cmp.unwritten == cmp.n ? "Is the kernel still a TODO, or is it never "
                                              "launched?"
                     : cmp.unwritten
                         ? "Some sums were never written: every row needs its thread"
                         : "Lane l sums row l of the tile: tile[threadIdx.x][k] for k = 0 .. 31, "
                           "after __syncthreads()");
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(got);
    return why;
}

/* ---- task 2: the conflict degree ---- */

int bc_degree_ref(const int *words, int lanes)
{
    int bank, worst = 0, i, j;
    for (bank = 0; bank < BC_BANKS; bank++) {
        int distinct = 0;
        for (i = 0; i < lanes; i++) {
            int seen = 0;
            if (words[i] % BC_BANKS != bank)
                continue;
            for (j = 0; j < i; j++)
                seen |= words[j] == words[i];
            distinct += !seen;
        }
        if (distinct > worst)
            worst = distinct;
    }
    return worst;
}

const char *bc_degree_check(const char *what, const int *words, int lanes)
{
    static char why[1024];
    int want = bc_degree_ref(words, lanes), got = bc_degree(words, lanes), i;
    char list[400];
    size_t w = 0;
    why[0] = '\0';
    if (got == want)
        return why;
    if (lanes == 0) {
        snprintf(why, sizeof why, "bank_conflict_degree with 0 lanes returned %d, not 0", got);
        return why;
    }
    list[0] = '\0';
    for (i = 0; i < lanes && w < sizeof list - 8; i++)
        w += (size_t)snprintf(list + w, sizeof list - w, "%s%d", i ? " " : "", words[i]);
    snprintf(why, sizeof why,
             "bank_conflict_degree for %s (%d lanes reading words %s) returned %d; the access "
             "takes %d wavefront%s. %s",
             what, lanes, list, got, want, want == 1 ? "" : "s",
             want == 1 && got > 1
                 ? "Lanes reading the same word share it: a broadcast, not a conflict"
             : want == 1 ? "With no two different words in a bank, one wavefront serves the warp"
                         : "Count, for each bank (word % 32), the different words read in it; "
                           "the busiest bank sets the count");
    return why;
}
