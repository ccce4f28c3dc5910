/* 01-divergence.c: the grader's suite for lab 01-divergence.
 *
 *   correctness  the three launchers on every class of n (CORRECTNESS), on random input and on
 *                blocks of one class, checked on the lab's problem (lab.c); returning at once
 *   technique    in the kernels that ran: classify_partitioned regroups in shared memory (an
 *                array, barriers); the contiguous block product has no tid % (2 s) (no rem in
 *                its PTX) and the given one has, so the test can tell
 *   performance  against the lab's own given kernels, timed by the judge, fresh inputs each call
 *   profile      threads per executed instruction (Nsight Compute): near 32 when warps agree */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

/* One launcher's correctness tests on random input, label its name in the titles: tiny n and
 * every class of n below a few blocks but whole ones (n % 32, n % 64: task 1's pair of warps,
 * n % DIV_BLOCK); whole blocks (DIV_BLOCK = 256) only; many, the last one partial (2^20 + 3;
 * 2^20 + 96: a multiple of 32, not 64); from the seed, any n, whole blocks, multiples of 32. */
#define CORRECTNESS(launcher, label)                                                          \
    GL_RIGHT(launcher##_small_n, 2, 15, label ", n = 0 .. 1000", .run = #launcher " random",  \
             .cases = "0, 1, 2, 31, 32, 33, 63, 64, 65, 96, 192, 255, 257, 1000")             \
    GL_RIGHT(launcher##_whole_blocks, 1, 15, label ", n a multiple of 256",                   \
             .run = #launcher " random", .cases = "256, 512, 2560, 1048576")                  \
    GL_RIGHT(launcher##_large_n, 1, 15, label ", n = 2^20 + 3, + 96",                         \
             .run = #launcher " random", .cases = "1048579, 1048672")                         \
    GL_RIGHT(launcher##_random, 1, 15, label ", n from the seed", .run = #launcher " random",  \
             .cases = "1..262144, 1..1024*256, 1..8192*32")

CORRECTNESS(branch_by_warp, "uniform branch")
CORRECTNESS(classify_partitioned, "regrouped")
CORRECTNESS(block_products_contiguous, "contiguous products")

/* a block of one class fills the slots from one end only; then classes alternating, and sorted */
#define ONE_CLASS(in) #in " 1, " #in " 255, " #in " 256, " #in " 257, " #in " 5000, "
GL_RIGHT(classify_partitioned_one_class, 2, 15, "regrouped, one class, alternating, sorted",
         .run = "classify_partitioned",
         .cases = ONE_CLASS(heavy) ONE_CLASS(light) ONE_CLASS(alternating) "partitioned 1048579")

/* it only enqueues its work: 2^20 + 3 elements behind a 150 ms kernel */
GL_QUEUED(classify_partitioned_async, 2, "regrouped, launcher returns at once",
          .run = "classify_partitioned random 1048579")

/* ---- technique: read from the PTX of the kernels the launchers ran ---- */

static void check_regroups(const char *kernel)
{
    long bytes = gl_kernel_shared_bytes(
        kernel, "task 2 files the block's element indices in a __shared__ array "
                "(slot[DIV_BLOCK]), in the order they will be processed");
    if (bytes < DIV_BLOCK)
        gl_check_fail("%s's largest __shared__ array has %ld bytes: too small to hold the "
                      "indices of the block's %d elements", kernel, bytes, DIV_BLOCK);
    gl_expect_barriers(gl_kernel_entry(kernel), kernel, 2,
                       "it needs one after zeroing the counters and one after filing the "
                       "elements, before any thread reads a slot another thread wrote");
}

GL_KERNEL_TEST(classify_partitioned_regroups, 3, "regrouped: shared slots, barriers",
               "classify_partitioned", "classify_partitioned_kernel", check_regroups(k))

GL_TEST(block_products_contiguous_no_modulo, GL_TECHNIQUE, 3, 10,
        "contiguous products: no tid % (2 s)")
{
    /* the test tells the two trees apart: the given one has tid % (2 s) */
    gl_given_tells_apart(gl_ptx_count(gl_given_entry("block_products_interleaved_kernel"), "rem"),
                         "block_products_interleaved_kernel", "has no rem (tid % (2 * s))");
    GL_FOR_EACH_KERNEL("block_products_contiguous", "block_products_contiguous_kernel", k) {
        const gl_ptx_entry *e = gl_kernel_entry(k);
        if (gl_ptx_count(e, "rem") > 0)
            gl_check_fail("%s computes a remainder (%d rem in its PTX): task 3 picks the active "
                          "threads by index = 2 * s * tid < blockDim.x, not by tid %% (2 * s) "
                          "== 0", k, gl_ptx_count(e, "rem"));
        gl_expect_barriers(e, k, 2, "one after the load, and one after every step of the tree");
        gl_expect_shared_rw(e, k, "the tree works on the __shared__ partial products");
    }
}

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ----
 * Thresholds well inside what the reference shows (README.md's calibration): a verdict must not
 * flip between runs. Time ratios: the problem has no work (no rates). The lane branch: 1.0x. */

GL_FASTER(warp_vs_lane, 4, "uniform branch faster than lane parity", .launcher = "branch_by_warp",
          .than = "branch_by_lane", .factor = 1.2,
          .hint = "Every warp should take one branch: then it runs one of the two loops, not both")

GL_FASTER(partitioned_vs_classify, 4, "regrouped faster on random input",
          .launcher = "classify_partitioned", .than = "classify",
          .factor = 2.0, /* one input in eight heavy: up to 8x */
          .hint = "After regrouping, the warps below the block's boundary should take only the "
                  "heavy path and the warps above it only the light one")

GL_FASTER(contiguous_vs_interleaved, 4, "contiguous products faster",
          .launcher = "block_products_contiguous", .than = "block_products_interleaved",
          .factor = 1.9, /* the H200: 2.98x */
          .hint = "At each step the active threads should be 0, 1, 2, ...: whole warps finish "
                  "early instead of every warp running gf_mul for a few lanes (256 threads: "
                  "12 warp-steps instead of 47)")

/* The timed problem: n = 2^24 (the pool holds 2 x 16 of them and one more set), 2^22 if less */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static div_size z;
    z.n = gl_pool_mib() >= 34 * 65 ? 1 << 24 : 1 << 22;
    *p = div_problem(launcher, &z);
    return on && *on ? -1 : 0;
}

/* ---- profile: Nsight Compute counters ---- */

static void threads_detail(const double *v, char *out, size_t len)
{
    snprintf(out, len, "%.0f thread instructions in %.0f warp instructions", v[0], v[1]);
}

/* 32 when every lane of every warp runs every instruction; the least of the working kernels */
static const gl_counter threads = {
    "active threads per executed warp instruction",
    (const char *const[]){"smsp__thread_inst_executed.sum", "smsp__inst_executed.sum"}, 2, 1u,
    2u, threads_detail};

/* 2^18 elements of random input (1024 blocks: the ratio of a full GPU, and a CPU check that
 * keeps the profiled runs short); the reference at least 1.5x the threshold (make calibrate) */
GL_COUNTER(branch_by_warp_threads_per_instruction, 5,
           "uniform branch: ~32 threads per instruction", .counter = &threads,
           .run = "branch_by_warp random 262144", .at_least = 21.0, /* the lane branch 16.5 */
           .hint = "Its warps still diverge (the given lane-parity kernel runs about 16, "
                   "README.md). When every lane of a warp takes the same branch, it is near 32")

GL_COUNTER(classify_partitioned_threads_per_instruction, 5,
           "regrouped: ~32 threads per instruction", .counter = &threads,
           .run = "classify_partitioned random 262144",
           .at_least = 14.0, /* the reference 22.5; classify: about 5 predicted */
           .hint = "On random input its warps still mix heavy and light elements (the given "
                   "classify: about 17, README.md). After regrouping, only the warp at the "
                   "boundary of each block mixes them, so it is near 32")

/* The lab's problem: LAUNCHER INPUT N (random, heavy, light, alternating or partitioned) as the
 * correctness tests and the profile runs name it, or a probe's 3000 random elements. */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static div_size z;
    long n = 3000;
    int input = argc ? div_input_of(argv[0]) : DIV_RANDOM;
    if (!gl_launcher_find(launcher) || input < 0 ||
        (argc != 0 && (argc != 2 || gl_parse_long(argv[1], 0, 1L << 26, &n))))
        return -1;
    z = (div_size){.n = (int)n, .input = input};
    *p = div_problem(launcher, &z);
    return 0;
}

/* the largest test: 16 inputs and 16 outputs of 2^24 elements (64 MiB), and the expected one */
const gl_lab GL_LAB = {.name = "01-divergence", .file = "divergence.cu", .problem = problem,
                       .timed = timed, .pool_mib = 34 * 65 + 64};
