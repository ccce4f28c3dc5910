/* lab.c: lab 11-sgemm described once (lab.h). */
#include "lab.h"

#include <cuda_runtime_api.h>
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
static const char *hint(const char *launcher, const gl_cmp *c)
{
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

static void describe(const char *launcher, const gl_cmp *cmp, int n, int sampled, char *why,
                     size_t len)
{
    char d[1024];
    gl_cmp_describe(cmp, "C", gl_index_2d, &n, d, sizeof d);
    snprintf(why, len, "%s%s. %s", d,
             sampled ? " (of a sample of C: its first and last rows and columns and random "
                       "elements)"
                     : "",
             hint(launcher, cmp));
}

size_t sgemm_compare(const char *launcher, const float *a, const float *b, const float *c, int m,
                     int n, int k, size_t full, int random, gl_rng *rng, char *why, size_t len)
{
    gl_cmp cmp;
    size_t wrong = gl_matmul_check(a, b, c, m, n, k, full, random, rng, &cmp);
    if (len)
        why[0] = '\0';
    if (wrong && len)
        describe(launcher, &cmp, n, (size_t)m * n > full, why, len);
    return wrong;
}

size_t sgemm_compare_device(const char *launcher, const float *a, const float *b, const float *c,
                            int m, int n, int k, int random, gl_rng *rng, char *why, size_t len)
{
    gl_cmp cmp;
    size_t wrong = gl_matmul_check_device(a, b, c, m, n, k, random, rng, &cmp);
    if (len)
        why[0] = '\0';
    if (wrong && len)
        describe(launcher, &cmp, n, 1, why, len);
    return wrong;
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
    gl_guard_report g;

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
        snprintf(why, sizeof why, "%s: a store of the last, partial tiles is missing its edge "
                 "test (row < m, column < n)", d);
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
            sgemm_compare(launcher, p->a, p->b, h_c + c_off, m, n, k, SGEMM_FULL_CHECK,
                          SGEMM_SAMPLE, rng, why, sizeof why);
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(h_c);
    return why;
}

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const sgemm_size *z = ctx;
    gl_device_fill_float(dst, k == 0 ? (size_t)z->m * z->k : (size_t)z->k * z->n, -1.0f, 1.0f,
                         seed);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const sgemm_size *z = ctx;
    sgemm_run(launcher, buf[2], buf[0], buf[1], z->m, z->n, z->k);
}

static float *download(const void *d, size_t count)
{
    float *h = malloc((count ? count : 1) * sizeof(float));
    if (!h)
        gl_fail("out of host memory for %zu floats", count);
    if (count)
        GL_CUDA(cudaMemcpy(h, d, count * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

/* C against A and B (device pointers): on the host up to SGEMM_FULL_CHECK elements, as
 * sgemm_check compares, else on the GPU on a sample. */
static const char *problem_verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const sgemm_size *z = ctx;
    size_t na = (size_t)z->m * z->k, nb = (size_t)z->k * z->n, nc = (size_t)z->m * z->n;
    gl_rng rng;
    gl_rng_init(&rng, seed, "11-sgemm verify");
    if (nc <= SGEMM_FULL_CHECK) {
        float *a = download(buf[0], na), *b = download(buf[1], nb), *c = download(buf[2], nc);
        sgemm_compare(z->launcher, a, b, c, z->m, z->n, z->k, SGEMM_FULL_CHECK, z->sample, &rng,
                      why, sizeof why);
        free(a);
        free(b);
        free(c);
    } else {
        sgemm_compare_device(z->launcher, buf[0], buf[1], buf[2], z->m, z->n, z->k, z->sample,
                             &rng, why, sizeof why);
    }
    return why;
}

gl_problem sgemm_describe(const char *launcher, void *size)
{
    sgemm_size *z = size;
    gl_problem p = {.what = z->what, .inputs = 2, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call, .verify = problem_verify, .inputs_read_only = 1,
                    .work = 2.0 * z->m * (double)z->n * z->k, .sets = 4, .rounds = 5};
    z->launcher = launcher;
    if (z->m == z->n && z->n == z->k)
        snprintf(z->what, sizeof z->what, "at m = n = k = %d", z->m);
    else
        snprintf(z->what, sizeof z->what, "at m x n x k = %d x %d x %d", z->m, z->n, z->k);
    p.buf[0] = (gl_problem_buf){.name = "A", .bytes = (size_t)z->m * z->k * sizeof(float),
                                .row = (size_t)z->k};
    p.buf[1] = (gl_problem_buf){.name = "B", .bytes = (size_t)z->k * z->n * sizeof(float),
                                .row = (size_t)z->n};
    p.buf[2] = (gl_problem_buf){.name = "C", .bytes = (size_t)z->m * z->n * sizeof(float),
                                .row = (size_t)z->n, .cmp = GL_CMP_FLOAT};
    return p;
}
