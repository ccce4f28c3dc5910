/* demo.c: lab 11-sgemm's comparison table.
 *
 *   make run LAB=11      your sgemm.cu           make demo LAB=11   the reference
 *   build/.../demo [--csv FILE] [SIZE ...]       (default 4096 and 4001: square)
 *
 * For each size, each kernel of the worklog runs once on poisoned C and is
 * checked against the CPU; a right one is then timed (median of 21 runs, L2
 * flushed before each) and reported as GFLOP/s (2 m n k per second), as a
 * share of cuBLAS FP32 in the same run, and against the row before it
 * (x_prev: that row's time over this one's). 4001 is a multiple neither of
 * the 128 x 128 block tile nor of 4: the kernels of tasks 3 and 4 take their
 * scalar path there. */
#include "gpulabs.h"
#include "sgemm.h"

#include <stdio.h>
#include <stdlib.h>

#define NVARIANTS 7 /* naive, tiled, 1d, 2d, vectorized, prefetch, cuBLAS (timed first) */
#define CUBLAS 6
#define FULL_CHECK (1 << 20) /* every element of C up to this m * n; a sample above */
#define SAMPLE_RANDOM 4096

typedef void (*sgemm_fn)(float *c, const float *a, const float *b, int m, int n, int k);

typedef struct {
    sgemm_fn fn;
    float *c;
    const float *a, *b;
    int dim;
} job;

static void run(void *arg)
{
    job *j = arg;
    j->fn(j->c, j->a, j->b, j->dim, j->dim, j->dim);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        sgemm_fn fn;
    } variants[NVARIANTS] = {
        {"naive (given)", sgemm_naive},
        {"tiled 32x32 (given)", sgemm_tiled},
        {"1d blocktiling", sgemm_blocktiled_1d},
        {"2d blocktiling", sgemm_blocktiled_2d},
        {"vectorized", sgemm_vectorized},
        {"prefetch", sgemm_prefetch},
        {"cuBLAS FP32", sgemm_cublas},
    };
    static const char *headers[] = {"size", "kernel", "time_ms", "GFLOP/s", "pct_of_cublas",
                                    "x_prev", "check"};
    static const long default_sizes[] = {4096, 4001};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    int nsizes, s, v, wrong = 0, status;

    gl_demo_parse(argc, argv, "[--csv FILE] [SIZE ...]  (default 4096 4001: m = n = k = SIZE)",
                  GL_DEMO_MAX_VALUES, 1, 46340, &args);
    nsizes = args.nvalues > 0 ? args.nvalues : 2;

    gl_demo_begin(&info);
    gl_rng_init(&rng, gl_seed(), "11-sgemm demo");
    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "11-sgemm, C = A B in FP32, m = n = k = size, row-major");
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "kernels", "1d to prefetch are this build's sgemm.cu: yours under make "
                  "run, the reference under make demo; cuBLAS is cublasSgemm with "
                  "CUBLAS_PEDANTIC_MATH (FP32 on the CUDA cores, no TF32)");
    gl_table_note(table, "check", "every element of C up to 2^20 elements, else its first and "
                  "last rows and columns and %d random elements, against the CPU in double with "
                  "each element's FP32 error bound (the CPU takes minutes for all of a 4096^3 "
                  "product)", SAMPLE_RANDOM);
    gl_table_note(table, "timing", "median of 21 runs, L2 flushed before each; "
                  "GFLOP/s = 2 m n k / time");
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (s = 0; s < nsizes; s++) {
        int dim = (int)(args.nvalues > 0 ? args.values[s] : default_sizes[s]);
        size_t n = (size_t)dim * dim, bytes = n * sizeof(float);
        float *h_a = malloc(bytes), *h_b = malloc(bytes), *h_c = malloc(bytes);
        gl_buf a, b, c;
        double ms[NVARIANTS], flops = 2.0 * dim * (double)dim * dim;
        int prev = -1;

        if (!h_a || !h_b || !h_c) {
            fprintf(stderr, "%s: not enough host memory for %d x %d\n", argv[0], dim, dim);
            return 1;
        }
        gl_fill_float(&rng, h_a, n, -1.0f, 1.0f);
        gl_fill_float(&rng, h_b, n, -1.0f, 1.0f);
        a = gl_buf_alloc(bytes, 0);
        b = gl_buf_alloc(bytes, 0);
        c = gl_buf_alloc(bytes, 0);
        gl_buf_upload(&a, h_a);
        gl_buf_upload(&b, h_b);

        for (v = NVARIANTS - 1; v >= 0; v--) { /* cuBLAS first: the others are shares of it */
            job j;
            gl_guard_report guards;
            gl_cmp cmp;
            char why[1024];

            j.fn = variants[v].fn;
            j.c = c.ptr;
            j.a = a.ptr;
            j.b = b.ptr;
            j.dim = dim;
            gl_buf_poison(&c);
            run(&j);
            GL_CHECK_LAUNCH(variants[v].name);
            gl_buf_download(&c, h_c);
            if (gl_buf_check_guards(&c, &guards)) {
                gl_guard_describe(&guards, c.bytes, sizeof(float), "C", why, sizeof why);
            } else if (gl_matmul_check(h_a, h_b, h_c, dim, dim, dim, FULL_CHECK, SAMPLE_RANDOM, &rng,
                                       &cmp)) {
                gl_cmp_describe(&cmp, "C", gl_index_2d, &dim, why, sizeof why);
            } else {
                ms[v] = gl_time_ms(run, &j, gl_timing_default());
                continue;
            }
            ms[v] = -1.0; /* wrong: not timed */
            wrong++;
            printf("%s at size %d is WRONG: %s\n", variants[v].name, dim, why);
        }

        for (v = 0; v < NVARIANTS; v++) { /* the worklog, then the roof */
            gl_table_cell(table, "%d", dim);
            gl_table_cell(table, "%s", variants[v].name);
            if (ms[v] < 0.0) {
                gl_table_cell(table, "-");
                gl_table_cell(table, "-");
                gl_table_cell(table, "-");
                gl_table_cell(table, "-");
                gl_table_cell(table, "WRONG");
                prev = -1;
                continue;
            }
            gl_table_cell(table, "%.3f", ms[v]);
            gl_table_cell(table, "%.0f", flops / ms[v] / 1e6);
            if (ms[CUBLAS] > 0.0)
                gl_table_cell(table, "%.1f", gl_percent(ms[CUBLAS], ms[v]));
            else
                gl_table_cell(table, "-");
            if (prev >= 0)
                gl_table_cell(table, "%.2f", ms[prev] / ms[v]);
            else
                gl_table_cell(table, "-");
            gl_table_cell(table, "ok");
            prev = v;
        }
        gl_buf_free(&a);
        gl_buf_free(&b);
        gl_buf_free(&c);
        free(h_a);
        free(h_b);
        free(h_c);
    }

    status = gl_demo_end(table, &args, wrong, "11");
    return status;
}
