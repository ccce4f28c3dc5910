/* demo.c: lab 09-matmul-tiling's comparison table.
 *
 *   make run LAB=09      your matmul_tiling.cu     make demo LAB=09   the reference
 *   build/.../demo [--csv FILE] [M [N [K]]]        (default 2048 x 2048 x 2048)
 *
 * Two parts, one table. "variants": the CPU reference (one thread, in
 * double), the given swapped naive kernel, your naive and tiled kernels, and
 * cuBLAS, at M x N x K. "study": the naive kernel with blocks of every
 * shape, then on a 2D grid, a 1D grid and one block launched many times, at
 * a size no larger than 1024 x 1024 x 1024 (the smallest blocks are very
 * slow). Each GPU row runs once on the lab's problem (lab.c) and is checked
 * as the grader checks it (within each element's FP32 error bound, on a
 * sample of C above 2^18 elements); a right one is then timed (median of 21
 * runs, L2 flushed before each) and compared with the row it improves on
 * (x_baseline: that row's time over this one's). GFLOP/s = 2 M N K / time. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NROWS 15
#define STUDY_MAX 1024 /* the study's largest m, n and k */

typedef struct {
    const char *part;  /* "variants" or "study" */
    const char *label; /* the CSV's variant */
    matmul_launcher l; /* name NULL: the CPU reference; rows x cols: the block shown */
    int baseline;      /* the row this one is compared with; -1: none */
} variant;

static const variant rows[NROWS] = {
    {"variants", "cpu_reference", {NULL, 0, 0}, -1},
    {"variants", "naive_swapped", {"matmul_naive_swapped", NAIVE_BLOCK, NAIVE_BLOCK}, -1},
    {"variants", "naive", {"matmul_naive", NAIVE_BLOCK, NAIVE_BLOCK}, 1},
    {"variants", "tiled", {"matmul_tiled", TILE, TILE}, 2},
    {"variants", "cublas", {"matmul_cublas", 0, 0}, 3},
    {"study", "naive_shape", {"matmul_naive_shape", 1, 2}, -1},
    {"study", "naive_shape", {"matmul_naive_shape", 2, 4}, 5},
    {"study", "naive_shape", {"matmul_naive_shape", 4, 8}, 6},
    {"study", "naive_shape", {"matmul_naive_shape", 8, 16}, 7},
    {"study", "naive_shape", {"matmul_naive_shape", 16, 16}, 8},
    {"study", "naive_shape", {"matmul_naive_shape", 16, 32}, 9},
    {"study", "naive_shape", {"matmul_naive_shape", 32, 32}, 10},
    {"study", "naive (2D grid)", {"matmul_naive", NAIVE_BLOCK, NAIVE_BLOCK}, -1},
    {"study", "naive_grid1d", {"matmul_naive_grid1d", NAIVE_BLOCK, NAIVE_BLOCK}, 12},
    {"study", "naive_block_launches",
     {"matmul_naive_block_launches", NAIVE_BLOCK, NAIVE_BLOCK}, 12},
};

static void run_empty(void *arg)
{
    matmul_empty(*(int *)arg);
}

static double gflops(const matmul_size *z, double ms)
{
    return 2.0 * z->mm.m * (double)z->mm.n * z->mm.k / ms / 1e6;
}

/* The CPU reference of the whole product, timed: the table's first row. */
static double cpu_seconds(int m, int n, int k)
{
    matmul_problem p;
    gl_rng rng;
    float *ref = malloc(((size_t)m * n + 1) * sizeof(float));
    double t0;
    if (!ref)
        gl_fail("not enough host memory for the CPU reference");
    gl_rng_init(&rng, gl_seed(), "09-matmul-tiling demo");
    matmul_make(&rng, m, n, k, &p);
    t0 = gl_host_seconds();
    gl_matmul_ref(p.a, p.b, m, n, k, ref, NULL);
    t0 = gl_host_seconds() - t0;
    matmul_free(&p);
    free(ref);
    return t0;
}

/* l's milliseconds on z's product, checked first (with wrong, a WRONG row is counted and said,
 * -1 returned: not timed) */
static double time_row(const matmul_launcher *l, matmul_size z, int *wrong)
{
    gl_problem p;
    const char *why;
    z.rows = l->rows;
    z.cols = l->cols;
    p = matmul_describe(l->name, &z);
    if (wrong && *(why = gl_problem_check(l->name, &p, gl_seed()))) {
        (*wrong)++;
        printf("%s is WRONG: %s\n", matmul_label(l), why);
        return -1.0;
    }
    return gl_problem_time_ms(l->name, &p, gl_seed());
}

int main(int argc, char **argv)
{
    static const matmul_launcher cublas = {"matmul_cublas", 0, 0};
    static const char *headers[] = {"part",     "variant", "block",         "launches",
                                    "time_ms",  "GFLOP/s", "pct_of_cublas", "x_baseline",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_table *table;
    matmul_size full = {{.sample = MATMUL_SAMPLE}, 0, 0}, study;
    double ms[NROWS], cublas_study_ms, empty_ms, cpu;
    int launches[NROWS], m, n, k, r, c, wrong = 0;

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
    full.mm.m = m;
    full.mm.n = n;
    full.mm.k = k;
    study = full;
    study.mm.m = m < STUDY_MAX ? m : STUDY_MAX;
    study.mm.n = n < STUDY_MAX ? n : STUDY_MAX;
    study.mm.k = k < STUDY_MAX ? k : STUDY_MAX;

    gl_demo_begin(&info);
    printf("CPU reference at %d x %d x %d (one thread, in double) ...\n", m, n, k);
    fflush(stdout);
    cpu = cpu_seconds(m, n, k);

    table = gl_table_new(NULL, 9, headers);
    gl_table_note(table, "lab", "09-matmul-tiling, variants at %d x %d x %d, study at %d x %d x "
                  "%d (m x n x k, floats)", m, n, k, study.mm.m, study.mm.n, study.mm.k);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (r = 0; r < NROWS; r++) {
        const variant *v = &rows[r];
        const matmul_size *z = strcmp(v->part, "study") ? &full : &study;
        launches[r] = strcmp(v->label, "naive_block_launches")
                          ? 1
                          : ((z->mm.m + NAIVE_BLOCK - 1) / NAIVE_BLOCK) *
                                ((z->mm.n + NAIVE_BLOCK - 1) / NAIVE_BLOCK);
        ms[r] = v->l.name ? time_row(&v->l, *z, &wrong) : 1e3 * cpu;
    }
    /* cuBLAS at the study's size, for the study's pct_of_cublas */
    cublas_study_ms = time_row(&cublas, study, NULL);
    /* what a launch costs: as many empty launches as block_launches makes */
    empty_ms = gl_time_ms(run_empty, &launches[NROWS - 1], gl_timing_default());

    gl_table_note(table, "cpu_reference", "%.2f s at %d x %d x %d = %.2f GFLOP/s (one thread, "
                  "in double)", cpu, m, n, k, gflops(&full, 1e3 * cpu));
    gl_table_note(table, "cublas_study_ms", "%.4f (cuBLAS FP32 at the study's size: its "
                  "pct_of_cublas)", cublas_study_ms);
    gl_table_note(table, "launch_us", "%.2f (an empty kernel, %d launches back to back, one "
                  "block of one thread each)", 1e3 * empty_ms / launches[NROWS - 1],
                  launches[NROWS - 1]);
    if (ms[NROWS - 1] > 0.0 && ms[12] > 0.0)
        gl_table_note(table, "block_launches", "%d launches x %.2f us = %.3f ms of launch "
                      "overhead; measured %.3f ms more than the 2D grid: the rest is the blocks "
                      "running one at a time (a stream runs its kernels in order)",
                      launches[NROWS - 1], 1e3 * empty_ms / launches[NROWS - 1], empty_ms,
                      ms[NROWS - 1] - ms[12]);

    for (r = 0; r < NROWS; r++) {
        const variant *v = &rows[r];
        const matmul_size *z = strcmp(v->part, "study") ? &full : &study;
        double roof = strcmp(v->part, "study") ? ms[4] : cublas_study_ms;
        gl_table_cell(table, "%s", v->part);
        gl_table_cell(table, "%s", v->label);
        if (v->l.rows > 0)
            gl_table_cell(table, "%dx%d", v->l.rows, v->l.cols);
        else
            gl_table_cell(table, "-");
        if (v->l.name)
            gl_table_cell(table, "%d", launches[r]);
        else
            gl_table_cell(table, "-");
        if (ms[r] < 0.0) {
            for (c = 0; c < 4; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[r]);
        gl_table_cell(table, "%.1f", gflops(z, ms[r]));
        if (roof > 0.0)
            gl_table_cell(table, "%.1f", gl_percent(roof, ms[r]));
        else
            gl_table_cell(table, "-");
        if (v->baseline >= 0 && ms[v->baseline] > 0.0)
            gl_table_cell(table, "%.2f", ms[v->baseline] / ms[r]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "%s", v->l.name ? "ok" : "ref");
    }

    return gl_demo_end(table, &args, wrong, "09");
}
