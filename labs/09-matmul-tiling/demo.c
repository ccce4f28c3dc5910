/* demo.c: lab 09-matmul-tiling's comparison table (make run LAB=09: your matmul_tiling.cu; make
 * demo LAB=09: the reference): build/.../demo [--csv FILE] [M [N [K]]], by default 2048^3.
 * "variants": the CPU reference (one thread, in double), the given swapped naive kernel,
 * your naive and tiled kernels, and cuBLAS, at M x N x K. "study": the naive kernel with blocks
 * of every shape, then on a 2D grid, a 1D grid and one block launched many times, at a size no
 * larger than 1024^3 (the smallest blocks are very slow). Each GPU row is checked as the grader
 * checks it (lab.c), then timed (median of 21 runs, L2 flushed before each) against cuBLAS at
 * its size and the row it improves on (x_baseline: that row's time over this one's). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

#define STUDY_MAX 1024 /* the study's largest m, n and k */
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define STR(x) #x
#define BLOCK(rows, cols) STR(rows) "x" STR(cols) /* "16x16" */

static gl_matmul sizes[16]; /* each row's product (the variants' or the study's), its block */
static char launches[16];   /* naive_block_launches's: one a block of C */

/* Row i of a part: its label, its launcher, its block (its key, read back into its size) and
 * the row it improves on; its pct_of_cublas is of cuBLAS at its size (row 4, or 15: hidden). */
#define ROW(i, part, name, fn, block, base) {.launcher = fn, .label = name, .size = &sizes[i], \
    .keys = {part, block, "1"}, .over = base, .share_of = &cases[(i) < 5 ? 4 : 15]}
#define SHAPE(i, block, base) ROW(i, "study", "naive_shape", "matmul_naive_shape", #block, base)
#define NAIVE BLOCK(NAIVE_BLOCK, NAIVE_BLOCK)
static gl_demo_case cases[] = {
    {.launcher = "cpu_reference", .label = "cpu_reference", .keys = {"variants", "-", "-"},
     .size = &sizes[0], .share_of = &cases[4], .unchecked = "ref"}, /* its ms: cpu_row's */
    ROW(1, "variants", "naive_swapped", "matmul_naive_swapped", NAIVE, NULL),
    ROW(2, "variants", "naive", "matmul_naive", NAIVE, &cases[1]),
    ROW(3, "variants", "tiled", "matmul_tiled", BLOCK(TILE, TILE), &cases[2]),
    ROW(4, "variants", "cublas", "matmul_cublas", "-", &cases[3]),
    SHAPE(5, 1x2, NULL), SHAPE(6, 2x4, &cases[5]), SHAPE(7, 4x8, &cases[6]),
    SHAPE(8, 8x16, &cases[7]), SHAPE(9, 16x16, &cases[8]), SHAPE(10, 16x32, &cases[9]),
    SHAPE(11, 32x32, &cases[10]),
    ROW(12, "study", "naive (2D grid)", "matmul_naive", NAIVE, NULL),
    ROW(13, "study", "naive_grid1d", "matmul_naive_grid1d", NAIVE, &cases[12]),
    {.launcher = "matmul_naive_block_launches", .label = "naive_block_launches",
     .keys = {"study", NAIVE, launches}, .size = &sizes[14], .over = &cases[12],
     .share_of = &cases[15]},
    {.launcher = "matmul_cublas", .size = &sizes[15], .unchecked = "-", .hidden = 1},
    {.launcher = NULL}};

/* The CPU's row: the whole product on random A and B, one thread, summed in double
 * (gl_matmul_ref), timed once; its note is the first after the seed */
static void cpu_row(gl_table *t)
{
    const gl_matmul *z = &sizes[0];
    size_t na = (size_t)z->m * z->k, nb = (size_t)z->k * z->n; /* A, B, then C in one allocation */
    float *a;
    gl_rng rng;
    double t0;
    printf("CPU reference at %d x %d x %d (one thread, in double) ...\n", z->m, z->n, z->k);
    fflush(stdout);
    a = malloc((na + nb + (size_t)z->m * z->n + 1) * sizeof(float));
    if (!a)
        gl_fail("out of host memory for the CPU reference at %d x %d x %d", z->m, z->n, z->k);
    gl_rng_init(&rng, gl_seed(), "09-matmul-tiling demo");
    gl_fill_float(&rng, a, na, -1.0f, 1.0f);
    gl_fill_float(&rng, a + na, nb, -1.0f, 1.0f);
    t0 = gl_host_seconds();
    gl_matmul_ref(a, a + na, z->m, z->n, z->k, a + na + nb, NULL);
    cases[0].ms = 1e3 * (gl_host_seconds() - t0);
    free(a);
    gl_table_note(t, "cpu_reference", "%.2f s at %d x %d x %d = %.2f GFLOP/s (one thread, in "
                  "double)", cases[0].ms / 1e3, z->m, z->n, z->k,
                  cases[0].counts[0] / cases[0].ms / 1e6);
}

static void empty_launches(void *args)
{
    gl_exec("matmul_empty_launch", args);
}

/* The study's roof, and what block_launches's launches cost */
static void overheads(gl_table *t, const double *ms)
{
    int n = atoi(launches);
    gl_arg args[] = {GL_I(n)}; /* the given empty kernel, n launches back to back */
    double empty_ms = gl_time_ms(empty_launches, args, gl_timing_default());
    gl_table_note(t, "cublas_study_ms", "%.4f (cuBLAS FP32 at the study's size: its "
                  "pct_of_cublas)", ms[15]);
    gl_table_note(t, "launch_us", "%.2f (an empty kernel, %d launches back to back, one block "
                  "of one thread each)", 1e3 * empty_ms / n, n);
    if (ms[14] > 0.0 && ms[12] > 0.0)
        gl_table_note(t, "block_launches", "%d launches x %.2f us = %.3f ms of launch overhead; "
                      "measured %.3f ms more than the 2D grid: the rest is the blocks running "
                      "one at a time (a stream runs its kernels in order)", n,
                      1e3 * empty_ms / n, empty_ms, ms[14] - ms[12]);
}

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.keys = {"part", "block", "launches"},
        .keys_first = 1, .rates = {"GFLOP/s"}, .no_memcpy = 1, .share = "pct_of_cublas",
        .speedup = "x_baseline", .before = cpu_row, .after = overheads};
    const gl_matmul *study = &sizes[15];
    gl_demo_args args;
    char note[160];
    int dims[3], i; /* m, n, k */

    gl_demo_dims(argc, argv, "[--csv FILE] [M [N [K]]]  (default 2048 x 2048 x 2048)", 3, 2048,
                 MATMUL_MAX_DIM, &args, dims);
    for (i = 0; cases[i].launcher; i++) { /* its product (the study's smaller), block, flops */
        int most = i < 5 ? MATMUL_MAX_DIM : STUDY_MAX;
        gl_matmul *z = &sizes[i];
        *z = (gl_matmul){.m = MIN(dims[0], most), .n = MIN(dims[1], most),
                         .k = MIN(dims[2], most), .sample = MATMUL_SAMPLE};
        sscanf(cases[i].keys[1] ? cases[i].keys[1] : "", "%dx%d", &z->extra[0], &z->extra[1]);
        cases[i].counts[0] = 2.0 * z->m * (double)z->n * z->k;
    }
    snprintf(launches, sizeof launches, "%d", ((study->m + NAIVE_BLOCK - 1) / NAIVE_BLOCK) *
             ((study->n + NAIVE_BLOCK - 1) / NAIVE_BLOCK));
    snprintf(note, sizeof note, "variants at %d x %d x %d, study at %d x %d x %d (m x n x k, "
             "floats)", dims[0], dims[1], dims[2], study->m, study->n, study->k);
    return gl_demo_cases("09-matmul-tiling", note, cases, matmul_describe, &options, &args);
}
