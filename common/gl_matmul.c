/* gl_matmul.c: the CPU reference of C = A B, its FP32 error bound, and the check of a C against
 * it, whole or on a sample (on the host, or on the GPU). The product as a lab's problem:
 * gl_matmul_problem.c. */
#include "gl_matmul.h"

#include "gl_check.h"
#include "gl_device_data.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* gamma_k (Higham 3.1) for k products, plus one rounding of the reference
 * to float; FLT_MIN covers products that underflow. */
float gl_matmul_bound(int k, double abs_sum)
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
                bound[(size_t)r * n + j] = gl_matmul_bound(k, abs_sum[j]);
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
        *bound = gl_matmul_bound(k, abs_sum);
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
