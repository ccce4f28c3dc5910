/* 09-matmul-tiling.c: the grader's suite for lab 09-matmul-tiling.
 *
 *   correctness  every launcher on tiny sizes, k = 0, each dimension a multiple of TILE = 32, of
 *                NAIVE_BLOCK = 16 only or of neither, and a size from the run's seed, on the lab's
 *                problem (lab.c, gl_matmul.h: a CPU reference in double with each element's FP32
 *                error bound, guards, read-only inputs); the study's block shapes; the launchers
 *                return at once
 *   technique    in the kernels that ran: the tiled kernel's two TILE x TILE __shared__ tiles, a
 *                barrier after writing them and one after reading them; the naive kernel does not
 *                scale threadIdx.x by a row length (the given swapped one does: the test can tell)
 *   performance  naive and tiled against the lab's own swapped kernel, the block launches
 *                against the lab's own empty launch
 *   profile      global load requests (Nsight Compute): tiled about TILE times fewer than the
 *                naive product's 2 m n k / 32; sectors per request: the naive one's coalescing */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdlib.h>
#include <string.h>

/* Thresholds, well inside what the reference shows (README.md has the measured numbers; the
 * claims' beside their bounds): a verdict must not flip between runs. */
#define PERF_DIM 2048        /* m = n = k of the timed products: 4 sets of A, B and C, 192 MiB */
#define PERF_SAMPLE 1024     /* random elements of C checked per call, besides its edges */
#define LAUNCH_DIM 640       /* block_launches: (640 / 16)^2 = 1600 launches, 39 ms on an H100 */
#define MIN_LAUNCH_SHARE 0.5 /* of launches x the empty launch's time, at least; H200 at 512^3:
                                19.6 ms more than one grid, against 3.0 ms for 1024 empty launches
                                (6.5x); at 1024^3 one grid took 0.42 ms, 4096 launches 146.7 ms */
#define PROFILE_DIM 512      /* m = n = k under Nsight Compute */
#define MIN_LOAD_REDUCTION 16.0 /* naive (2 m n k / 32) / tiled global load requests: TILE = 32
                                   predicts 32; H200: 32.0 */

/* ---- correctness: each size a problem of GL_LAB.problem, checked by gl_problem_check ---- */

/* EDGES: tiny, one dimension at a time, and k = 0 (C = 0: an empty sum); SIZES: m, n and k each
 * a multiple of 32, of 16 only or of neither, in many combinations (64 x 100 x 48: m of TILE) */
#define EDGES "1 1 1, 1 1 300, 33 1 17, 1 77 5, 7 5 0"
#define SIZES "64 64 64, 64 100 48, 100 64 96, 48 80 100, 100 37 123, 129 257 65, 300 301 302"

/* The correctness tests of one launcher, label its name in the titles; the points of the
 * tiny sizes and of the others; a size from the run's seed: any class of each dimension */
#define CORRECTNESS(test, launcher_name, label, edges_points, sizes_points)                   \
    GL_RIGHT(test##_edges, edges_points, 15, label ", tiny sizes and k = 0",                  \
             .run = launcher_name, .cases = EDGES)                                            \
    GL_RIGHT(test##_sizes, sizes_points, 15, label ", multiples of 16 and 32 or not",         \
             .run = launcher_name, .cases = SIZES)                                            \
    GL_RIGHT(test##_random, 1, 15, label ", a size drawn from the seed",                      \
             .run = launcher_name " 1..300 1..300 0..300")

CORRECTNESS(naive, "matmul_naive", "naive", 2, 2)
CORRECTNESS(tiled, "matmul_tiled", "tiled", 3, 3)
CORRECTNESS(grid1d, "matmul_naive_grid1d", "1D grid", 1, 2)
CORRECTNESS(block_launches, "matmul_naive_block_launches", "block launches", 1, 2)

/* The study's block shapes (rows x cols of threads), then one thread, an odd shape and one
 * column of 1024 threads, on one odd size. */
GL_RIGHT(naive_shapes, 3, 15, "naive, every block shape", .run = "matmul_naive_shape 129 257 65",
         .cases = "1 2, 2 4, 4 8, 8 16, 16 16, 16 32, 32 32, 1 1, 3 5, 1024 1")

/* The launchers only enqueue their kernels: 300 x 301 x 302 behind a 150 ms kernel. */
GL_QUEUED(naive_async, 1, "naive, launcher returns at once", .run = "matmul_naive 300 301 302")
GL_QUEUED(tiled_async, 2, "tiled, launcher returns at once", .run = "matmul_tiled 300 301 302")

/* ---- technique: read from the PTX and the ptxas report, no GPU needed ---- */

static void check_shared_tiles(const char *kernel)
{
    static const char lesson[] = "Task 2 stages a TILE x TILE tile of A and one of B in shared "
                                 "memory: __shared__ float a_tile[TILE][TILE], b_tile[TILE][TILE]";
    gl_ptx_shared sh[8];
    gl_ptx_entry e;
    gl_kernel_shared_bytes(kernel, lesson);
    char *ptx = gl_kernel_ptx(kernel, &e);
    int count = gl_ptx_shared_arrays(ptx, &e, sh, 8);
    long total = gl_kernel_shared_total(kernel); /* an extern array as large as its launches */
    if (total < 2L * TILE * TILE * (long)sizeof(float))
        gl_check_fail("%s's __shared__ arrays hold %ld bytes in all, less than two %d x %d "
                      "tiles of floats (%ld bytes): one tile of A and one of B",
                      kernel, total, TILE, TILE, 2L * TILE * TILE * (long)sizeof(float));
    gl_expect_shared_rw(&e, kernel, lesson);
    gl_test_note("%d __shared__ arrays, %ld bytes", count, total);
    free(ptx);
}

GL_KERNEL_TEST(tiled_shared_tiles, 3, "tiled: two shared tiles", "matmul_tiled",
               "matmul_tiled_kernel", check_shared_tiles(k))

/* Reading the shared-memory stores, loads and barriers as the loop runs them (the end wraps
 * around to the start: the next step), a store must be followed by a barrier before any load,
 * and a load by a barrier before any store (gl_ptx_shared_hazard). */
static void check_barriers(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int hazard = gl_ptx_shared_hazard(e);
    gl_expect_barriers(e, kernel, 2,
                       "each step of the loop needs two, one after writing the tiles (before any "
                       "thread reads them) and one after reading them (before the next step "
                       "overwrites them)");
    if (hazard == GL_READ_AFTER_WRITE)
        gl_check_fail("in %s a thread can read the tiles (ld.shared) after writing its elements "
                      "(st.shared) with no barrier in between: it may read an element another "
                      "thread has not written yet. __syncthreads() after loading the tiles (read "
                      "after write)", kernel);
    if (hazard == GL_WRITE_AFTER_READ)
        gl_check_fail("in %s a thread can write the next step's tile elements (st.shared) after "
                      "reading the tiles (ld.shared) with no barrier in between: it may "
                      "overwrite an element another thread still needs. __syncthreads() after "
                      "the inner loop (write after read)", kernel);
    gl_test_note("%d barriers; shared stores and loads separated by them", gl_ptx_barriers(e));
}

GL_KERNEL_TEST(tiled_barriers, 3, "tiled: a barrier after writing, after reading", "matmul_tiled",
               "matmul_tiled_kernel", check_barriers(k))

static void check_coalesced(const char *kernel)
{
    char why[256];
    gl_given_tells_apart(gl_ptx_scales_tid_x(gl_given_entry("matmul_naive_swapped_kernel"), why,
                                             sizeof why),
                         "matmul_naive_swapped_kernel",
                         "does not multiply threadIdx.x by a row length");
    gl_expect_tid_x_along_row(gl_kernel_entry(kernel), kernel,
                              "a warp's loads of a and stores to c are a whole row apart, as in "
                              "the given swapped kernel");
}

GL_KERNEL_TEST(naive_coalesced, 3, "naive: threadIdx.x along the columns", "matmul_naive",
               "matmul_naive_kernel", check_coalesced(k))

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ---- */

GL_FASTER(naive_vs_swapped, 4, "naive faster than swapped", .launcher = "matmul_naive",
          .than = "matmul_naive_swapped", .factor = 3.0, /* H200 5.63x */
          .hint = "Does threadIdx.x walk along the columns of C (col = blockIdx.x * blockDim.x + "
                  "threadIdx.x), so that a warp's loads of b and stores to c are consecutive "
                  "floats?")

/* Further than naive_vs_swapped: no naive kernel, even with the coalesced mapping, gets this far */
GL_FASTER(tiled_vs_swapped, 4, "tiled faster than any naive kernel", .launcher = "matmul_tiled",
          .than = "matmul_naive_swapped", /* a naive kernel, even coalesced, gets 5.63x (H200) */
          .factor = 5.5, /* H200 9.51x (17.660 / 1.858 ms) */
          .hint = "That is more than a naive kernel gets with the coalesced mapping alone (about "
                  "5.6x). Does each thread load one element of each tile per step, and the "
                  "inner loop read only the shared tiles (TILE uses of each loaded element)?")

static void empty_call(void *args, int i)
{
    (void)i;
    gl_exec("matmul_empty_launch", args);
}

/* A stream runs its kernels one after another, and each launch costs its overhead: one launch
 * per block must take at least a share of what as many launches of the given empty kernel take;
 * one launch of the whole grid takes a small fraction of that. */
GL_TEST(block_launches_vs_empty, GL_PERFORMANCE, 3, 120, "block launches pay a launch per block")
{
    int launches = MATMUL_BLOCK_LAUNCHES(LAUNCH_DIM, LAUNCH_DIM);
    gl_timed empty = {1, 5, NULL, empty_call, NULL, NULL};
    gl_problem p;
    double te = gl_time_baseline(&empty, (gl_arg[]){GL_I(launches)}),
           tb = gl_timed_ms("matmul_naive_block_launches", "launches", &p);
    gl_test_margin(tb / te, MIN_LAUNCH_SHARE, 1);
    if (tb < MIN_LAUNCH_SHARE * te)
        gl_check_fail("at %d^3, matmul_naive_block_launches takes %.3f ms, where its %d "
                      "launches alone should cost %.3f ms (%.2f us each, measured with the "
                      "given empty kernel); it should take at least %.0f%% of that: does it "
                      "launch one grid of one block per block of C?",
                      LAUNCH_DIM, tb, launches, te, 1e3 * te / launches, 100.0 * MIN_LAUNCH_SHARE);
    gl_test_note("block_launches %.3f ms; %d empty launches %.3f ms (%.2f us each; needs at "
                 "least %.0f%% of it)", tb, launches, te, 1e3 * te / launches,
                 100.0 * MIN_LAUNCH_SHARE);
}

/* ---- profile: Nsight Compute counters ---- */

GL_TEST(tiled_global_loads, GL_PROFILE, 4, 300, "tiled: TILE times fewer global loads")
{
    /* at PROFILE_DIM^3; the naive product: each warp issues 2 loads per step of k, one of A and
     * one of B (the H200 counted exactly that on the given swapped kernel) */
    static const char *const args[] = {"matmul_tiled", "512", "512", "512", NULL};
    double naive_req = 2.0 * PROFILE_DIM * (double)PROFILE_DIM * PROFILE_DIM / 32.0, v[2];
    gl_profile(gl_global_load_sectors.metrics, 2, v, args); /* requests, sectors: all kernels */
    if (v[0] <= 0)
        gl_check_fail("matmul_tiled made no global load requests (Nsight Compute)");
    gl_test_margin(naive_req / v[0], MIN_LOAD_REDUCTION, 1);
    if (v[0] * MIN_LOAD_REDUCTION > naive_req)
        gl_check_fail("matmul_tiled issues %.0f global load requests at %d^3, only %.1fx fewer "
                      "than the naive product (2 m n k / 32 = %.0f: two per step of k and "
                      "warp); loading each element of A and B once per tile and using it TILE "
                      "= %d times should make it at least %.0fx fewer. Does the inner loop read "
                      "only the shared tiles?",
                      v[0], PROFILE_DIM, naive_req / v[0], naive_req, TILE, MIN_LOAD_REDUCTION);
    gl_test_note("global load requests: tiled %.0f, naive 2 m n k / 32 = %.0f: %.1fx fewer "
                 "(needs %.0fx); tiled sectors %.0f",
                 v[0], naive_req, naive_req / v[0], MIN_LOAD_REDUCTION, v[1]);
}

/* sectors per request, kernel by kernel: 2 when a warp's loads are coalesced */
GL_COUNTER(naive_sectors_per_request, 3, "naive: coalesced loads",
           .counter = &gl_global_load_sectors,
           .run = "matmul_naive 512 512 512", /* PROFILE_DIM^3 */
           .at_most = 4.0, /* 16 x 16 blocks predict 2; H200 2.00 (the swapped kernel 8.50) */
           .hint = "The given swapped kernel reads about 8.5: a warp whose threads walk along a "
                   "row of C reads 16 consecutive floats of one row of B (2 sectors; its two "
                   "rows of threads read the same ones) and one float of each of two rows of A "
                   "(2): 2. Does threadIdx.x pick the column?")

/* The timed problems: m = n = k = PERF_DIM, its usual one, and "launches": LAUNCH_DIM^3, for
 * the block launches; each call's C checked on its edges and PERF_SAMPLE random elements. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static gl_matmul z;
    int launches = on && !strcmp(on, "launches"), dim = launches ? LAUNCH_DIM : PERF_DIM;
    z = (gl_matmul){.m = dim, .n = dim, .k = dim, .sample = PERF_SAMPLE};
    *p = matmul_describe(launcher, &z);
    return on && *on && !launches ? -1 : 0;
}

/* The problem of a correctness test or a profile run (LAUNCHER M N K: a launcher with the
 * product's arguments; matmul_naive_shape M N K ROWS COLS, its block rows x cols threads) or of
 * a probe (96 x 80 x 40; matmul_naive_shape with NAIVE_BLOCK x NAIVE_BLOCK blocks). */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static gl_matmul z;
    const gl_launcher *found = gl_launcher_find(launcher);
    int shape = found && !strcmp(found->layout, "pppiiiii");
    long block[2] = {NAIVE_BLOCK, NAIVE_BLOCK}; /* rows, cols */
    z = (gl_matmul){.m = 96, .n = 80, .k = 40, .sample = MATMUL_SAMPLE};
    if (argc != 0 && (!found || argc != (shape ? 5 : 3) ||
                      (!shape && strcmp(found->layout, "pppiii") != 0) ||
                      gl_matmul_parse(&z, 3, argv, 4096) ||
                      (shape && (gl_parse_long(argv[3], 1, 1024, &block[0]) ||
                                 gl_parse_long(argv[4], 1, 1024, &block[1])))))
        return -1;
    z.extra[0] = (int)block[0];
    z.extra[1] = (int)block[1];
    *p = matmul_describe(launcher, &z);
    return 0;
}

/* the largest test: 4 sets of A, B and C of 2048 x 2048 floats (16 MiB each) */
const gl_lab GL_LAB = {.name = "09-matmul-tiling", .file = "matmul_tiling.cu", .problem = problem,
                       .timed = timed, .pool_mib = (4 * 3 + 2) * 16 + 64};
