/* 07-vectorized-loads.c: the grader's suite for lab 07-vectorized-loads.
 *
 *   correctness  int2 copy, int4 copy and int4 scaled add on every class of n % 4 (tiny, small,
 *                more vectors than the grid has threads), with arrays one to three ints past a
 *                16-byte boundary (the scalar fallback), on sizes and offsets from the run's seed,
 *                checked on the lab's problem (lab.c); the launcher returns at once
 *   technique    ld.global.v2 / .v4 and st.global.v2 / .v4 in the PTX of the kernels that did
 *                the work on aligned pointers (and none in the given scalar copy)
 *   performance  against the lab's own scalar kernels and cudaMemcpy, timed by the judge
 *   profile      global load instructions of the int4 copy (Nsight Compute): one per four ints */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdlib.h>
#include <string.h>

/* warp-level global loads per 128 ints: 1 for int4, 2 for int2 */
#define MAX_INT4_LOADS_PER_128 1.5
#define LARGE (1 << 22) /* 2^20 int4 vectors: more than any grid of the lab has threads */

/* Every class of n % 4 (and n % 2): tiny, around a block's 1024 ints, more vectors than the grid
 * has threads (the grid-stride loop and the tail); k 7 (LAUNCHER OUT A B K N: problem() below) */
#define SMALL_N "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 32, 33, 1023, 1024, 1025, 1026"
#define LARGE_N "4194304, 4194305, 4194306, 4194307" /* LARGE .. LARGE + 3 */
/* sizes, offsets and k from the run's seed: aligned, then off */
#define SEEDED "0 0 0 -1000..1000 1..2097152, 0..3 0..3 0..3 -1000..1000 1..2097152"

/* out, a (in) and b one to three ints past a 16-byte boundary (OUT A B), each alone (b only in a
 * scaled add) and together, on n = 5, 1025 and 300001 (more than the grid's threads): the vector
 * path would fault (misaligned address) or read the wrong ints. Two ints past it is 8-byte
 * aligned: int2 may vectorise there, int4 may not. */
#define OFF(out_a_b) out_a_b " 7 5, " out_a_b " 7 1025, " out_a_b " 7 300001"
#define MISALIGNED(b_alone) \
    OFF("1 1 1") ", " OFF("0 1 1") ", " OFF("1 0 0") ", " b_alone OFF("2 2 2") ", " OFF("3 3 3")

/* The correctness tests of one launcher, label its name in the titles */
#define CORRECTNESS(launcher, label, misaligned)                                              \
    GL_RIGHT(launcher##_small_n, 2, 15, label ", n = 0 .. 9, 31 .. 1026",                     \
             .run = #launcher " 0 0 0 7", .cases = SMALL_N)                                   \
    GL_RIGHT(launcher##_large_n, 2, 15, label ", n = 2^22 .. 2^22 + 3",                       \
             .run = #launcher " 0 0 0 7", .cases = LARGE_N)                                   \
    GL_RIGHT(launcher##_misaligned, 2, 15, label ", unaligned pointers", .run = #launcher,    \
             .cases = misaligned)                                                             \
    GL_RIGHT(launcher##_random, 1, 15, label ", n and offsets from the seed",                 \
             .run = #launcher, .cases = SEEDED)

CORRECTNESS(copy_int2, "int2 copy", MISALIGNED(""))
CORRECTNESS(copy_int4, "int4 copy", MISALIGNED(""))
CORRECTNESS(scaled_add_int4, "int4 scaled add", MISALIGNED(OFF("0 0 1") ", "))

/* The launcher only enqueues its work: 2^22 + 3 ints behind a 150 ms kernel. */
GL_QUEUED(copy_int4_async, 2, "int4 copy, launcher returns at once", .run = "copy_int4 4194307")

/* ---- technique: read from the PTX of the kernels the launchers ran ---- */

/* Kernel k, which did launcher's work (with a GPU: in the probe's call, on aligned pointers), of
 * task task, reads and writes through vector pointers of width: loads vector loads at least, and
 * a vector store. */
static void check_vector_ops(const char *k, const char *launcher, const char *width, int loads,
                             int task)
{
    int v2 = !strcmp(width, ".v2");
    const gl_ptx_entry *e = gl_kernel_entry(k);
    int ld = gl_ptx_count_with(e, "ld.global", width),
        st = gl_ptx_count_with(e, "st.global", width);
    char did[128] = "";
    if (gl_have_gpu())
        snprintf(did, sizeof did, ", which did the work of %s on aligned pointers,", launcher);
    if (ld < loads || st < 1)
        gl_check_fail("%s%s has %d ld.global%s and %d st.global%s instructions in its PTX: "
                      "task %d reads and writes through %s pointers (reinterpret_cast<const "
                      "%s *>), so that one instruction moves %s bytes", k, did, ld, width, st,
                      width, task, v2 ? "int2" : "int4", v2 ? "int2" : "int4", v2 ? "8" : "16");
}

GL_KERNEL_TEST(copy_int2_vector_ops, 2, "int2 copy: ld/st.global.v2", "copy_int2",
               "copy_int2_kernel", check_vector_ops(k, "copy_int2", ".v2", 1, 1))

GL_TEST(copy_int4_vector_ops, GL_TECHNIQUE, 3, 10, "int4 copy: ld/st.global.v4")
{
    /* the test tells a scalar kernel from a vector one: the given has none */
    const gl_ptx_entry *given = gl_given_entry("copy_int_kernel");
    gl_given_tells_apart(!gl_ptx_count_with(given, "ld.global", ".v4") &&
                             !gl_ptx_count_with(given, "ld.global", ".v2"),
                         "copy_int_kernel", "has vector loads");
    GL_FOR_EACH_KERNEL("copy_int4", "copy_int4_kernel", k)
        check_vector_ops(k, "copy_int4", ".v4", 1, 2);
}

GL_KERNEL_TEST(scaled_add_int4_vector_ops, 3, "int4 scaled add: .v4 loads", "scaled_add_int4",
               "scaled_add_int4_kernel", check_vector_ops(k, "scaled_add_int4", ".v4", 2, 3))

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ----
 * Thresholds at most two thirds of the effect the reference shows under the grader's clock (a
 * speed-up of 1 + x needs 1 + 2x/3): on an H100, int2 1.22x, int4 1.42x, the scaled add 1.23x the
 * given scalar kernels (the handout's H200 demo: 1.52x, 1.56x); a scalar kernel in disguise stays
 * at 1.0x. The numbers beside each: bandwidth ratios at 2^26 ints. */

GL_FASTER(int2_vs_int, 3, "int2 copy faster than int", .launcher = "copy_int2", .than = "copy_int",
          .factor = 1.1, /* H100 1.70, H200 1.76 */
          .hint = "Each thread should move one int2 (8 bytes) per load and per store")

GL_FASTER(int4_vs_int, 4, "int4 copy faster than int", .launcher = "copy_int4", .than = "copy_int",
          .factor = 1.6, /* H100 2.53, H200 2.64 */
          .hint = "Each thread should move one int4 (16 bytes) per load and per store: four "
                  "times the bytes in flight for the same number of instructions")

GL_FASTER(scaled_add_int4_vs_int, 4, "int4 scaled add faster", .launcher = "scaled_add_int4",
          .than = "scaled_add_int", .factor = 1.55, /* H100 2.45, H200 2.54 */
          .hint = "Load a and b as int4, compute the four results, store one int4")

GL_SHARE(int4_vs_memcpy, 4, "int4 copy near cudaMemcpy", .launcher = "copy_int4",
         .than = "gl_copy", .than_is = "cudaMemcpy device to device on the same buffers",
         .percent = 27) /* one block per SM: H100 61%, H200 51%, 31% at 1/4 of the H100 */

/* ---- profile: Nsight Compute counters ---- */

GL_TEST(int4_load_instructions, GL_PROFILE, 5, 300, "int4 copy: 1 load per 128 ints")
{
    static const char *const metrics[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                          "smsp__sass_inst_executed_op_global_st.sum"};
    const char *args[] = {"copy_int4", "4194304", NULL}; /* LARGE */
    double v[2];
    gl_profile(metrics, 2, v, args);
    double per128 = v[0] / (LARGE / 128.0);
    gl_test_margin(per128, MAX_INT4_LOADS_PER_128, 0);
    if (per128 > MAX_INT4_LOADS_PER_128)
        gl_check_fail("copy_int4 executed %.0f warp-level global load instructions for %d ints: "
                      "%.2f per 128 ints, where one int4 load per thread makes it 1 (the scalar "
                      "copy takes 4). Stores: %.0f", v[0], LARGE, per128, v[1]);
    gl_test_note("%.0f global load instructions for %d ints: %.3f per 128 (at most %.2f); "
                 "%.0f stores", v[0], LARGE, per128, MAX_INT4_LOADS_PER_128, v[1]);
}

/* The problem of a correctness test (LAUNCHER OUT A B K N: each array's start in ints past a
 * 256-byte boundary, the scaled add's k, n ints), of a profile run (LAUNCHER N: aligned, k 3)
 * or of a probe (3001 ints): the words given are the last of OUT A B K N. */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static const long lo[] = {0, 0, 0, -1000000, 0}, hi[] = {3, 3, 3, 1000000, 1L << 28};
    static vl_size z;
    long v[5] = {0, 0, 0, 3, 3001};
    for (int i = 5 - argc; i < 5; i++)
        if ((argc != 1 && argc != 5) || gl_parse_long(argv[i - (5 - argc)], lo[i], hi[i], &v[i]))
            return -1;
    z = (vl_size){.at = {(int)v[0], (int)v[1], (int)v[2]}, .k = (int)v[3], .n = (int)v[4]};
    *p = vl_problem(launcher, &z);
    return 0;
}

/* The timed problem: 2^26 ints (256 MiB an array, far beyond any L2) when the pool holds 17 sets
 * of its arrays (16, and one to make the inputs again and the expected out); less if smaller. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static vl_size z;
    int arrays = 17 * (vl_problem(launcher, &z).inputs + 1); /* a copy's two, an add's three */
    for (z.n = 1 << 26; z.n > 1 << 22 && arrays * ((z.n >> 18) + 1) > gl_pool_mib();)
        z.n /= 2;
    *p = vl_problem(launcher, &z);
    return on && *on ? -1 : 0;
}

/* the largest test: 16 sets of a, b and out of 2^26 ints (256 MiB each), and one more */
const gl_lab GL_LAB = {.name = "07-vectorized-loads", .file = "vectorized_loads.cu",
                       .problem = problem, .timed = timed, .pool_mib = 17 * 3 * 257 + 64};
