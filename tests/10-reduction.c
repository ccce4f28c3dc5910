/* 10-reduction.c: the grader's suite for lab 10-reduction.
 *
 *   correctness  every launcher on tiny, odd and large n and on one drawn from the seed, in rows
 *                of calls on the same buffers, each checked after the ones before it (lab.c says
 *                on what); reduce_last_block's same bits on one input; the launchers return at once
 *   technique    the kernels each launcher really ran, read from the PTX: a tree, shuffles,
 *                atomics, the last block's ticket and fence
 *   performance  timed by the judge on 2^28 fresh elements every call, every sum checked: the
 *                ladder against the given interleaved kernel, the grid-stride ones against the copy
 *
 * No profile tests: the counters that tell the rungs apart (threads per instruction, shared
 * wavefronts) are dominated by the loads and the rem's instructions; the timings say it better. */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdlib.h>
#include <string.h>

/* Each n: calls 1 .. calls of a row on the same buffers, each checked after the ones before it
 * (lab.h's reduce_problem); how: "", " wraps" or " same". */
#define ROWS(launcher, calls, how, ...)                                                       \
    for (size_t i_ = 0; i_ < sizeof((int[]){__VA_ARGS__}) / sizeof(int); i_++)               \
        for (int call_ = 1; call_ <= (calls); call_++)                                        \
            gl_expect_right("%s %d %d%s", launcher, ((int[]){__VA_ARGS__})[i_], call_, how)

/* Large n; the grid-stride launchers (rows of three calls) also 4 grid strides (the unrolled
 * loop only, no tail) and 7 strides - 1 (a tail of three strides but one element), at their
 * stride on this GPU, as reduce_grid in the starting file chooses it. */
static void check_large(const char *launcher, int calls)
{
    gl_device_info info;
    gl_device_require(&info);
    int blocks = REDUCE_BLOCKS_PER_SM * info.sms,
        stride = (blocks < REDUCE_MAX_BLOCKS ? blocks : REDUCE_MAX_BLOCKS) * REDUCE_GRID_THREADS;
    ROWS(launcher, calls, "", (1 << 20) + 3, (1 << 22) + 1);
    if (calls == 3)
        ROWS(launcher, calls, "", 4 * stride, 7 * stride - 1);
}

/* An n from the run's seed, from 1 to 2^23 on a log scale. */
static void check_random(const char *launcher, int calls)
{
    gl_rng rng;
    gl_test_rng(&rng);
    int n = (int)gl_rng_range(&rng, 1, (int64_t)1 << gl_rng_range(&rng, 0, 23));
    gl_test_note("n = %d, from the seed", n);
    ROWS(launcher, calls, "", n);
}

/* A launcher's tests on tiny to odd n, large n and an n from the seed, in rows of calls: the
 * ladder's of two (tasks 1 to 3), the grid-stride ones' of three, the third at in + 1. */
#define TESTS(id, words, calls, at, large_s, large)                                           \
    GL_TEST(id##_small_n, GL_CORRECTNESS, 2, 15, words ", n = 0 .. 65537" at)                 \
    {                                                                                         \
        ROWS("reduce_" #id, calls, "", 0, 1, 2, 31, 32, 33, 255, 256, 257, 511, 512, 513,     \
             1000, 1024, 4097, 65537);                                                        \
    }                                                                                         \
    GL_TEST(id##_large_n, GL_CORRECTNESS, 2, large_s, words ", n = 2^20 + 3, 2^22 + 1" large) \
    {                                                                                         \
        check_large("reduce_" #id, calls);                                                    \
    }                                                                                         \
    GL_TEST(id##_random, GL_CORRECTNESS, 1, 15, words ", an n drawn from the seed" at)        \
    {                                                                                         \
        check_random("reduce_" #id, calls);                                                   \
    }
#define LADDER_TESTS(id, words) TESTS(id, words, 2, "", 15, "")
#define GRID_TESTS(id, words) TESTS(id, words, 3, ", in + 1", 30, ", 4 and 7 grid strides, in + 1")

LADDER_TESTS(sequential, "sequential")
LADDER_TESTS(first_add, "first add")
LADDER_TESTS(shuffle, "shuffle")
GRID_TESTS(grid_stride, "grid-stride")
GRID_TESTS(grid_stride_int, "grid-stride int")

GL_TEST(grid_stride_int_wraps, GL_CORRECTNESS, 2, 15, "grid-stride int, a sum that wraps")
{
    ROWS("reduce_grid_stride_int", 3, " wraps", 2, 1000, 100003);
}

GRID_TESTS(last_block, "last block")

/* Three calls in a row on the same input: each right, all the same bits (a fixed order of the
 * additions), and each after the previous one left the counter where the next call needs it. */
GL_TEST(last_block_repeated, GL_CORRECTNESS, 2, 15, "last block: 3 calls in a row, same bits")
{
    ROWS("reduce_last_block", 3, " same", (1 << 22) + 1);
}

/* The launcher only enqueues its work: n = 2^20 + 3 behind a 150 ms kernel. */
GL_QUEUED(grid_stride_async, 2, "grid-stride, launcher returns at once",
          .run = "reduce_grid_stride 1048579")
GL_QUEUED(last_block_async, 2, "last block, launcher returns at once",
          .run = "reduce_last_block 1048579")

/* ---- technique: read from the PTX, no GPU needed ---- */

/* The kernels the launcher really ran (the starting file's name without a GPU), but the given
 * second launch, sum_partials_kernel: the lesson is in the first. */
static int technique_kernels(const char *launcher, const char *named, char (*names)[224], int max)
{
    int n = gl_technique_kernels(launcher, named, names, max), kept = 0;
    for (int i = 0; i < n; i++)
        if (!gl_symbol_is(names[i], strlen(names[i]), "sum_partials_kernel"))
            memmove(names[kept++], names[i], sizeof names[i]);
    if (kept == 0)
        gl_check_fail("%s launched only the given sum_partials_kernel, the second launch: the "
                      "blocks' sums are the first launch's work (%s)", launcher, named);
    return kept;
}

#define FOR_EACH_KERNEL(launcher, named, k)                                                   \
    GL_FOR_EACH_KERNEL_OF(technique_kernels, launcher, named, k)
/* A technique test (10 s) of check on each of those kernels, k naming it. */
#define KERNEL_TEST(name, points, title, launcher, named, check)                              \
    GL_TEST(name, GL_TECHNIQUE, points, 10, title)                                            \
    {                                                                                         \
        FOR_EACH_KERNEL(launcher, named, k) check;                                            \
    }

static void check_tree(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    if (gl_ptx_count(e, "rem") > 0)
        gl_check_fail("%s computes a remainder (%d rem in its PTX): task 1 picks the active "
                      "threads by tid < s, not by tid %% (2 * s) == 0",
                      kernel, gl_ptx_count(e, "rem"));
    gl_expect_shared_rw(e, kernel, "the tree works on the __shared__ sdata[]");
    gl_expect_barriers(e, kernel, 2,
                       "it needs one after the load and one after every step of the tree (a "
                       "missing one passes most runs and fails some: the next step reads what "
                       "other warps wrote)");
}

GL_TEST(sequential_tree, GL_TECHNIQUE, 3, 10, "sequential: no tid % (2 s), a barrier per step")
{
    gl_given_tells_apart(gl_ptx_count(gl_given_entry("reduce_interleaved_kernel"), "rem") > 0,
                         "reduce_interleaved_kernel", "has no rem (tid % (2 * s))");
    FOR_EACH_KERNEL("reduce_sequential", "reduce_sequential_kernel", k) check_tree(k);
}

/* Task 3's lesson, and why a last warp unrolled in shared memory is no shortcut */
#define LAST_WARP "task 3 finishes the last warp's steps in registers with __shfl_down_sync"
#define LOCKSTEP " (an unrolled last warp in shared memory, without barriers, relies on " \
                 "lockstep execution that Volta and later GPUs do not promise)"

static void check_last_warp(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int unrolled = gl_ptx_barriers(e) > 2 || gl_ptx_count(e, "ld.volatile") > 0;
    gl_expect_warp_reduction(e, kernel, unrolled ? LAST_WARP LOCKSTEP : LAST_WARP);
    gl_expect_barriers(e, kernel, 2,
                       "one after the load and one after every step of the tree in shared memory");
    if (gl_ptx_count(e, "ld.shared") == 0)
        gl_check_fail("%s reads no shared memory: task 3 keeps task 2's tree down to 64 sums and "
                      "shuffles only in the last warp", kernel);
}

KERNEL_TEST(shuffle_last_warp, 3, "shuffle: warp shuffles in the last warp", "reduce_shuffle",
            "reduce_shuffle_kernel", check_last_warp(k))

static void check_grid_stride(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    gl_expect_warp_reduction(e, kernel, "task 4's block_sum adds within each warp with "
                                        "__shfl_down_sync (warp_sum)");
    if (gl_ptx_count_with(e, "atom", ".add") + gl_ptx_count_with(e, "red", ".add") == 0)
        gl_check_fail("%s has no atomic add in its PTX: each block adds its sum to *sum with "
                      "atomicAdd (one launch, no partials)", kernel);
}

GL_TEST(grid_stride_shuffle_atomic, GL_TECHNIQUE, 3, 10,
        "grid-stride: shuffles and one atomic add per block")
{
    FOR_EACH_KERNEL("reduce_grid_stride", "reduce_grid_stride_kernel", k) check_grid_stride(k);
    FOR_EACH_KERNEL("reduce_grid_stride_int", "reduce_grid_stride_int_kernel", k_int)
        check_grid_stride(k_int);
}

/* A ticket: atomicInc (it wraps the counter back to 0 at the last ticket), or an integer
 * atomicAdd (then the last block resets the counter: the repeated-call tests see if not); no
 * atomicAdd on a float, double or half. */
static void check_ticket(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int tickets = gl_ptx_count_with(e, "atom", ".inc") + gl_ptx_count_with(e, "atom", ".add.u32");
    tickets += gl_ptx_count_with(e, "atom", ".add.s32") + gl_ptx_count_with(e, "atom", ".add.u64");
    if (tickets == 0)
        gl_check_fail("%s draws no ticket (no atom.inc, no integer atom.add in its PTX): each "
                      "block draws one with atomicInc(&blocks_done, gridDim.x - 1), which also "
                      "wraps the counter back to 0 at the last ticket", kernel);
    if (gl_ptx_float_atomic_adds(e) > 0)
        gl_check_fail("%s adds floats with atomicAdd: task 5 combines the blocks by the last "
                      "block alone, in a fixed order, so that the float sum is the same bits "
                      "every run", kernel);
    gl_expect_warp_reduction(e, kernel, "it uses task 4's block_sum");
}

KERNEL_TEST(last_block_ticket, 2, "last block: a ticket, no float atomicAdd", "reduce_last_block",
            "reduce_last_block_kernel", check_ticket(k))

/* __threadfence() between the partial and the ticket, on every path, on one thread */
KERNEL_TEST(last_block_fence, 1, "last block: __threadfence() between the partial and the ticket",
            "reduce_last_block", "reduce_last_block_kernel",
            gl_expect_last_block(gl_kernel_entry(k), k, GL_TICKET_INC_OR_ADD, -1,
                                 "partial[blockIdx.x]",
                                 "A block that draws its ticket before its partial is visible to "
                                 "the whole GPU lets the last block read a stale partial[] and add "
                                 "it: a rare race, which passes almost every run and fails some. "
                                 "In that order, by the same thread: partial[blockIdx.x] = v; "
                                 "__threadfence(); ticket = atomicInc(&blocks_done, "
                                 "gridDim.x - 1)"))

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ---- */

#define VS_INTERLEAVED .than = "reduce_interleaved"

GL_FASTER(sequential_vs_interleaved, 4, "sequential faster than interleaved", VS_INTERLEAVED,
          .launcher = "reduce_sequential", .factor = 1.2, /* H200: 1.90, H100: 1.85 */
          .hint = "With tid < s the active threads are contiguous: whole warps finish early, no "
                  "warp diverges until s < 32, and there is no tid % (2 s) to compute")

GL_FASTER(shuffle_vs_interleaved, 4, "shuffle far faster than interleaved", VS_INTERLEAVED,
          .launcher = "reduce_shuffle",
          .factor = 2.6, /* H200: 5.25, H100: 4.14 (the sequential tree alone: 2.02) */
          .hint = "Sequential addressing alone reaches about 2x. Task 3 also starts half as many "
                  "blocks (two elements per thread, added as they load) and finishes the last "
                  "five steps in one warp with shuffles, without barriers")

/* The copy the grid-stride launchers' read bandwidth is a share of, and what reaches it */
#define VS_COPY                                                                               \
    .than = "gl_copy", .than_is = "the copy (cudaMemcpy device to device of the same bytes, "  \
                                  "timed the same way; its GB/s count read + written)"
#define GRID_STRIDE_HINT                                                                      \
    "A fixed grid of a few blocks per SM, four loads in flight per thread (four "             \
    "accumulators), and one atomic"

GL_SHARE(grid_stride_pct_of_copy, 4, "grid-stride near the copy bandwidth", VS_COPY,
         .launcher = "reduce_grid_stride", .percent = 48, /* H200: 73 to 81, H100: 83 to 87 */
         .hint = GRID_STRIDE_HINT " per block")

GL_SHARE(grid_stride_int_pct_of_copy, 4, "grid-stride int near the copy bandwidth", VS_COPY,
         .launcher = "reduce_grid_stride_int", .percent = 48, /* H200: 73 to 81, H100: 86 to 88 */
         .hint = GRID_STRIDE_HINT " per block")

GL_SHARE(last_block_pct_of_copy, 4, "last block near the copy bandwidth", VS_COPY,
         .launcher = "reduce_last_block", .percent = 50, /* H200: 84, H100: 85 to 87 */
         .hint = GRID_STRIDE_HINT " (here: one ticket) per block")

/* The copy's round, the largest: REDUCE_SETS calls on 2^28 floats in and 2^28 out (a
 * reduction's round, with its input made again to check it, holds 7 GiB) */
#define POOL_MIB (2 * REDUCE_SETS * 1025 + 64)

/* The timed problem: 2^28 elements (1 GiB) a call, 1.4 ms of GPU time or more even at the copy's
 * speed on an H200, beside which a call's round trip to the subject is small; else 2^26. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static reduce_size z;
    z.n = gl_pool_mib() >= POOL_MIB ? 1 << 28 : 1 << 26;
    *p = reduce_problem(launcher, &z);
    return on && *on ? -1 : 0;
}

/* The problem of a profile run or a probe (LAUNCHER [N], 2^20 elements by default), or of a
 * correctness check (LAUNCHER N CALL [wraps | same]: lab.h's reduce_problem). */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static reduce_size z;
    long n = 1 << 20, call = 0;
    const char *how = argc == 3 ? argv[2] : "";
    if (!gl_launcher_find(launcher) || argc > 3 ||
        (argc > 0 && gl_parse_long(argv[0], 0, 1L << 28, &n)) ||
        (argc > 1 && gl_parse_long(argv[1], 1, 3, &call)) ||
        (*how && strcmp(how, "wraps") && strcmp(how, "same")))
        return -1;
    z = (reduce_size){.n = (int)n, .call = (int)call, .wraps = !strcmp(how, "wraps"),
                      .same = !strcmp(how, "same")};
    *p = reduce_problem(launcher, &z);
    return 0;
}

const gl_lab GL_LAB = {.name = "10-reduction", .file = "reduction.cu", .problem = problem,
                       .timed = timed, .pool_mib = POOL_MIB};
