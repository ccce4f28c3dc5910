/* 11-sgemm.c: the grader's suite for lab 11-sgemm.
 *
 *   correctness  the four launchers on tiny, odd and tile-sized shapes, the 128-bit path and the
 *                scalar one, misaligned pointers and a shape drawn from the run's seed, each on
 *                the lab's problem (lab.c, gl_matmul.h: a CPU reference in double with each
 *                element's FP32 error bound, guards, read-only inputs); they return at once
 *   technique    the PTX and ptxas report of the kernels the launchers ran: shared tiles,
 *                barriers, multiply-adds per shared load (register reuse, tasks 1 and 2), 128-bit
 *                global and shared loads (3, 4), two buffers (4), no local memory (2 to 4)
 *   performance  each task against the lab's own 32 x 32 tiled kernel, and tasks 3 and 4 as a
 *                share of cuBLAS FP32; never one of the student's launchers against another
 *   profile      shared-memory wavefronts per load instruction of task 3 (Nsight Compute) */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

/* Multiply-adds per shared-load instruction in the PTX (static counts): the given 32 x 32 tiled
 * kernel has 0.5, task 1's reference 0.89 (TM1 = 8 FMAs, 8 + 1 loads), task 2's 4 (64 for 16). */
#define MIN_1D_FMA_PER_SHARED_LOAD 0.75
#define MIN_2D_FMA_PER_SHARED_LOAD 2.0

#define PERF_DIM 4096    /* the performance tests' m = n = k (2048 on a GPU with little memory) */
#define PERF_SETS 4      /* calls per round, each on its own A, B and C: 768 MiB in all */
#define PERF_SAMPLE 1024 /* random elements of C checked per call, besides its edges */

/* ---- correctness: each shape a problem of GL_LAB.problem, checked by gl_problem_check ---- */

/* tiny ones, k = 0 (C = 0), exactly one 128 x 128 x 8 tile */
#define SMALL "1 1 1, 1 1 300, 7 5 0, 4 4 1024, 128 128 8"
/* n or k not a multiple of 4 (the scalar path), nor of the tiles; m of 128 or of 64 only */
#define ODD "129 127 9, 300 301 302, 257 1000 33, 256 129 64, 64 200 30"
/* k, n multiples of 4 (the 128-bit path); m, n, k of the tiles, of 64 only, of BK = 8 or of 4 */
#define VECTOR_PATH "256 256 256, 260 132 68, 192 320 100, 384 192 40"
/* 260 x 132 x 68 with a, b or c one float past a 16-byte boundary */
#define MISALIGNED "260 132 68 a, 260 132 68 b, 260 132 68 c"

/* A shape from the run's seed; n and k rounded up to multiples of 4 every other seed, so that
 * both paths come up. */
static void check_random(const char *launcher)
{
    gl_rng rng;
    gl_test_rng(&rng);
    int m = (int)gl_rng_range(&rng, 1, 700), n = (int)gl_rng_range(&rng, 1, 700),
        k = (int)gl_rng_range(&rng, 0, 300), four = gl_rng_range(&rng, 0, 1) ? 4 : 1;
    gl_expect_right("%s %d %d %d", launcher, m, (n + four - 1) / four * four,
                    (k + four - 1) / four * four);
}

/* The correctness tests of launcher sgemm_FN, label its name in the titles; the points of the
 * test that it returns at once (at 512^3, A copied in by a 150 ms kernel before it) */
#define RUN(fn) .run = "sgemm_" #fn
#define CORRECTNESS(fn, label, async_points)                                                       \
    GL_RIGHT(fn##_small, 1, 15, label ": tiny, k = 0, one tile", RUN(fn), .cases = SMALL)          \
    GL_RIGHT(fn##_odd_sizes, 2, 15, label ": odd sizes (no 128-bit loads)", RUN(fn), .cases = ODD) \
    GL_RIGHT(fn##_vector_path, 1, 15, label ": k, n multiples of 4 (128-bit loads fit)",           \
             RUN(fn), .cases = VECTOR_PATH)                                                        \
    GL_RIGHT(fn##_misaligned, 1, 15, label ": misaligned a, b, c", RUN(fn), .cases = MISALIGNED)   \
    GL_TEST(fn##_random, GL_CORRECTNESS, 1, 15, label ": a shape drawn from the seed")             \
    { check_random("sgemm_" #fn); }                                                                \
    GL_QUEUED(fn##_async, async_points, label ": launcher returns at once", RUN(fn) " 512")

CORRECTNESS(blocktiled_1d, "1D tiles", 1)
CORRECTNESS(blocktiled_2d, "2D tiles", 1)
CORRECTNESS(vectorized, "vectorized", 1)
CORRECTNESS(prefetch, "prefetch", 2)

/* ---- technique: read from the PTX and the ptxas report, no GPU needed ---- */

/* A technique test of sgemm_FN: check(k) on each kernel it ran (without a GPU, sgemm_FN_kernel) */
#define KERNEL_TEST(name, points, title, fn, check)                                                \
    GL_KERNEL_TEST(name, points, title, "sgemm_" #fn, "sgemm_" #fn "_kernel", check)

/* Both tiles in shared memory, used (ptxas reserves them); barriers after the loads and the math */
static void check_tiles(const char *kernel, long min_bytes, const char *tiles, int task)
{
    char lesson[256];
    snprintf(lesson, sizeof lesson, "Task %d stages %s in shared memory", task, tiles);
    gl_expect_shared_at_least(kernel, min_bytes, tiles, lesson);
    gl_expect_barriers(gl_kernel_entry(kernel), kernel, 2,
                       "it needs one after the tiles are loaded, before any thread reads what "
                       "another wrote, and one after the math, before the next step overwrites "
                       "the tiles");
}

/* Multiply-adds per shared-load instruction, static counts in the PTX. */
static double fma_per_shared_load(const gl_ptx_entry *e, int *fma, int *loads)
{
    *fma = gl_ptx_count(e, "fma.rn.f32");
    *loads = gl_ptx_count(e, "ld.shared");
    return *loads > 0 ? (double)*fma / *loads : 0.0;
}

static void check_register_reuse(const char *kernel)
{
    int fma, loads;
    check_tiles(kernel, (long)(BM1 * BK1 + BK1 * BN1) * 4,
                "a BM1 x BK1 tile of A and a BK1 x BN1 tile of B", 1);
    double given = fma_per_shared_load(gl_given_entry("sgemm_tiled_kernel"), &fma, &loads);
    gl_given_tells_apart(given < MIN_1D_FMA_PER_SHARED_LOAD, "sgemm_tiled_kernel",
                         "has as many multiply-adds per shared load as task 1 needs");
    double r = fma_per_shared_load(gl_kernel_entry(kernel), &fma, &loads);
    if (r < MIN_1D_FMA_PER_SHARED_LOAD)
        gl_check_fail("%s has %d fma.rn.f32 for %d shared loads in its PTX (%.2f per load, like "
                      "the given tiled kernel's %.2f): read each value of B into a register "
                      "once per step i and use it for the thread's TM1 = %d results, in a "
                      "float[TM1] indexed by unrolled loops", kernel, fma, loads, r, given, TM1);
    gl_test_note("%.2f multiply-adds per shared load (needs %.2f; the given tiled kernel %.2f)",
                 r, MIN_1D_FMA_PER_SHARED_LOAD, given);
}

KERNEL_TEST(blocktiled_1d_register_reuse, 2, "1D tiles: shared tiles, barriers, FMAs per shared "
            "load", blocktiled_1d, check_register_reuse(k))

static void check_register_tile(const char *kernel)
{
    int fma, loads;
    check_tiles(kernel, (long)(BM * BK + BK * BN) * 4,
                "a BM x BK tile of A and a BK x BN tile of B", 2);
    double r = fma_per_shared_load(gl_kernel_entry(kernel), &fma, &loads);
    if (r < MIN_2D_FMA_PER_SHARED_LOAD)
        gl_check_fail("%s has %d fma.rn.f32 for %d shared loads in its PTX (%.2f per load): per "
                      "step i, load TM values of A and TN of B into registers and do all TM x "
                      "TN = %d multiply-adds with them (%d per load)",
                      kernel, fma, loads, r, TM * TN, TM * TN / (TM + TN));
    gl_test_note("%.2f multiply-adds per shared load (needs %.2f)", r, MIN_2D_FMA_PER_SHARED_LOAD);
}

KERNEL_TEST(blocktiled_2d_register_tile, 2, "2D tiles: shared tiles, barriers, FMAs per shared "
            "load", blocktiled_2d, check_register_tile(k))

/* 128-bit loads from global memory (ld.global.v4.f32, or .nc) and shared memory (ld.shared.v4) */
static void check_128bit(const char *kernel, int task)
{
    check_tiles(kernel, (long)(BM * BK + BK * BN) * 4,
                "a BK x BM tile of A (transposed) and a BK x BN tile of B", task);
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int global_v4 = gl_ptx_count_with(e, "ld.global", ".v4"),
        shared_v4 = gl_ptx_count_with(e, "ld.shared", ".v4");
    if (global_v4 == 0)
        gl_check_fail("%s has no 128-bit global load (ld.global.v4) in its PTX: load each "
                      "thread's float4 of A and of B with load4, which issues one where the "
                      "float4 is aligned and inside the matrix", kernel);
    if (shared_v4 == 0)
        gl_check_fail("%s has no 128-bit shared load (ld.shared.v4) in its PTX: with A's tile "
                      "transposed (as[i][r]), a thread's 4 values of A for one i are "
                      "consecutive; read them, and B's, as float4 "
                      "(*reinterpret_cast<const float4 *>(&as[i][ty * 4]))", kernel);
    gl_test_note("%d ld.global.v4 and %d ld.shared.v4 in the PTX", global_v4, shared_v4);
}

KERNEL_TEST(vectorized_128bit_loads, 3, "vectorized: ld.global.v4, ld.shared.v4", vectorized,
            check_128bit(k, 3))
KERNEL_TEST(prefetch_128bit_loads, 2, "prefetch: ld.global.v4, ld.shared.v4", prefetch,
            check_128bit(k, 4))

/* Two buffers of each tile, used (ptxas reserves them) */
static void check_two_buffers(const char *kernel)
{
    long need = 2L * (BM + BN) * BK * 4, bytes = gl_expect_shared_at_least(kernel, need,
        "two buffers of each tile, as[2][BK][BM] and bs[2][BK][BN], so that the next tile is "
        "stored into one while the math reads the other", "Task 4 keeps two buffers of each tile "
        "in shared memory, as[2][BK][BM] and bs[2][BK][BN]: the next tile is stored into one while "
        "the math reads the other");
    gl_test_note("%ld bytes of shared tiles (needs %ld)", bytes, need);
}

KERNEL_TEST(prefetch_two_buffers, 2, "prefetch: two buffers of each tile", prefetch,
            check_two_buffers(k))

/* A register array indexed by a value the compiler cannot resolve at compile time (a loop it does
 * not unroll, a run-time index) lives in local memory: per-thread DRAM, behind the L1. */
static void check_no_local_memory(const char *kernel)
{
    int fma = gl_ptx_count(gl_kernel_entry(kernel), "fma.rn.f32"), registers;
    if (fma < TM * TN)
        gl_check_fail("%s has %d multiply-adds (fma.rn.f32) in its PTX, fewer than one step of "
                      "its %d x %d register tile: is the kernel still a TODO?",
                      kernel, fma, TM, TN);
    registers = gl_expect_no_local_memory(
        kernel, "The register tile acc[TM][TN] must be indexed only by loops with constant "
                "bounds that the compiler unrolls (#pragma unroll): one run-time index (a loop "
                "kept rolled with #pragma unroll 1, an index computed at run time) puts the "
                "whole array in local memory");
    gl_test_note("%d registers, no local memory", registers);
}

KERNEL_TEST(blocktiled_2d_no_local_memory, 1, "2D tiles: no local memory", blocktiled_2d,
            check_no_local_memory(k))
KERNEL_TEST(vectorized_no_local_memory, 1, "vectorized: no local memory", vectorized,
            check_no_local_memory(k))
KERNEL_TEST(prefetch_no_local_memory, 1, "prefetch: no local memory", prefetch,
            check_no_local_memory(k))

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ----
 * Rates at 4096^3, each bound at most two thirds of the reference's gain over the given 32 x 32
 * tiled kernel (lab 09's), or of its share of cuBLAS FP32: a verdict must not flip between runs
 * (README.md has the numbers; the comments give the NVIDIA H200's). */

#define THAN_TILED .than = "sgemm_tiled"
#define THAN_CUBLAS .than = "sgemm_cublas", .than_is = "cuBLAS FP32"

GL_FASTER(blocktiled_1d_vs_tiled, 3, "1D tiles faster than 32 x 32 tiles",
          .launcher = "sgemm_blocktiled_1d", THAN_TILED,
          .factor = 1.2, /* H200 1.95x (15.632 / 8.036 ms), H100 1.92x */
          .hint = "Each value of B read from shared memory should serve TM1 multiply-adds: is it "
                  "read once per step i into a register, and acc a float[TM1] in registers (no "
                  "local memory)?")

GL_FASTER(blocktiled_2d_vs_tiled, 3, "2D tiles far faster than 32 x 32 tiles",
          .launcher = "sgemm_blocktiled_2d", THAN_TILED,
          .factor = 2.2, /* H200 3.66x (15.632 / 4.266 ms), H100 3.49x; 1D 1.95x */
          .hint = "Task 1's column of TM1 results gets about 1.9x; a TM x TN tile per thread "
                  "gets more: each thread should compute its TM x TN results from TM + TN "
                  "registers per step i, with acc[TM][TN] in registers (the technique tests "
                  "check local memory)")

GL_FASTER(vectorized_vs_tiled, 3, "vectorized far faster than 32 x 32 tiles",
          .launcher = "sgemm_vectorized", THAN_TILED,
          .factor = 2.55, /* H200 4.29x (15.632 / 3.642 ms), H100 4.07x; 1D 1.95x */
          .hint = "Task 1's column of TM1 results gets about 1.9x: task 3 keeps task 2's TM x TN "
                  "register tile, with A's tile transposed, float4 loads from global and shared "
                  "memory, and the four quadrants (not an 8 x 8 square) so a half-warp reads 16 "
                  "consecutive float4 of B")

GL_SHARE(vectorized_vs_cublas, 3, "vectorized: share of cuBLAS", .launcher = "sgemm_vectorized",
         THAN_CUBLAS, .percent = 45.0, /* H200 73.6%; 1D 33.4% */
         .hint = "Are the 128-bit loads really taken (k and n multiples of 4 here), and acc in "
                 "registers?")

GL_SHARE(prefetch_vs_cublas, 4, "prefetch: share of cuBLAS", .launcher = "sgemm_prefetch",
         THAN_CUBLAS, .percent = 52.0, /* H200 83.5%, H100 84% */
         .hint = "The next tile's global loads should be issued before the math on this one and "
                 "stored into the other buffer after it, with one barrier per step")

/* ---- profile: Nsight Compute counters ---- */

/* A wavefront returns at most 128 bytes: the quadrants' loads take (2 + 2 + 4 + 4) / 4 = 3.00 a
 * load, the minimum (H200: 3.00); an 8 x 8 square, (2 + 2 + 8 + 8) / 4 = 5.00 (the wrong solution
 * vectorized_square_tile). README.md ("Quadrants, not squares") derives both. */
GL_COUNTER(vectorized_shared_wavefronts, 5, "vectorized: conflict-free 128-bit shared loads",
           .counter = &gl_shared_load_wavefronts, .run = "sgemm_vectorized 512",
           .at_most = 4.5, /* the quadrants 3.00, an 8 x 8 square 5.00 */
           .hint = "The quadrants take 3.00. A wavefront returns 128 bytes, a quarter-warp's 8 "
                   "float4: with the quadrants the 8 threads of a quarter-warp read 8 "
                   "consecutive float4 of bs[i][tx * 4] (one wavefront). An 8 x 8 square per "
                   "thread reads bs[i][tx * 8]: float4 32 bytes apart, two in the same banks, "
                   "two wavefronts per quarter-warp (about 5 per load in all). Own four 4 x 4 "
                   "quadrants: rows ty * 4 and 64 + ty * 4, columns tx * 4 and 64 + tx * 4")

/* The timed problem: m = n = k = PERF_DIM where the pool holds 4 sets of 3 matrices of 4096 x
 * 4096 floats (64 MiB each) and an A and a B made again (896 MiB; the largest test), else
 * PERF_DIM / 2; each call's C checked on its edges and PERF_SAMPLE random elements. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static gl_matmul z;
    int dim = gl_pool_mib() >= (PERF_SETS * 3 + 2) * 64 + 16 ? PERF_DIM : PERF_DIM / 2;
    z = (gl_matmul){.m = dim, .n = dim, .k = dim, .sample = PERF_SAMPLE};
    *p = sgemm_describe(launcher, &z);
    p->sets = PERF_SETS;
    return on && *on ? -1 : 0;
}

/* The problem of a profile run (LAUNCHER DIM: m = n = k = DIM), of a correctness test
 * (LAUNCHER M N K, then a, b or c to start that matrix one float past a 16-byte boundary) or of
 * a probe (160 x 136 x 24: the 128-bit path, partial block tiles). */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static gl_matmul z;
    z = (gl_matmul){.m = 160, .n = 136, .k = 24, .sample = SGEMM_SAMPLE};
    if (argc && gl_matmul_parse(&z, argc, argv, 8192))
        return -1;
    *p = sgemm_describe(launcher, &z);
    return 0;
}

const gl_lab GL_LAB = {.name = "11-sgemm", .file = "sgemm.cu", .problem = problem, .timed = timed,
                       .pool_mib = (PERF_SETS * 3 + 2) * 64 + 64};
