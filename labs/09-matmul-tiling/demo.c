/* demo.c: lab 09-matmul-tiling's comparison table.
 *
 *   make run LAB=09      your matmul_tiling.cu     make demo LAB=09   the reference
 *   build/.../demo [--csv FILE] [M [N [K]]]        (default 2048 x 2048 x 2048)
 *
 * Two parts, one table. "variants": the CPU reference (one thread, in
 * double: the check of every row), the given swapped naive kernel, your naive
 * and tiled kernels, and cuBLAS, at M x N x K. "study": the naive kernel
 * with blocks of every shape, then on a 2D grid, a 1D grid and one block
 * launched many times, at a size no larger than 1024 x 1024 x 1024 (the
 * smallest blocks are very slow). Each GPU row runs once on poisoned output
 * and is checked against the CPU within each element's FP32 error bound; a
 * right one is then timed (median of 21 runs, L2 flushed before each; a row
 * whose one run took long is timed with fewer runs, and a note says so) and
 * compared with the row it improves on (x_baseline: that row's time over
 * this one's). GFLOP/s = 2 M N K / time. */
#include "gpulabs.h"
#include "matmul_tiling.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NROWS 15
#define STUDY_MAX 1024 /* the study's largest m, n and k */

typedef void (*matmul_fn)(float *c, const float *a, const float *b, int m, int n, int k);

typedef enum { CPU, PLAIN, SHAPE, BLOCKS } kind;

typedef struct {
    const char *part;  /* "variants" or "study" */
    const char *name;
    kind what;
    matmul_fn fn;      /* PLAIN and BLOCKS */
    int rows, cols;    /* the block (threads); 0: none to show */
    int baseline;      /* the row this one is compared with; -1: none */
} variant;

/* One size of the product, on the host and on the device. */
typedef struct {
    int m, n, k;
    gl_buf a, b, c;
    float *h_a, *h_b, *h_ref, *h_bound, *h_c;
    double cpu_seconds; /* the reference's time */
} problem;

typedef struct {
    const variant *v;
    problem *p;
} job;

static void run(void *arg)
{
    job *j = arg;
    problem *p = j->p;
    if (j->v->what == SHAPE)
        matmul_naive_shape(p->c.ptr, p->a.ptr, p->b.ptr, p->m, p->n, p->k, j->v->rows,
                           j->v->cols);
    else
        j->v->fn(p->c.ptr, p->a.ptr, p->b.ptr, p->m, p->n, p->k);
}

typedef struct {
    int launches;
} empty_job;

static void run_empty(void *arg)
{
    matmul_empty_launch(((empty_job *)arg)->launches);
}

static void *host_alloc(size_t count, const char *prog)
{
    void *p = malloc((count ? count : 1) * sizeof(float));
    if (!p) {
        fprintf(stderr, "%s: not enough host memory\n", prog);
        exit(1);
    }
    return p;
}

static void problem_init(problem *p, int m, int n, int k, gl_rng *rng, const char *prog)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    double t0;
    p->m = m;
    p->n = n;
    p->k = k;
    p->h_a = host_alloc(na, prog);
    p->h_b = host_alloc(nb, prog);
    p->h_ref = host_alloc(nc, prog);
    p->h_bound = host_alloc(nc, prog);
    p->h_c = host_alloc(nc, prog);
    gl_fill_float(rng, p->h_a, na, -1.0f, 1.0f);
    gl_fill_float(rng, p->h_b, nb, -1.0f, 1.0f);
    t0 = gl_host_seconds();
    gl_matmul_ref(p->h_a, p->h_b, m, n, k, p->h_ref, p->h_bound);
    p->cpu_seconds = gl_host_seconds() - t0;
    p->a = gl_buf_alloc((na ? na : 1) * sizeof(float), 0);
    p->b = gl_buf_alloc((nb ? nb : 1) * sizeof(float), 0);
    p->c = gl_buf_alloc((nc ? nc : 1) * sizeof(float), 0);
    gl_buf_upload(&p->a, p->h_a);
    gl_buf_upload(&p->b, p->h_b);
}

static void problem_free(problem *p)
{
    gl_buf_free(&p->a);
    gl_buf_free(&p->b);
    gl_buf_free(&p->c);
    free(p->h_a);
    free(p->h_b);
    free(p->h_ref);
    free(p->h_bound);
    free(p->h_c);
}

static double gflops(const problem *p, double ms)
{
    return 2.0 * p->m * (double)p->n * p->k / ms / 1e6;
}

int main(int argc, char **argv)
{
    static const variant rows[NROWS] = {
        {"variants", "cpu_reference", CPU, NULL, 0, 0, -1},
        {"variants", "naive_swapped", PLAIN, matmul_naive_swapped, NAIVE_BLOCK, NAIVE_BLOCK, -1},
        {"variants", "naive", PLAIN, matmul_naive, NAIVE_BLOCK, NAIVE_BLOCK, 1},
        {"variants", "tiled", PLAIN, matmul_tiled, TILE, TILE, 2},
        {"variants", "cublas", PLAIN, matmul_cublas, 0, 0, 3},
        {"study", "naive_shape", SHAPE, NULL, 1, 2, -1},
        {"study", "naive_shape", SHAPE, NULL, 2, 4, 5},
        {"study", "naive_shape", SHAPE, NULL, 4, 8, 6},
        {"study", "naive_shape", SHAPE, NULL, 8, 16, 7},
        {"study", "naive_shape", SHAPE, NULL, 16, 16, 8},
        {"study", "naive_shape", SHAPE, NULL, 16, 32, 9},
        {"study", "naive_shape", SHAPE, NULL, 32, 32, 10},
        {"study", "naive (2D grid)", PLAIN, matmul_naive, NAIVE_BLOCK, NAIVE_BLOCK, -1},
        {"study", "naive_grid1d", PLAIN, matmul_naive_grid1d, NAIVE_BLOCK, NAIVE_BLOCK, 12},
        {"study", "naive_block_launches", BLOCKS, matmul_naive_block_launches, NAIVE_BLOCK,
         NAIVE_BLOCK, 12},
    };
    static const char *headers[] = {"part",     "variant", "block",         "launches",
                                    "time_ms",  "GFLOP/s", "pct_of_cublas", "x_baseline",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    problem full, study;
    empty_job empty;
    double ms[NROWS], cublas_study_ms = -1.0, empty_ms;
    int launches[NROWS], runs[NROWS];
    int m, n, k, r, wrong = 0, status;
    char slow[512] = "";

    gl_demo_parse(argc, argv, "[--csv FILE] [M [N [K]]]  (default 2048 x 2048 x 2048)", 3, 1,
                  MATMUL_MAX_DIM, &args);
    m = args.nvalues > 0 ? (int)args.values[0] : 2048;
    n = args.nvalues > 1 ? (int)args.values[1] : m;
    k = args.nvalues > 2 ? (int)args.values[2] : n;
    if ((long long)m * k >= (1LL << 31) || (long long)k * n >= (1LL << 31) ||
        (long long)m * n >= (1LL << 31)) {
        fprintf(stderr, "%s: %d x %d x %d has a matrix of 2^31 elements or more; the lab's int "
                        "indices do not reach that far\n", argv[0], m, n, k);
        return 2;
    }

    gl_demo_begin(&info);
    gl_rng_init(&rng, gl_seed(), "09-matmul-tiling demo");
    printf("CPU reference at %d x %d x %d (one thread, in double) ...\n", m, n, k);
    fflush(stdout);
    problem_init(&full, m, n, k, &rng, argv[0]);
    problem_init(&study, m < STUDY_MAX ? m : STUDY_MAX, n < STUDY_MAX ? n : STUDY_MAX,
                 k < STUDY_MAX ? k : STUDY_MAX, &rng, argv[0]);

    table = gl_table_new(NULL, 9, headers);
    gl_table_note(table, "lab", "09-matmul-tiling, variants at %d x %d x %d, study at %d x %d x "
                  "%d (m x n x k, floats)", m, n, k, study.m, study.n, study.k);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (r = 0; r < NROWS; r++) {
        const variant *v = &rows[r];
        problem *p = strcmp(v->part, "study") ? &full : &study;
        job j = {v, p};
        size_t nc = (size_t)p->m * p->n;
        gl_guard_report guards;
        gl_timing_opts opts = gl_timing_default();
        gl_cmp cmp;
        char why[1024];
        double t0, once;

        launches[r] = v->what == BLOCKS ? ((p->m + NAIVE_BLOCK - 1) / NAIVE_BLOCK) *
                                              ((p->n + NAIVE_BLOCK - 1) / NAIVE_BLOCK)
                                        : 1;
        runs[r] = opts.reps;
        if (v->what == CPU) {
            ms[r] = 1e3 * p->cpu_seconds;
            continue;
        }
        gl_buf_poison(&p->c);
        t0 = gl_host_seconds();
        run(&j);
        GL_CHECK_LAUNCH(v->name);
        GL_CUDA(cudaDeviceSynchronize());
        once = gl_host_seconds() - t0;
        gl_buf_download(&p->c, p->h_c);
        if (gl_buf_check_guards(&p->c, &guards)) {
            gl_guard_describe(&guards, p->c.bytes, sizeof(float), "c", why, sizeof why);
        } else if (gl_compare_float_bound(p->h_ref, p->h_c, p->h_bound, nc, &cmp)) {
            gl_cmp_describe(&cmp, "c", gl_index_2d, &p->n, why, sizeof why);
        } else {
            /* the slowest shapes take seconds a run: fewer runs, still the median */
            if (once > 0.5) {
                opts.warmup = 0;
                opts.reps = 1;
            } else if (once > 0.05) {
                opts.warmup = 1;
                opts.reps = 5;
            }
            if (opts.reps != runs[r]) {
                size_t used = strlen(slow);
                char block[32] = ""; /* cuBLAS and the CPU have no block to name */
                if (v->rows > 0)
                    snprintf(block, sizeof block, " %dx%d", v->rows, v->cols);
                snprintf(slow + used, sizeof slow - used, "%s%s%s (%d run%s)",
                         used ? ", " : "", v->name, block, opts.reps,
                         opts.reps > 1 ? "s" : "");
            }
            runs[r] = opts.reps;
            ms[r] = gl_time_ms(run, &j, opts);
            continue;
        }
        ms[r] = -1.0; /* wrong: not timed */
        wrong++;
        if (v->what == SHAPE)
            printf("%s with %d x %d blocks is WRONG: %s\n", v->name, v->rows, v->cols, why);
        else
            printf("%s is WRONG: %s\n", v->name, why);
    }
    /* cuBLAS at the study's size, for the study's pct_of_cublas */
    {
        static const variant cublas = {"study", "cublas", PLAIN, matmul_cublas, 0, 0, -1};
        job j = {&cublas, &study};
        cublas_study_ms = gl_time_ms(run, &j, gl_timing_default());
    }
    /* what a launch costs: as many empty launches as block_launches makes */
    empty.launches = launches[NROWS - 1];
    empty_ms = gl_time_ms(run_empty, &empty, gl_timing_default());

    gl_table_note(table, "cpu_reference", "%.2f s at %d x %d x %d = %.2f GFLOP/s (one thread, "
                  "in double)", full.cpu_seconds, m, n, k,
                  gflops(&full, 1e3 * full.cpu_seconds));
    gl_table_note(table, "cublas_study_ms", "%.4f (cuBLAS FP32 at the study's size: its "
                  "pct_of_cublas)", cublas_study_ms);
    gl_table_note(table, "launch_us", "%.2f (an empty kernel, %d launches back to back, one "
                  "block of one thread each)", 1e3 * empty_ms / empty.launches, empty.launches);
    if (ms[NROWS - 1] > 0.0 && ms[12] > 0.0)
        gl_table_note(table, "block_launches", "%d launches x %.2f us = %.3f ms of launch "
                      "overhead; measured %.3f ms more than the 2D grid: the rest is the blocks "
                      "running one at a time (a stream runs its kernels in order)",
                      empty.launches, 1e3 * empty_ms / empty.launches, empty_ms,
                      ms[NROWS - 1] - ms[12]);
    if (slow[0])
        gl_table_note(table, "fewer_runs", "%s", slow);

    for (r = 0; r < NROWS; r++) {
        const variant *v = &rows[r];
        const problem *p = strcmp(v->part, "study") ? &full : &study;
        double roof = strcmp(v->part, "study") ? ms[4] : cublas_study_ms;
        int base = v->baseline;
        gl_table_cell(table, "%s", v->part);
        gl_table_cell(table, "%s", v->name);
        if (v->rows > 0)
            gl_table_cell(table, "%dx%d", v->rows, v->cols);
        else
            gl_table_cell(table, "-");
        if (v->what == CPU)
            gl_table_cell(table, "-");
        else
            gl_table_cell(table, "%d", launches[r]);
        if (ms[r] < 0.0) {
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[r]);
        gl_table_cell(table, "%.1f", gflops(p, ms[r]));
        if (roof > 0.0)
            gl_table_cell(table, "%.1f", gl_percent(roof, ms[r]));
        else
            gl_table_cell(table, "-");
        if (base >= 0 && ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[r]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "%s", v->what == CPU ? "ref" : "ok");
    }

    status = gl_demo_end(table, &args, wrong, "09");
    problem_free(&full);
    problem_free(&study);
    return status;
}
