/* demo.c: lab 09-matmul-tiling's table: build/.../demo [--csv FILE] [M [N [K]]] (2048^3), the
 * "variants" at M x N x K and the "study" of the naive kernel's blocks and grids at most 1024^3
 * (small blocks are slow), each GPU row checked as the grader checks it, then timed. */
#include "lab.h" /* and, through gpulabs.h, <stdio.h> */

#define STUDY(dim) ((dim) < 1024 ? (dim) : 1024) /* the study's m, n and k */
#define NAIVE "16x16" /* the key of NAIVE_BLOCK x NAIVE_BLOCK blocks (and tiled's, "32x32") */
_Static_assert(NAIVE_BLOCK == 16 && TILE == 32, "the blocks' keys say 16x16 and 32x32");

static gl_matmul variants, study;    /* the parts' products: rows 0 to 4, and the others */
static char launches[16], note[160]; /* naive_block_launches's, one a block of C; the header */
static gl_arg empty_args[1];         /* the given empty kernel's: as many launches */

/* Row i: its launcher, label and block on its part's product (a shape: the study's with its own
 * block), over row base; its pct_of_cublas is of cuBLAS at its size (row 4, or 15) */
#define ROW(i, fn, name, block, product, base) {.launcher = fn, .label = name, .size = product, \
    .keys = {(i) < 5 ? "variants" : "study", block, (i) == 14 ? launches : "1"}, .over = base, \
    .share_of = &cases[(i) < 5 ? 4 : 15]}
#define NAMED(i, n, block, base) ROW(i, "matmul_" n, n, block, (i) < 5 ? &variants : &study, base)
#define SHAPE(i, rows, cols) ROW(i, "matmul_naive_shape", "naive_shape", #rows "x" #cols, \
    (&(gl_matmul){.at = &study, .extra = {rows, cols}}), (i) > 5 ? &cases[(i) - 1] : NULL)
static gl_demo_case cases[] = {
    {.launcher = "cpu_reference", .label = "cpu_reference", .keys = {"variants", "-", "-"},
     .size = &variants, .host = gl_matmul_host, .share_of = &cases[4], .unchecked = "ref"},
    NAMED(1, "naive_swapped", NAIVE, NULL), NAMED(2, "naive", NAIVE, &cases[1]),
    NAMED(3, "tiled", "32x32", &cases[2]), NAMED(4, "cublas", "-", &cases[3]),
    SHAPE(5, 1, 2), SHAPE(6, 2, 4), SHAPE(7, 4, 8), SHAPE(8, 8, 16), SHAPE(9, 16, 16),
    SHAPE(10, 16, 32), SHAPE(11, 32, 32),
    ROW(12, "matmul_naive", "naive (2D grid)", NAIVE, &study, NULL),
    NAMED(13, "naive_grid1d", NAIVE, &cases[12]),
    NAMED(14, "naive_block_launches", NAIVE, &cases[12]),
    NAMED(15, "cublas", "-", NULL), /* the study's roof; then as many launches of nothing */
    {.launcher = "matmul_empty_launch", .label = "empty_launch", .keys = {"study", "1x1", launches},
     .args = empty_args, .unchecked = "-"}, {NULL}};

/* The CPU's rate (the rows compare the block launches with as many empty ones) */
static void notes(gl_table *t, const double *ms)
{
    gl_matmul_note_host(t, "cpu_reference", &variants, ms[0]);
}

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.keys = {"part", "block", "launches"},
        .keys_first = 1, .rate_digits = 1, .no_memcpy = 1, .share = "pct_of_cublas",
        .speedup = "x_baseline", .after = notes};
    gl_demo_args args;
    int d[3]; /* m, n, k */
    gl_demo_dims(argc, argv, "[--csv FILE] [M [N [K]]]  (default 2048 x 2048 x 2048)", 3, 2048,
                 MATMUL_MAX_DIM, &args, d);
    variants = (gl_matmul){d[0], d[1], d[2], .sample = MATMUL_SAMPLE};
    study = (gl_matmul){STUDY(d[0]), STUDY(d[1]), STUDY(d[2]), .sample = MATMUL_SAMPLE};
    empty_args[0] = GL_I(MATMUL_BLOCK_LAUNCHES(study.m, study.n));
    snprintf(launches, sizeof launches, "%lld", empty_args[0].i);
    snprintf(note, sizeof note, "variants at %d x %d x %d, study at %d x %d x %d (m x n x k, "
             "floats)", d[0], d[1], d[2], study.m, study.n, study.k);
    return gl_demo_cases("09-matmul-tiling", note, cases, matmul_describe, &options, &args);
}
