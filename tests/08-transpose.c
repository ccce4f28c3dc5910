/* 08-transpose.c: the grader's suite for lab 08-transpose.
 *
 *   correctness  tiled and padded on every class of size (rows and columns each a multiple of
 *                32 or not), tiny and large ones, and one drawn from the run's seed; the
 *                launchers return at once (the work is on the GPU)
 *   technique    a __shared__ tile and a barrier in both kernels; the padded tile's row pitch is
 *                not a multiple of 32 words
 *   performance  tiled and padded against the lab's own naive transpose and copy kernel
 *   profile      shared-memory wavefronts per request (Nsight Compute): 1 for the padded kernel
 *                (no bank conflicts), many for the tiled one */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdio.h>

/* Each task on a tile, a matrix narrower and shorter than one, rows or columns or both not a
 * multiple of 32, and 4096 x 4096: RIGHT(TASK, ROWS, COLS, ...) is test TASK_ROWSxCOLS */
#define RIGHT(task, rows, cols, points, timeout_s)                                            \
    GL_RIGHT(task##_##rows##x##cols, points, timeout_s, #task ", " #rows " x " #cols,         \
             .run = "transpose_" #task " " #rows " " #cols)
#define CORRECTNESS(task)                                                                     \
    RIGHT(task, 1, 1, 1, 15) RIGHT(task, 64, 1000, 1, 15) RIGHT(task, 1000, 64, 1, 15)         \
    RIGHT(task, 1, 1000, 1, 15) RIGHT(task, 1000, 1, 1, 15) RIGHT(task, 33, 31, 2, 15)         \
    RIGHT(task, 1025, 2049, 2, 15) RIGHT(task, 4096, 4096, 2, 60)

CORRECTNESS(tiled)
CORRECTNESS(padded)

/* A size from the run's seed: any class of rows and columns. */
GL_RIGHT(tiled_random, 1, 15, "tiled, a size drawn from the seed",
         .run = "transpose_tiled 1..3000 1..3000")
GL_RIGHT(padded_random, 1, 15, "padded, a size drawn from the seed",
         .run = "transpose_padded 1..3000 1..3000")

/* The launcher only enqueues its kernel: 1000 x 1000 behind a 150 ms kernel. */
GL_QUEUED(tiled_async, 2, "tiled, launcher returns at once", .run = "transpose_tiled 1000 1000")
GL_QUEUED(padded_async, 2, "padded, launcher returns at once", .run = "transpose_padded 1000 1000")

/* ---- technique: read from the PTX and ptxas report, no GPU needed ---- */

/* The kernel stages a tile of at least TILE_DIM x TILE_DIM floats in shared
 * memory, writes it and reads it. Returns the tile's size in bytes. */
static long check_shared_tile(const char *kernel, int task)
{
    char lesson[256];
    snprintf(lesson, sizeof lesson,
             "Task %d stages a TILE_DIM x TILE_DIM tile in shared memory: read it row by row "
             "from in (coalesced), write it row by row of out (coalesced), reading the tile by "
             "columns in between", task);
    long bytes = gl_kernel_shared_bytes(kernel, lesson);
    if (bytes < (long)(TILE_DIM * TILE_DIM * sizeof(float)))
        gl_check_fail("%s's shared tile has %ld bytes, less than a %d x %d tile of floats (%zu "
                      "bytes)",
                      kernel, bytes, TILE_DIM, TILE_DIM, TILE_DIM * TILE_DIM * sizeof(float));
    gl_expect_shared_rw(gl_kernel_entry(kernel), kernel, lesson);
    return bytes;
}

static void check_barrier(const char *kernel)
{
    gl_expect_barriers(gl_kernel_entry(kernel), kernel, 1,
                       "between writing the tile and reading it by columns, every thread must "
                       "wait, or it reads elements that other warps have not written yet");
}

GL_KERNEL_TEST(tiled_shared_tile, 3, "tiled: a shared tile", "transpose_tiled",
               "transpose_tiled_kernel", check_shared_tile(k, 1))
GL_KERNEL_TEST(tiled_barrier, 2, "tiled: __syncthreads()", "transpose_tiled",
               "transpose_tiled_kernel", check_barrier(k))
GL_KERNEL_TEST(padded_shared_tile, 2, "padded: a shared tile", "transpose_padded",
               "transpose_padded_kernel", check_shared_tile(k, 2))
GL_KERNEL_TEST(padded_barrier, 1, "padded: __syncthreads()", "transpose_padded",
               "transpose_padded_kernel", check_barrier(k))

/* The tile has TILE_DIM rows (or TILE_DIM + 1, or two buffers of them); its row pitch, in
 * 4-byte words, must not be a multiple of 32, or a column of the tile sits in one bank. */
static void check_pitch(const char *kernel)
{
    long bytes = check_shared_tile(kernel, 2);
    long words = bytes / 4, pitch = gl_tile_pitch(words, TILE_DIM, 32);
    if (pitch == 0)
        gl_check_fail("%s's tile has %ld words, not TILE_DIM = %d rows of equal length (nor two "
                      "buffers of them): declare it as tile[TILE_DIM][TILE_DIM + 1]",
                      kernel, words, TILE_DIM);
    if (pitch % 32 == 0)
        gl_check_fail("%s's tile rows are %ld words long, a multiple of 32: element [i][k] is in "
                      "bank (i * %ld + k) %% 32 = k %% 32, so the 32 lanes reading a column hit "
                      "one bank 32 times. Pad each row by one word: tile[TILE_DIM][TILE_DIM + 1]",
                      kernel, pitch, pitch);
}

GL_KERNEL_TEST(padded_pitch, 4, "padded: row pitch not a multiple of 32", "transpose_padded",
               "transpose_padded_kernel", check_pitch(k))

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ---- */

GL_FASTER(tiled_vs_naive, 5, "tiled faster than naive", .launcher = "transpose_tiled",
          .than = "transpose_naive", .than_is = "the naive transpose", .factor = 1.25,
          .hint = "Are both the read from in and the write to out coalesced (consecutive "
                  "threadIdx.x on consecutive addresses)?") /* H100 3.2x, 1.9x at 1/4 of its SMs */

GL_FASTER(padded_vs_naive, 5, "padded far faster than naive", .launcher = "transpose_padded",
          .than = "transpose_naive", .than_is = "the naive transpose",
          .factor = 2.8, /* H100 4.9x, H200 4.2x to 4.7x; an unpadded tile 3.2x */
          .hint = "An unpadded tile gets about 3x: padding removes the 32-way bank conflicts of "
                  "the column reads. Is the padding on the rows (tile[TILE_DIM][TILE_DIM + 1])?")

GL_SHARE(padded_vs_copy, 5, "padded near the copy", .launcher = "transpose_padded",
         .than = "transpose_copy", .than_is = "the copy kernel", .percent = 52,
         .hint = "A transpose moves the same bytes as a copy: with both accesses coalesced and "
                 "no bank conflicts it runs close to it") /* H100 90%, H200 82% to 84% */

/* ---- profile: Nsight Compute counters ---- */

/* loads: instructions, wavefronts; stores: instructions, wavefronts; bank conflicts */
static void shared_detail(const double *v, char *out, size_t len)
{
    snprintf(out, len, "loads: %.0f instructions, %.0f wavefronts; stores: %.0f instructions, "
             "%.0f wavefronts; bank conflicts: %.0f on loads, %.0f on stores", v[2], v[0], v[3],
             v[1], v[4], v[5]);
}

/* 1 when no access has bank conflicts, up to 32 */
static const gl_counter wavefronts = {
    "shared-memory wavefronts per shared-memory instruction",
    (const char *const[]){"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                          "smsp__sass_inst_executed_op_shared_ld.sum",
                          "smsp__sass_inst_executed_op_shared_st.sum",
                          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
    6, 3u, 12u, shared_detail};

GL_COUNTER(padded_conflict_free, 4, "padded: no bank conflicts", .counter = &wavefronts,
           .run = "transpose_padded 2048 2048", .at_most = 1.6, /* 1 = conflict-free */
           .hint = "Its shared-memory accesses still have bank conflicts (32 = one bank for the "
                   "whole warp): the tile's rows must be 33 words long")

GL_COUNTER(tiled_conflicts, 2, "tiled: bank conflicts", .counter = &wavefronts,
           .run = "transpose_tiled 2048 2048", .at_least = 4.0,
           .hint = "Task 1's tile is the unpadded 32 x 32 one, whose column reads conflict; "
                   "that is what task 2 measures against")

/* The timed problem: 8192 x 8192 where the pool holds 2 x 8 of them (256 MiB each way: beyond
 * any L2), an input made again and the expected output; else 4096 x 4096. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static transpose_size z;
    z.rows = z.cols = gl_pool_mib() >= 18 * 257 ? 8192 : 4096;
    *p = transpose_problem(launcher, &z);
    return on && *on ? -1 : 0;
}

/* The problem of a profile run (LAUNCHER ROWS COLS) or of a probe (96 x 64). */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static transpose_size z;
    long rows = 96, cols = 64;
    if (argc != 0 && (argc != 2 || gl_parse_long(argv[0], 1, 65536, &rows) ||
                      gl_parse_long(argv[1], 1, 65536, &cols)))
        return -1;
    z = (transpose_size){.rows = (int)rows, .cols = (int)cols};
    *p = transpose_problem(launcher, &z);
    return 0;
}

const gl_lab GL_LAB = {.name = "08-transpose", .file = "transpose.cu", .problem = problem,
                       .timed = timed, .pool_mib = 18 * 257 + 64};
