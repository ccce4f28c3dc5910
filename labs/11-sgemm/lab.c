/* lab.c: lab 11-sgemm described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sgemm_fn)(float *c, const float *a, const float *b, int m, int n, int k);

static long long call_sgemm(void *fn, const gl_arg *a)
{
    ((sgemm_fn)fn)((float *)a[0].p, (const float *)a[1].p, (const float *)a[2].p, (int)a[3].i,
                   (int)a[4].i, (int)a[5].i);
    return 0;
}

const gl_launcher LAB_LAUNCHERS[] = {
    {"sgemm_cublas", "pppiii", call_sgemm, GL_GIVEN},
    {"sgemm_naive", "pppiii", call_sgemm, GL_GIVEN},
    {"sgemm_tiled", "pppiii", call_sgemm, GL_GIVEN},
    {"sgemm_blocktiled_1d", "pppiii", call_sgemm, 0},
    {"sgemm_blocktiled_2d", "pppiii", call_sgemm, 0},
    {"sgemm_vectorized", "pppiii", call_sgemm, 0},
    {"sgemm_prefetch", "pppiii", call_sgemm, 0},
    {NULL, NULL, NULL, 0},
};

void sgemm_run(const char *name, float *c, const float *a, const float *b, int m, int n, int k)
{
    gl_arg args[] = {GL_P(c), GL_P(a), GL_P(b), GL_I(m), GL_I(n), GL_I(k)};
    gl_exec(name, args);
}

static float *random_matrix(gl_rng *rng, size_t count)
{
    float *h = malloc((count ? count : 1) * sizeof(float));
    if (!h)
        gl_fail("out of host memory for %zu floats", count);
    gl_fill_float(rng, h, count, -1.0f, 1.0f);
    return h;
}

void sgemm_make(gl_rng *rng, int m, int n, int k, sgemm_problem *p)
{
    p->m = m;
    p->n = n;
    p->k = k;
    p->a = random_matrix(rng, (size_t)m * k);
    p->b = random_matrix(rng, (size_t)k * n);
}

void sgemm_free(sgemm_problem *p)
{
    free(p->a);
    free(p->b);
    p->a = p->b = NULL;
}

/* What usually causes a wrong C, per task, in the lab's terms. */
static const char *hint(const gl_matmul *z, const gl_cmp *c)
{
    const char *launcher = z->launcher;
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO?";
    if (c->unwritten) {
        if (strstr(launcher, "vectorized") || strstr(launcher, "prefetch"))
            return "Some elements of C were never written: each thread stores four quadrants, "
                   "rows ty * 4 and 64 + ty * 4, columns tx * 4 and 64 + tx * 4 of the block's "
                   "tile; the edge tests compare with m and n, element by element";
        return "Some elements of C were never written: does every thread store all of its "
               "results, at the right rows and columns of the block's tile, and do the edge "
               "tests compare with m and n?";
    }
    if (strstr(launcher, "1d"))
        return "Wrong values: thread t owns rows (t / BN1) * TM1 .. + TM1 - 1 of column t % BN1; "
               "the tiles are zero outside A and B, and a __syncthreads() follows both the "
               "loads and the math of every step";
    if (strstr(launcher, "2d"))
        return "Wrong values: thread (ty, tx) owns rows ty * TM .. and columns tx * TN .. of the "
               "block's tile; the tiles are zero outside A and B (the last tile of k is "
               "partial), and a __syncthreads() follows both the loads and the math";
    if (strstr(launcher, "vectorized"))
        return "Wrong values: as is A's tile transposed (as[i][r] = A(row0 + r, k0 + i)), so "
               "a float4 of as[i][ty * 4] holds four rows; the quadrant at +64 rows and columns "
               "uses acc[r][q] with r or q >= 4; past the edges load4 gives zeros";
    return "Wrong values: the next tile goes into the other buffer (buf ^ 1), the math reads "
           "buffer buf, and every tile, the last one too, is used once";
}

/* The host array p, `off` floats into a device buffer (the floats before it
 * are the poison: nobody reads them). */
static gl_buf upload_at(const float *p, size_t count, int off)
{
    gl_buf b = gl_buf_alloc((count + off) * sizeof(float), 0);
    float *h = malloc((count + off) * sizeof(float));
    if (!h)
        gl_fail("out of host memory for %zu floats", count + off);
    memset(h, 0xff, (size_t)off * sizeof(float));
    memcpy(h + off, p, count * sizeof(float));
    gl_buf_upload(&b, h);
    free(h);
    return b;
}

static int same(const gl_buf *b, const float *p, size_t count, int off)
{
    float *h = malloc((count + off) * sizeof(float));
    int equal;
    if (!h)
        gl_fail("out of host memory for %zu floats", count + off);
    gl_buf_download(b, h);
    equal = memcmp(h + off, p, count * sizeof(float)) == 0;
    free(h);
    return equal;
}

const char *sgemm_check(const char *launcher, const sgemm_problem *p, int a_off, int b_off,
                        int c_off, gl_rng *rng)
{
    static char why[2048];
    int m = p->m, n = p->n, k = p->k, i;
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n + c_off;
    /* a missing edge test writes up to a block tile (128 rows or columns) too far */
    size_t guard = (size_t)BM * (size_t)(n + BN) * sizeof(float) + 4096;
    gl_buf a = upload_at(p->a, na, a_off), b = upload_at(p->b, nb, b_off),
           c = gl_buf_alloc((nc ? nc : 1) * sizeof(float), guard);
    float *h_c = malloc((nc ? nc : 1) * sizeof(float));
    gl_matmul z = {.m = m, .n = n, .k = k, .sample = SGEMM_SAMPLE};
    gl_guard_report g;

    sgemm_describe(launcher, &z); /* the lab's words, for gl_matmul_compare */
    if (!h_c)
        gl_fail("out of host memory for %zu floats", nc);
    why[0] = '\0';
    gl_buf_poison(&c);
    sgemm_run(launcher, (float *)c.ptr + c_off, (const float *)a.ptr + a_off,
              (const float *)b.ptr + b_off, m, n, k);
    GL_CHECK_LAUNCH(launcher);
    if (gl_buf_check_guards(&c, &g)) {
        char d[512];
        gl_guard_describe(&g, c.bytes, sizeof(float), "C's allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: %s", d, z.outside);
    } else if (gl_buf_check_guards(&a, &g) || gl_buf_check_guards(&b, &g)) {
        snprintf(why, sizeof why, "wrote outside A or B, which are read-only inputs");
    } else if (!same(&a, p->a, na, a_off)) {
        snprintf(why, sizeof why, "changed A: the inputs are read-only");
    } else if (!same(&b, p->b, nb, b_off)) {
        snprintf(why, sizeof why, "changed B: the inputs are read-only");
    } else {
        gl_buf_download(&c, h_c);
        for (i = 0; !why[0] && i < c_off; i++) {
            unsigned bits;
            memcpy(&bits, &h_c[i], sizeof bits);
            if (bits != 0xffffffffu)
                snprintf(why, sizeof why, "wrote c[%d], before C's first element: only C's "
                         "m * n elements are written", i - c_off);
        }
        if (!why[0])
            gl_matmul_compare(&z, p->a, p->b, h_c + c_off, 0, rng, why, sizeof why);
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(h_c);
    return why;
}

static void call(const gl_matmul *z, const char *launcher, float *c, const float *a,
                 const float *b)
{
    sgemm_run(launcher, c, a, b, z->m, z->n, z->k);
}

gl_problem sgemm_describe(const char *launcher, void *size)
{
    gl_matmul *z = size;
    z->full = SGEMM_FULL_CHECK;
    z->lab = "11-sgemm";
    z->name[0] = "A";
    z->name[1] = "B";
    z->name[2] = "C";
    z->outside = "a store of the last, partial tiles is missing its edge test (row < m, column "
                 "< n)";
    z->hint = hint;
    z->call = call;
    return gl_matmul_problem(launcher, z);
}
