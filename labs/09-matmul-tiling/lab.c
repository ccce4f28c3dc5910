/* lab.c: lab 09-matmul-tiling described once (lab.h). */
#include "lab.h"

#include <string.h> /* and, through gpulabs.h, <stdio.h> */

GL_INVOKER(call_matmul, matmul_naive, a, a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i,
           (int)a[5].i)
GL_INVOKER(call_shape, matmul_naive_shape, a,
           a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i, (int)a[5].i, (int)a[6].i, (int)a[7].i)
GL_INVOKER(call_empty, matmul_empty_launch, a, (int)a[0].i)

const gl_launcher LAB_LAUNCHERS[] = {
    {"matmul_naive_swapped", "pppiii", call_matmul, GL_GIVEN},
    {"matmul_cublas", "pppiii", call_matmul, GL_GIVEN},
    {"matmul_empty_launch", "i", call_empty, GL_GIVEN},
    {"matmul_naive", "pppiii", call_matmul, 0},
    {"matmul_naive_shape", "pppiiiii", call_shape, 0},
    {"matmul_tiled", "pppiii", call_matmul, 0},
    {"matmul_naive_grid1d", "pppiii", call_matmul, 0},
    {"matmul_naive_block_launches", "pppiii", call_matmul, 0},
    {NULL}};

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(const gl_matmul *z, const gl_cmp *cmp)
{
    if (cmp->unwritten == cmp->n && z->k == 0)
        return "With k = 0 every element of C is an empty sum, 0: the launcher still launches "
               "(only m or n == 0 launches nothing) and every thread inside C writes its sum";
    if (cmp->unwritten == cmp->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (cmp->unwritten) {
        if (!strcmp(z->launcher, "matmul_naive_shape"))
            return "Some elements were never written: the grid must cover every column (grid.x "
                   "= n / block_cols, rounded up) and every row (grid.y = m / block_rows, "
                   "rounded up) of C, and the kernel must use blockDim, not NAIVE_BLOCK";
        if (!strcmp(z->launcher, "matmul_tiled"))
            return "Some elements were never written: every thread whose (row, col) is inside C "
                   "writes its sum, also in the last tiles, which stick out of C";
        if (!strcmp(z->launcher, "matmul_naive_grid1d"))
            return "Some elements were never written: blocks_per_row = n / NAIVE_BLOCK rounded "
                   "up, and the grid is blocks_per_row times m / NAIVE_BLOCK rounded up; block "
                   "b takes block row b / blocks_per_row, block column b % blocks_per_row";
        if (!strcmp(z->launcher, "matmul_naive_block_launches"))
            return "Some elements were never written: the host loop must launch every block of "
                   "C, the last partial block row and block column included";
        return "Some elements were never written: row = blockIdx.y * blockDim.y + "
               "threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x, and every thread "
               "with row < m and col < n writes";
    }
    if (!strcmp(z->launcher, "matmul_tiled"))
        return "Wrong values: a tile element outside A or B must be loaded as 0 (a skipped load "
               "leaves the previous step's value in the tile); the tiles are a_tile[ty][tx] = "
               "a[row * k + t + tx] and b_tile[ty][tx] = b[(t + ty) * n + col]; the loop runs "
               "while t < k, the last partial tile included; only elements inside C are "
               "written, whatever m and n are multiples of; and both barriers must be there (a "
               "missing one reads an element before it is written or after the next step "
               "overwrote it)";
    return "Wrong values: element (row, col) of C is the sum over i < k of a[row * k + i] * "
           "b[i * n + col] (A has k columns, B and C have n); does the loop run over all k?";
}

gl_problem matmul_describe(const char *launcher, void *size)
{
    gl_matmul *z = size;
    gl_problem p;
    z->full = MATMUL_FULL_CHECK;
    z->lab = "09-matmul-tiling";
    memcpy(z->name, (const char *[3]){"a", "b", "c"}, sizeof z->name); /* the header's names */
    z->outside = "only elements with row < m and col < n are written (the last blocks stick "
                 "out of C: test each thread's row and column)";
    z->hint = hint;
    p = gl_matmul_problem(launcher, z); /* z's sizes known from here (z->at) */
    /* a missing bounds test writes up to a block's rows past the last row */
    p.buf[2].guard = (size_t)(z->extra[0] > TILE ? z->extra[0] : TILE) * ((size_t)z->n + TILE) *
                     sizeof(float) + 4096;
    if (!strcmp(launcher, "matmul_naive_shape")) { /* the messages name its block */
        char at[sizeof z->what];
        snprintf(at, sizeof at, "%s", z->what);
        snprintf(z->what, sizeof z->what, "with %d x %d blocks %s", z->extra[0], z->extra[1], at);
    }
    return p;
}
