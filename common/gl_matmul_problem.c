/* gl_matmul_problem.c: the product C = A B as a lab's problem (gl_matmul.h; labs 09 and 11):
 * its inputs (aligned or not), its call of the lab's launcher by name, its buffers' guards and
 * its check, whole or on a sample, in the lab's words; and the words that give its sizes. It
 * calls a lab's launchers (gl_exec), so only a lab's programs link it. A demo's host case of it
 * and that case's note: gl_matmul_host, gl_matmul_note_host. */
#include "gl_matmul.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_demo.h"
#include "gl_device_data.h"
#include "gl_exec.h"
#include "gl_table.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the comparison found in z's words: where, of which sample, the first wrong element's
 * bound (bound: that element's), and the lab's hint. */
static void describe(const gl_matmul *z, const gl_cmp *cmp, int sampled, float bound, char *why,
                     size_t len)
{
    int n = z->n;
    size_t w;
    gl_cmp_describe(cmp, z->name[2], gl_index_2d, &n, why, len);
    w = strlen(why);
    if (sampled && w < len)
        w += (size_t)snprintf(why + w, len - w,
                              " (of a sample of %s: its first and last rows and columns and %d "
                              "random elements)", z->name[2], z->sample);
    if (cmp->shown > 0 && !cmp->diff[0].unwritten && w < len)
        w += (size_t)snprintf(why + w, len - w,
                              " (%s[%zu][%zu] may differ from the reference by %.3g: the FP32 "
                              "error bound of its sum, in any order)", z->name[2],
                              cmp->diff[0].index / (size_t)n, cmp->diff[0].index % (size_t)n,
                              (double)bound);
    if (w < len)
        snprintf(why + w, len - w, ". %s", z->hint(z, cmp));
}

/* Compares c with the product of a and b: host pointers with on_device 0 (every element up to
 * z->full, else the sample), device pointers with on_device 1 (the sample). why gets what is
 * wrong in z's words, the first wrong element's bound and z->hint's sentence ("" when right). */
static void compare(const gl_matmul *z, const float *a, const float *b, const float *c,
                    int on_device, gl_rng *rng, char *why, size_t len)
{
    gl_cmp cmp;
    float bound = 0.0f, ref, picked;
    int m = z->m, n = z->n, k = z->k;
    size_t wrong = on_device ? gl_matmul_check_device(a, b, c, m, n, k, z->sample, rng, &cmp)
                             : gl_matmul_check(a, b, c, m, n, k, z->full, z->sample, rng, &cmp);
    why[0] = '\0';
    if (!wrong)
        return;
    if (cmp.shown > 0 && on_device)
        gl_device_matmul_sample(a, b, c, n, k, &cmp.diff[0].index, 1, &ref, &bound, &picked);
    else if (cmp.shown > 0)
        gl_matmul_ref_at(a, b, n, k, (int)(cmp.diff[0].index / (size_t)n),
                         (int)(cmp.diff[0].index % (size_t)n), &bound);
    describe(z, &cmp, on_device || (size_t)m * n > z->full, bound, why, len);
}

/* Matrix i's elements (A m x k, B k x n, C m x n) */
static size_t count(const gl_matmul *z, int i)
{
    return i == 0 ? (size_t)z->m * z->k : i == 1 ? (size_t)z->k * z->n : (size_t)z->m * z->n;
}

/* Matrix i in its buffer: past the float before it where it is misaligned */
static float *matrix(const gl_matmul *z, int i, void *buf)
{
    return (float *)buf + z->misaligned[i];
}

static void problem_make(void *ctx, int i, void *dst, unsigned long long seed)
{
    const gl_matmul *z = ctx;
    if (z->misaligned[i]) /* poison: a NaN to a kernel that reads before A or B */
        GL_CUDA(cudaMemset(dst, GL_POISON_BYTE, sizeof(float)));
    gl_device_fill_float(matrix(z, i, dst), count(z, i), -1.0f, 1.0f, seed);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const gl_matmul *z = ctx;
    gl_arg args[] = {GL_P(matrix(z, 2, buf[2])), GL_P(matrix(z, 0, buf[0])),
                     GL_P(matrix(z, 1, buf[1])), GL_I(z->m), GL_I(z->n), GL_I(z->k),
                     GL_I(z->extra[0]), GL_I(z->extra[1])};
    gl_exec(launcher, args);
}

static float *download(const void *d, size_t n)
{
    float *h = malloc((n > 0 ? n : 1) * sizeof *h);
    if (!h)
        gl_fail("not enough host memory for the CPU reference of the matrix product");
    if (n)
        GL_CUDA(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost));
    return h;
}

/* C against A and B (device pointers): on the host up to z->full elements, else on the GPU
 * on a sample; first, the float before a misaligned C still the poison. */
static const char *problem_verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const gl_matmul *z = ctx;
    const float *a = matrix(z, 0, buf[0]), *b = matrix(z, 1, buf[1]), *c = matrix(z, 2, buf[2]);
    char draw[96];
    unsigned before;
    gl_rng rng;
    if (z->misaligned[2]) {
        GL_CUDA(cudaMemcpy(&before, buf[2], sizeof before, cudaMemcpyDeviceToHost));
        if (before != 0xffffffffu) {
            snprintf(why, sizeof why, "wrote %s[-1], before %s's first element: only %s's m * n "
                     "elements are written", z->name[2], z->name[2], z->name[2]);
            return why;
        }
    }
    snprintf(draw, sizeof draw, "%s verify", z->lab);
    gl_rng_init(&rng, seed, draw);
    if (count(z, 2) <= z->full) {
        float *ha = download(a, count(z, 0)), *hb = download(b, count(z, 1)),
              *hc = download(c, count(z, 2));
        compare(z, ha, hb, hc, 0, &rng, why, sizeof why);
        free(ha);
        free(hb);
        free(hc);
    } else {
        compare(z, a, b, c, 1, &rng, why, sizeof why);
    }
    return why;
}

gl_problem gl_matmul_problem(const char *launcher, gl_matmul *z)
{
    if (z->at) { /* another's sizes, its own extra */
        z->m = z->at->m;
        z->n = z->at->n;
        z->k = z->at->k;
        memcpy(z->misaligned, z->at->misaligned, sizeof z->misaligned);
        z->sample = z->at->sample;
    }
    gl_problem p = {.what = z->what, .inputs = 2, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call, .verify = problem_verify, .inputs_read_only = 1,
                    .work = 2.0 * z->m * (double)z->n * z->k, .unit = "GFLOP/s", .sets = 4,
                    .rounds = 5};
    size_t w;
    int i;
    z->launcher = launcher;
    if (z->m == z->n && z->n == z->k)
        w = (size_t)snprintf(z->what, sizeof z->what, "at m = n = k = %d", z->m);
    else
        w = (size_t)snprintf(z->what, sizeof z->what, "at m x n x k = %d x %d x %d", z->m, z->n,
                             z->k);
    for (i = 0; i < 3; i++) {
        gl_problem_buf *b = &p.buf[i];
        if (!z->name[i])
            z->name[i] = i == 0 ? "A" : i == 1 ? "B" : "C";
        b->name = z->name[i];
        b->bytes = (count(z, i) + (size_t)z->misaligned[i]) * sizeof(float);
        b->row = i == 0 ? (size_t)z->k : (size_t)z->n;
        b->outside = i < 2 ? "the inputs are read-only" : z->outside;
        if (z->misaligned[i]) { /* its positions count the float before it */
            snprintf(z->allocation[i], sizeof z->allocation[i], "%s's allocation", z->name[i]);
            b->name = z->allocation[i];
            b->row = 0;
            if (w < sizeof z->what)
                w += (size_t)snprintf(z->what + w, sizeof z->what - w, ", with %s one float "
                                      "past a 16-byte boundary", z->name[i]);
        }
    }
    p.buf[2].cmp = GL_CMP_FLOAT;
    p.buf[2].guard = z->guard;
    return p;
}

void gl_matmul_host(void *size, void *const *buf)
{
    const gl_matmul *z = size;
    gl_matmul_ref(matrix(z, 0, buf[0]), matrix(z, 1, buf[1]), z->m, z->n, z->k,
                  matrix(z, 2, buf[2]), NULL);
}

void gl_matmul_note_host(gl_table *t, const char *key, const gl_matmul *z, double ms)
{
    gl_table_note(t, key, "%.2f s at %d x %d x %d = %.2f GFLOP/s (one thread, in double)",
                  ms / 1e3, z->m, z->n, z->k, 2.0 * z->m * (double)z->n * z->k / ms / 1e6);
}

int gl_matmul_parse(gl_matmul *z, int argc, char **argv, long max)
{
    static const char matrices[] = "abc";
    const char *which = argc == 4 && argv[3][0] && !argv[3][1] ? strchr(matrices, argv[3][0])
                                                              : NULL; /* the misaligned one */
    long d[3];
    int i, sizes = argc >= 3 ? 3 : argc;
    if (argc < 1 || argc == 2 || argc > 4 || (argc == 4 && !which))
        return -1;
    for (i = 0; i < sizes; i++)
        if (gl_parse_long(argv[i], i == 2 ? 0 : 1, max, &d[i]))
            return -1;
    z->m = (int)d[0];
    z->n = (int)(sizes == 1 ? d[0] : d[1]);
    z->k = (int)(sizes == 1 ? d[0] : d[2]);
    if (which)
        z->misaligned[which - matrices] = 1;
    return 0;
}
