/* demo.c: lab 09-matmul-tiling's comparison table (make run LAB=09: your matmul_tiling.cu; make
 * demo LAB=09: the reference): build/.../demo [--csv FILE] [M [N [K]]], by default 2048^3.
 * "variants" at M x N x K: the CPU reference (one thread, in double), the given swapped naive
 * kernel, your naive and tiled kernels, cuBLAS. "study" at no more than 1024^3 (the smallest
 * blocks are very slow): the naive kernel with blocks of every shape, then on a 2D grid, a 1D
 * grid and one block launched many times. Each GPU row is checked as the grader checks it
 * (lab.c), then timed (median of 21 runs, L2 flushed before each) against cuBLAS at its size
 * and the row it improves on (x_baseline: that row's time over this one's). */
#include "lab.h"

#include <stdio.h>

#define STUDY_MAX 1024 /* the study's largest m, n and k */
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define STR(x) #x
#define BLOCK(rows, cols) STR(rows) "x" STR(cols) /* "16x16" */
#define NAIVE BLOCK(NAIVE_BLOCK, NAIVE_BLOCK)

static gl_matmul variants, study, shapes[7]; /* the parts' products; a shape's with its block */
static char launches[16];                    /* naive_block_launches's: one a block of C */
static gl_arg empty_args[1];                 /* the given empty kernel's: that many launches */

/* The CPU's row: the whole product, one thread, summed in double (gl_matmul_ref) */
static void cpu_reference(void *size, void *const *buf)
{
    const gl_matmul *z = size;
    gl_matmul_ref(buf[0], buf[1], z->m, z->n, z->k, buf[2], NULL);
}

/* Row i of a part (variants or study: its product): its label, launcher, block and the row it
 * improves on; its pct_of_cublas is of cuBLAS at its size (row 4, or the hidden 15). A shape's
 * product is the study's with its block, read back from its key. */
#define ROW(i, part, name, fn, block, product, base) {.launcher = fn, .label = name, \
    .size = product, .keys = {#part, block, "1"}, .over = base, \
    .share_of = &cases[(i) < 5 ? 4 : 15]}
#define SHAPE(i, block, base) \
    ROW(i, study, "naive_shape", "matmul_naive_shape", #block, &shapes[(i) - 5], base)
static gl_demo_case cases[] = {
    {.launcher = "cpu_reference", .label = "cpu_reference", .keys = {"variants", "-", "-"},
     .size = &variants, .host = cpu_reference, .share_of = &cases[4], .unchecked = "ref"},
    ROW(1, variants, "naive_swapped", "matmul_naive_swapped", NAIVE, &variants, NULL),
    ROW(2, variants, "naive", "matmul_naive", NAIVE, &variants, &cases[1]),
    ROW(3, variants, "tiled", "matmul_tiled", BLOCK(TILE, TILE), &variants, &cases[2]),
    ROW(4, variants, "cublas", "matmul_cublas", "-", &variants, &cases[3]),
    SHAPE(5, 1x2, NULL), SHAPE(6, 2x4, &cases[5]), SHAPE(7, 4x8, &cases[6]),
    SHAPE(8, 8x16, &cases[7]), SHAPE(9, 16x16, &cases[8]), SHAPE(10, 16x32, &cases[9]),
    SHAPE(11, 32x32, &cases[10]),
    ROW(12, study, "naive (2D grid)", "matmul_naive", NAIVE, &study, NULL),
    ROW(13, study, "naive_grid1d", "matmul_naive_grid1d", NAIVE, &study, &cases[12]),
    {.launcher = "matmul_naive_block_launches", .label = "naive_block_launches",
     .keys = {"study", NAIVE, launches}, .size = &study, .over = &cases[12],
     .share_of = &cases[15]},
    {.launcher = "matmul_cublas", .size = &study, .unchecked = "-", .hidden = 1},
    {.launcher = "matmul_empty_launch", .args = empty_args, .unchecked = "-", .hidden = 1},
    {.launcher = NULL}};

/* The CPU's rate, the study's roof, and what block_launches's launches cost */
static void notes(gl_table *t, const double *ms)
{
    int n = (int)empty_args[0].i;
    gl_table_note(t, "cpu_reference", "%.2f s at %d x %d x %d = %.2f GFLOP/s (one thread, in "
                  "double)", ms[0] / 1e3, variants.m, variants.n, variants.k,
                  2.0 * variants.m * (double)variants.n * variants.k / ms[0] / 1e6);
    gl_table_note(t, "cublas_study_ms", "%.4f (cuBLAS FP32 at the study's size: its "
                  "pct_of_cublas)", ms[15]);
    gl_table_note(t, "launch_us", "%.2f (an empty kernel, %d launches back to back, one block "
                  "of one thread each)", 1e3 * ms[16] / n, n);
    if (ms[14] > 0.0 && ms[12] > 0.0)
        gl_table_note(t, "block_launches", "%d launches x %.2f us = %.3f ms of launch overhead; "
                      "measured %.3f ms more than the 2D grid: the rest is the blocks running "
                      "one at a time (a stream runs its kernels in order)", n,
                      1e3 * ms[16] / n, ms[16], ms[14] - ms[12]);
}

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.keys = {"part", "block", "launches"},
        .keys_first = 1, .rate_digits = 1, .no_memcpy = 1, .share = "pct_of_cublas",
        .speedup = "x_baseline", .after = notes};
    gl_demo_args args;
    char note[160];
    int dims[3], i, blocks; /* m, n, k */

    gl_demo_dims(argc, argv, "[--csv FILE] [M [N [K]]]  (default 2048 x 2048 x 2048)", 3, 2048,
                 MATMUL_MAX_DIM, &args, dims);
    variants = (gl_matmul){.m = dims[0], .n = dims[1], .k = dims[2], .sample = MATMUL_SAMPLE};
    study = (gl_matmul){.m = MIN(dims[0], STUDY_MAX), .n = MIN(dims[1], STUDY_MAX),
                        .k = MIN(dims[2], STUDY_MAX), .sample = MATMUL_SAMPLE};
    for (i = 0; i < 7; i++) { /* a shape: the study's product, its block from its key */
        shapes[i] = study;
        sscanf(cases[5 + i].keys[1], "%dx%d", &shapes[i].extra[0], &shapes[i].extra[1]);
    }
    blocks = ((study.m + NAIVE_BLOCK - 1) / NAIVE_BLOCK) * ((study.n + NAIVE_BLOCK - 1) /
                                                            NAIVE_BLOCK);
    snprintf(launches, sizeof launches, "%d", blocks);
    empty_args[0] = GL_I(blocks);
    snprintf(note, sizeof note, "variants at %d x %d x %d, study at %d x %d x %d (m x n x k, "
             "floats)", dims[0], dims[1], dims[2], study.m, study.n, study.k);
    return gl_demo_cases("09-matmul-tiling", note, cases, matmul_describe, &options, &args);
}
