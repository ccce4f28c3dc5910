/* lab.c: lab 11-sgemm described once (lab.h). */
#include "lab.h"

#include <string.h>

GL_INVOKER(call_sgemm, sgemm_naive, a, a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i,
           (int)a[5].i)

#define SGEMM(name, flags) {"sgemm_" name, "pppiii", call_sgemm, flags} /* all (c, a, b, m, n, k) */
const gl_launcher LAB_LAUNCHERS[] = {
    SGEMM("cublas", GL_GIVEN), SGEMM("naive", GL_GIVEN), SGEMM("tiled", GL_GIVEN),
    SGEMM("blocktiled_1d", 0), SGEMM("blocktiled_2d", 0), SGEMM("vectorized", 0),
    SGEMM("prefetch", 0), {NULL}};

/* What usually causes a wrong C, per task, in the lab's terms. */
static const char *hint(const gl_matmul *z, const gl_cmp *c)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO?";
    if (c->unwritten) {
        if (strstr(z->launcher, "vectorized") || strstr(z->launcher, "prefetch"))
            return "Some elements of C were never written: each thread stores four quadrants, "
                   "rows ty * 4 and 64 + ty * 4, columns tx * 4 and 64 + tx * 4 of the block's "
                   "tile; the edge tests compare with m and n, element by element";
        return "Some elements of C were never written: does every thread store all of its "
               "results, at the right rows and columns of the block's tile, and do the edge "
               "tests compare with m and n?";
    }
    if (strstr(z->launcher, "1d"))
        return "Wrong values: thread t owns rows (t / BN1) * TM1 .. + TM1 - 1 of column t % BN1; "
               "the tiles are zero outside A and B, and a __syncthreads() follows both the "
               "loads and the math of every step";
    if (strstr(z->launcher, "2d"))
        return "Wrong values: thread (ty, tx) owns rows ty * TM .. and columns tx * TN .. of the "
               "block's tile; the tiles are zero outside A and B (the last tile of k is "
               "partial), and a __syncthreads() follows both the loads and the math";
    if (strstr(z->launcher, "vectorized"))
        return "Wrong values: as is A's tile transposed (as[i][r] = A(row0 + r, k0 + i)), so "
               "a float4 of as[i][ty * 4] holds four rows; the quadrant at +64 rows and columns "
               "uses acc[r][q] with r or q >= 4; past the edges load4 gives zeros";
    return "Wrong values: the next tile goes into the other buffer (buf ^ 1), the math reads "
           "buffer buf, and every tile, the last one too, is used once";
}

gl_problem sgemm_describe(const char *launcher, void *size)
{
    gl_matmul *z = size;
    z->full = SGEMM_FULL_CHECK;
    z->lab = "11-sgemm";
    z->outside = "a store of the last, partial tiles is missing its edge test (row < m, column "
                 "< n)";
    /* a missing edge test writes up to a block tile (BM rows or BN columns) too far */
    z->guard = (size_t)BM * ((size_t)z->n + BN) * sizeof(float) + 4096;
    z->hint = hint;
    return gl_matmul_problem(launcher, z);
}
