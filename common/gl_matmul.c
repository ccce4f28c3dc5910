/* gl_matmul.c: the CPU reference of C = A B, its FP32 error bound, and the product as a
 * lab's problem (labs 09 and 11): its inputs, its call and its check on a sample. */
#include "gl_matmul.h"

#include "gl_check.h"
#include "gl_device_data.h"

#include <cuda_runtime_api.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gamma_k (Higham 3.1) for k products, plus one rounding of the reference
 * to float; FLT_MIN covers products that underflow. */
static float fp32_bound(int k, double abs_sum)
{
    const double u = ldexp(1.0, -24);
    double g = (k + 1) * u / (1.0 - (k + 1) * u);
    return (float)(g * abs_sum * (1.0 + 4.0 * u)) + FLT_MIN;
}

/* gl_fail: the grader fails the test, a demo exits */
static void out_of_memory(void)
{
    gl_fail("not enough host memory for the CPU reference of the matrix product");
}

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p)
        out_of_memory();
    return p;
}

void gl_matmul_ref(const float *a, const float *b, int m, int n, int k, float *c, float *bound)
{
    double *sum = alloc((size_t)(n > 0 ? n : 0) * sizeof *sum);
    double *abs_sum = alloc((size_t)(n > 0 ? n : 0) * sizeof *abs_sum);
    int r, i, j;

    for (r = 0; r < m; r++) {
        for (j = 0; j < n; j++)
            sum[j] = abs_sum[j] = 0.0;
        /* i-k-j order: the inner loop walks rows of B, contiguous */
        for (i = 0; i < k; i++) {
            double x = a[(size_t)r * k + i];
            const float *brow = b + (size_t)i * n;
            for (j = 0; j < n; j++) {
                sum[j] += x * brow[j];
                abs_sum[j] += fabs(x * brow[j]);
            }
        }
        for (j = 0; j < n; j++) {
            c[(size_t)r * n + j] = (float)sum[j];
            if (bound)
                bound[(size_t)r * n + j] = fp32_bound(k, abs_sum[j]);
        }
    }
    free(sum);
    free(abs_sum);
}

float gl_matmul_ref_at(const float *a, const float *b, int n, int k, int row, int col,
                       float *bound)
{
    double sum = 0.0, abs_sum = 0.0;
    int i;
    for (i = 0; i < k; i++) {
        double p = (double)a[(size_t)row * k + i] * b[(size_t)i * n + col];
        sum += p;
        abs_sum += fabs(p);
    }
    if (bound)
        *bound = fp32_bound(k, abs_sum);
    return (float)sum;
}

/* The elements a sampled check looks at: C's first and last rows, its first
 * and last columns (where tiles end), then `random` drawn from rng. */
static size_t *sample_positions(int m, int n, int random, gl_rng *rng, size_t *samples)
{
    size_t s, count = 2 * (size_t)n + 2 * (size_t)m + (size_t)random, *where;
    where = alloc(count * sizeof *where);
    for (s = 0; s < count; s++) {
        size_t i = s;
        int row, col;
        if (i < 2 * (size_t)n) { /* the first and the last row */
            row = i < (size_t)n ? 0 : m - 1;
            col = (int)(i % n);
        } else if ((i -= 2 * (size_t)n) < 2 * (size_t)m) { /* the first and the last column */
            row = (int)(i % m);
            col = i < (size_t)m ? 0 : n - 1;
        } else {
            row = (int)gl_rng_range(rng, 0, m - 1);
            col = (int)gl_rng_range(rng, 0, n - 1);
        }
        where[s] = (size_t)row * n + col;
    }
    *samples = count;
    return where;
}

/* Compares the sample against its reference; cmp's indices become indices into C. */
static size_t compare_sample(const size_t *where, const float *ref, const float *picked,
                             const float *bound, size_t samples, gl_cmp *cmp)
{
    size_t s, wrong = gl_compare_float_bound(ref, picked, bound, samples, cmp);
    for (s = 0; s < (size_t)cmp->shown; s++)
        cmp->diff[s].index = where[cmp->diff[s].index];
    return wrong;
}

size_t gl_matmul_check(const float *a, const float *b, const float *got, int m, int n, int k,
                       size_t full, int random, gl_rng *rng, gl_cmp *cmp)
{
    size_t count = (size_t)m * n, samples, s, wrong;
    size_t *where;
    float *ref, *bound, *picked;

    if (count <= full) {
        ref = alloc(count * sizeof *ref);
        bound = alloc(count * sizeof *bound);
        gl_matmul_ref(a, b, m, n, k, ref, bound);
        wrong = gl_compare_float_bound(ref, got, bound, count, cmp);
        free(ref);
        free(bound);
        return wrong;
    }
    where = sample_positions(m, n, random, rng, &samples);
    ref = alloc(samples * sizeof *ref);
    bound = alloc(samples * sizeof *bound);
    picked = alloc(samples * sizeof *picked);
    for (s = 0; s < samples; s++) {
        ref[s] = gl_matmul_ref_at(a, b, n, k, (int)(where[s] / n), (int)(where[s] % n), &bound[s]);
        picked[s] = got[where[s]];
    }
    wrong = compare_sample(where, ref, picked, bound, samples, cmp);
    free(where);
    free(ref);
    free(bound);
    free(picked);
    return wrong;
}

size_t gl_matmul_check_device(const float *a, const float *b, const float *got, int m, int n,
                              int k, int random, gl_rng *rng, gl_cmp *cmp)
{
    size_t samples, wrong, *where = sample_positions(m, n, random, rng, &samples);
    float *ref = alloc(samples * sizeof *ref), *bound = alloc(samples * sizeof *bound),
          *picked = alloc(samples * sizeof *picked);
    gl_device_matmul_sample(a, b, got, n, k, where, samples, ref, bound, picked);
    wrong = compare_sample(where, ref, picked, bound, samples, cmp);
    free(where);
    free(ref);
    free(bound);
    free(picked);
    return wrong;
}

/* ---- the product as a lab's problem ---- */

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

size_t gl_matmul_compare(const gl_matmul *z, const float *a, const float *b, const float *c,
                         int on_device, gl_rng *rng, char *why, size_t len)
{
    gl_cmp cmp;
    float bound = 0.0f, ref, picked;
    int m = z->m, n = z->n, k = z->k;
    size_t wrong = on_device ? gl_matmul_check_device(a, b, c, m, n, k, z->sample, rng, &cmp)
                             : gl_matmul_check(a, b, c, m, n, k, z->full, z->sample, rng, &cmp);
    if (len)
        why[0] = '\0';
    if (!wrong || !len)
        return wrong;
    if (cmp.shown > 0 && on_device)
        gl_device_matmul_sample(a, b, c, n, k, &cmp.diff[0].index, 1, &ref, &bound, &picked);
    else if (cmp.shown > 0)
        gl_matmul_ref_at(a, b, n, k, (int)(cmp.diff[0].index / (size_t)n),
                         (int)(cmp.diff[0].index % (size_t)n), &bound);
    describe(z, &cmp, on_device || (size_t)m * n > z->full, bound, why, len);
    return wrong;
}

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const gl_matmul *z = ctx;
    gl_device_fill_float(dst, k == 0 ? (size_t)z->m * z->k : (size_t)z->k * z->n, -1.0f, 1.0f,
                         seed);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const gl_matmul *z = ctx;
    z->call(z, launcher, buf[2], buf[0], buf[1]);
}

static float *download(const void *d, size_t count)
{
    float *h = alloc(count * sizeof *h);
    if (count)
        GL_CUDA(cudaMemcpy(h, d, count * sizeof *h, cudaMemcpyDeviceToHost));
    return h;
}

/* C against A and B (device pointers): on the host up to z->full elements, else on the GPU
 * on a sample. */
static const char *problem_verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const gl_matmul *z = ctx;
    size_t na = (size_t)z->m * z->k, nb = (size_t)z->k * z->n, nc = (size_t)z->m * z->n;
    char draw[96];
    gl_rng rng;
    snprintf(draw, sizeof draw, "%s verify", z->lab);
    gl_rng_init(&rng, seed, draw);
    if (nc <= z->full) {
        float *a = download(buf[0], na), *b = download(buf[1], nb), *c = download(buf[2], nc);
        gl_matmul_compare(z, a, b, c, 0, &rng, why, sizeof why);
        free(a);
        free(b);
        free(c);
    } else {
        gl_matmul_compare(z, buf[0], buf[1], buf[2], 1, &rng, why, sizeof why);
    }
    return why;
}

gl_problem gl_matmul_problem(const char *launcher, gl_matmul *z)
{
    gl_problem p = {.what = z->what, .inputs = 2, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call, .verify = problem_verify, .inputs_read_only = 1,
                    .work = 2.0 * z->m * (double)z->n * z->k, .unit = "GFLOP/s", .sets = 4,
                    .rounds = 5};
    z->launcher = launcher;
    if (z->m == z->n && z->n == z->k)
        snprintf(z->what, sizeof z->what, "at m = n = k = %d", z->m);
    else
        snprintf(z->what, sizeof z->what, "at m x n x k = %d x %d x %d", z->m, z->n, z->k);
    p.buf[0] = (gl_problem_buf){.name = z->name[0], .bytes = (size_t)z->m * z->k * sizeof(float),
                                .row = (size_t)z->k};
    p.buf[1] = (gl_problem_buf){.name = z->name[1], .bytes = (size_t)z->k * z->n * sizeof(float),
                                .row = (size_t)z->n};
    p.buf[2] = (gl_problem_buf){.name = z->name[2], .bytes = (size_t)z->m * z->n * sizeof(float),
                                .row = (size_t)z->n, .cmp = GL_CMP_FLOAT, .outside = z->outside};
    return p;
}
