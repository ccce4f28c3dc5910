/* demo.c: lab 08-transpose's comparison table.
 *
 *   make run LAB=08      your transpose.cu       make demo LAB=08   the reference
 *   build/.../demo [--csv FILE] [ROWS [COLS]]    (default 8192 x 8192)
 *
 * Each variant runs once, checked as the grader checks it (the lab's problem, lab.c); a right
 * one is then timed (median of 21 runs, L2 flushed before each): effective bandwidth (bytes read
 * + written per second) and its share of the device's measured cudaMemcpy device to device. */
#include "lab.h"

#include <stdio.h>

static const gl_demo_variant variants[] = { /* launcher, label, the baseline of the speedups */
    {"transpose_copy", "copy", 0}, {"transpose_naive", "naive", 1},
    {"transpose_tiled", "tiled", 0}, {"transpose_padded", "tiled+padded", 0}, {NULL, NULL, 0}};

int main(int argc, char **argv)
{
    gl_demo_args args;
    transpose_size z;
    char note[64];
    int dims[2]; /* rows, cols */
    gl_demo_dims(argc, argv, "[--csv FILE] [ROWS [COLS]]  (default 8192 x 8192)", 2, 8192,
                 TRANSPOSE_MAX_DIM, &args, dims);
    z = (transpose_size){.rows = dims[0], .cols = dims[1]};
    snprintf(note, sizeof note, "%d x %d floats", z.rows, z.cols);
    return gl_demo_table("08-transpose", note, variants, transpose_problem, &z, &args);
}
