/* lab.c: lab 09-matmul-tiling described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <string.h>

typedef void (*matmul_fn)(float *c, const float *a, const float *b, int m, int n, int k);
typedef void (*shape_fn)(float *c, const float *a, const float *b, int m, int n, int k,
                         int block_rows, int block_cols);
typedef void (*empty_fn)(int launches);
GL_INVOKER(call_matmul, matmul_fn, a, a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i,
           (int)a[5].i)
GL_INVOKER(call_shape, shape_fn, a, a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i,
           (int)a[5].i, (int)a[6].i, (int)a[7].i)
GL_INVOKER(call_empty, empty_fn, a, (int)a[0].i)

const gl_launcher LAB_LAUNCHERS[] = {
    {"matmul_naive_swapped", "pppiii", call_matmul, GL_GIVEN},
    {"matmul_cublas", "pppiii", call_matmul, GL_GIVEN},
    {"matmul_empty_launch", "i", call_empty, GL_GIVEN},
    {"matmul_naive", "pppiii", call_matmul, 0},
    {"matmul_naive_shape", "pppiiiii", call_shape, 0},
    {"matmul_tiled", "pppiii", call_matmul, 0},
    {"matmul_naive_grid1d", "pppiii", call_matmul, 0},
    {"matmul_naive_block_launches", "pppiii", call_matmul, 0},
    {NULL, NULL, NULL, 0},
};

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(const gl_matmul *z, const gl_cmp *cmp)
{
    const char *l = z->launcher;
    if (cmp->unwritten == cmp->n && z->k == 0)
        return "With k = 0 every element of C is an empty sum, 0: the launcher still launches "
               "(only m or n == 0 launches nothing) and every thread inside C writes its sum";
    if (cmp->unwritten == cmp->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (cmp->unwritten) {
        if (!strcmp(l, "matmul_naive_shape"))
            return "Some elements were never written: the grid must cover every column (grid.x "
                   "= n / block_cols, rounded up) and every row (grid.y = m / block_rows, "
                   "rounded up) of C, and the kernel must use blockDim, not NAIVE_BLOCK";
        if (!strcmp(l, "matmul_tiled"))
            return "Some elements were never written: every thread whose (row, col) is inside C "
                   "writes its sum, also in the last tiles, which stick out of C";
        if (!strcmp(l, "matmul_naive_grid1d"))
            return "Some elements were never written: blocks_per_row = n / NAIVE_BLOCK rounded "
                   "up, and the grid is blocks_per_row times m / NAIVE_BLOCK rounded up; block "
                   "b takes block row b / blocks_per_row, block column b % blocks_per_row";
        if (!strcmp(l, "matmul_naive_block_launches"))
            return "Some elements were never written: the host loop must launch every block of "
                   "C, the last partial block row and block column included";
        return "Some elements were never written: row = blockIdx.y * blockDim.y + "
               "threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x, and every thread "
               "with row < m and col < n writes";
    }
    if (!strcmp(l, "matmul_tiled"))
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
    /* a missing bounds test writes up to a block's rows past the last row */
    size_t block_rows = (size_t)(z->extra[0] > TILE ? z->extra[0] : TILE);
    gl_problem p;
    z->full = MATMUL_FULL_CHECK;
    z->lab = "09-matmul-tiling";
    z->name[0] = "a";
    z->name[1] = "b";
    z->name[2] = "c";
    z->outside = "only elements with row < m and col < n are written (the last blocks stick "
                 "out of C: test each thread's row and column)";
    z->guard = block_rows * ((size_t)z->n + TILE) * sizeof(float) + 4096;
    z->hint = hint;
    p = gl_matmul_problem(launcher, z);
    if (!strcmp(launcher, "matmul_naive_shape")) { /* the messages name its block */
        char at[sizeof z->what];
        snprintf(at, sizeof at, "%s", z->what);
        snprintf(z->what, sizeof z->what, "with %d x %d blocks %s", z->extra[0], z->extra[1],
                 at);
    }
    return p;
}
