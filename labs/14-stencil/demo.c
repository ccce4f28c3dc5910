/* demo.c: lab 14-stencil's comparison table.
 *
 *   make run LAB=14      your stencil.cu       make demo LAB=14   the reference
 *   build/.../demo [--csv FILE] [ROWS [COLS]]  (default 4096 x 4096)
 *
 * Each variant runs once and is checked as the grader checks it (the lab's problem, lab.c);
 * a right one is then timed (median of 21 runs, L2 flushed before each) and reported as
 * effective bandwidth (the image read once and written once, per second), as a share of the
 * device's measured cudaMemcpy device-to-device bandwidth, and as a speedup over the given
 * stencil_global: the ratios the grader's performance tests claim (x_global). */
#include "lab.h"

#include <stdio.h>

static const gl_demo_variant variants[] = {
    {"stencil_global", "global", 1},
    {"stencil_ldg", "ldg", 0},
    {"stencil_shared", "shared tile", 0},
    {"stencil_texture", "texture", 0},
    {NULL, NULL, 0},
};

int main(int argc, char **argv)
{
    gl_demo_args args;
    stencil_size z;
    char note[80];
    int dims[2]; /* rows, cols */

    gl_demo_dims(argc, argv, "[--csv FILE] [ROWS [COLS]]  (default 4096 x 4096)", 2, 4096,
                 STENCIL_MAX_DIM, &args, dims);
    z.rows = dims[0];
    z.cols = dims[1];
    z.pitch = 0;
    snprintf(note, sizeof note, "%d x %d floats, a %d x %d filter", z.rows, z.cols, DIAMETER,
             DIAMETER);
    return gl_demo_table("14-stencil", note, variants, stencil_problem, &z, &args);
}
