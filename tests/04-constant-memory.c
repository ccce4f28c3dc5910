/* 04-constant-memory.c: the grader's suite for lab 04-constant-memory: every output of the
 * correctness tests against the CPU (lab.c: cpu_check), the kernels' PTX, the timed claims
 * against the kit's kernels (fresh inputs and constant data every round), and the constant
 * polynomial's global load instructions (Nsight Compute). */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LOADS_PER_WARP 8 /* global loads per warp: x is 1; global coeffs: 513 */

/* Every class of n: 0, 1, under a warp, a warp, a warp and one, a block and one less or more, a
 * multiple of 8 but not of 32, a multiple of the block; 2^20 and 2^20 + 3; one from the seed. */
#define SMALL_N "0, 1, 31, 32, 33, 255, 256, 257, 1000, 4096"
GL_RIGHT(constant_small_n, 2, 15, "constant coefficients, n = " SMALL_N,
         .run = "poly_constant", .cases = SMALL_N)
GL_RIGHT(constant_large_n, 2, 15, "constant coefficients, n = 2^20 and 2^20 + 3",
         .run = "poly_constant", .cases = "1048576, 1048579")
GL_RIGHT(constant_random, 1, 15, "constant coefficients, n drawn from the seed",
         .run = "poly_constant 1..300000")

#define INDICES(n) n " uniform, " n " random" /* a lookup's n: one index per warp, then random */
GL_RIGHT(lookup_small_n, 2, 15, "global lookup, n = " SMALL_N, .run = "lookup_global",
         .cases = INDICES("0") ", " INDICES("1") ", " INDICES("31") ", " INDICES("32") ", "
                  INDICES("33") ", " INDICES("255") ", " INDICES("256") ", " INDICES("257")
                  ", " INDICES("1000") ", " INDICES("4096"))
GL_RIGHT(lookup_large_n, 2, 15, "global lookup, n = 2^20 and 2^20 + 3", .run = "lookup_global",
         .cases = INDICES("1048576") ", " INDICES("1048579"))

GL_TEST(lookup_random, GL_CORRECTNESS, 1, 15, "global lookup, n drawn from the seed")
{
    gl_rng rng;
    gl_test_rng(&rng);
    int n = (int)gl_rng_range(&rng, 1, 300000); /* the same n both ways */
    gl_expect_right("lookup_global %d uniform", n);
    gl_expect_right("lookup_global %d random", n);
}

/* A filter's lengths at n = 1, 256, 257 and 1000 (and 33 taps at 2^20 + 3) */
#define AT_LONG_N(taps) "1 " taps ", 256 " taps ", 257 " taps ", 1000 " taps
GL_RIGHT(long_taps, 2, 15, "long filter, 1, 31, 32, 33, 64, 1000 taps", .run = "convolve_long",
         .cases = AT_LONG_N("1") ", " AT_LONG_N("31") ", " AT_LONG_N("32") ", " AT_LONG_N("33")
                  ", " AT_LONG_N("64") ", " AT_LONG_N("1000") ", 1048579 33")
GL_RIGHT(long_past_64kb, 3, 15, "long filter, 20000 taps (80 KB)", .run = "convolve_long",
         .cases = AT_LONG_N("20000"))
GL_RIGHT(long_random, 1, 15, "long filter, n and taps drawn from the seed",
         .run = "convolve_long 1..100000 1..3000")

/* The launcher only enqueues its kernel: 2^20 + 3 outputs (a convolution's 100 taps) behind a
 * 150 ms kernel, its constant data set first. */
GL_QUEUED(constant_async, 2, "constant coefficients, launcher returns at once",
          .run = "poly_constant 1048579")
GL_QUEUED(lookup_async, 1, "global lookup, launcher returns at once",
          .run = "lookup_global 1048579")
GL_QUEUED(long_async, 1, "long filter, launcher returns at once",
          .run = "convolve_long 1048579 100")

/* The test tells the two apart: the given kernel has ld.const or none (has), in the baselines'
 * PTX (the grader's own copy). */
static void given_ld_const(const char *kernel, int has)
{
    int n = gl_ptx_count(gl_given_entry(kernel), "ld.const");
    gl_given_tells_apart(has == (n > 0), kernel, has ? "has no ld.const" : "has ld.const");
}

static void check_reads_c_coeffs(const char *kernel)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    long bytes = gl_ptx_const_bytes(ptx, "c_coeffs");
    int ld_const = gl_ptx_count(&e, "ld.const"), named = gl_ptx_names(&e, "c_coeffs");
    if (bytes < 0)
        gl_check_fail("the PTX of constant_memory.cu has no __constant__ array c_coeffs (.const "
                      "... c_coeffs[%d]): keep `__constant__ float c_coeffs[CM_COEFFS];` of the "
                      "starting file, and read the coefficients from it",
                      (int)(CM_COEFFS * sizeof(float)));
    if (bytes != (long)(CM_COEFFS * sizeof(float)))
        gl_check_fail("c_coeffs has %ld bytes in the PTX, where CM_COEFFS floats take %d: "
                      "declare it `__constant__ float c_coeffs[CM_COEFFS];`",
                      bytes, (int)(CM_COEFFS * sizeof(float)));
    if (ld_const == 0 || !named)
        gl_check_fail("%s reads no coefficients from constant memory (%d ld.const in its PTX, "
                      "%s): task 1 reads c_coeffs[k] in the kernel, where every lane of a warp "
                      "reads the same coefficient at the same time (a broadcast)",
                      kernel, ld_const, named ? "c_coeffs named" : "c_coeffs never named");
    gl_test_note("%d ld.const from c_coeffs (%ld bytes) in %s", ld_const, bytes, kernel);
    free(ptx);
}

GL_TEST(constant_reads_c_coeffs, GL_TECHNIQUE, 3, 10,
        "constant coefficients: ld.const from c_coeffs")
{
    given_ld_const("poly_global_kernel", 0);
    GL_FOR_EACH_KERNEL("poly_constant", "poly_constant_kernel", k) check_reads_c_coeffs(k);
}

GL_TEST(set_coeffs_to_symbol, GL_TECHNIQUE, 2, 10, "set_coeffs: cudaMemcpyToSymbol")
{
    static const char *const copies[] = {"cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync",
                                         "cudaGetSymbolAddress"};
    const char *found = gl_library_imports(copies, 3);
    if (!found)
        gl_check_fail("constant_memory.cu never calls cudaMemcpyToSymbol: constant memory is "
                      "written from the host, and set_coeffs copies the coefficients into "
                      "c_coeffs with cudaMemcpyToSymbol(c_coeffs, coeffs, CM_COEFFS * "
                      "sizeof(float))");
    gl_test_note("constant_memory.cu calls %s", found);
}

/* The kernel loads only through the read-only path (ld.global.nc), never from constant memory. */
static void check_readonly(const char *kernel, const char *what, int task)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int loads = gl_ptx_count(e, "ld.global"), nc = gl_ptx_count_with(e, "ld.global", ".nc"),
        ld_const = gl_ptx_count(e, "ld.const");
    if (ld_const)
        gl_check_fail("%s reads constant memory (%d ld.const in its PTX): task %d reads %s from "
                      "global memory, through the pointer it is given",
                      kernel, ld_const, task, what);
    if (nc == 0 || nc < loads)
        gl_check_fail("%s has %d global loads in its PTX, %d of them through the read-only path "
                      "(ld.global.nc): declare its input pointers `const ... *__restrict__` (read "
                      "only, and no other pointer writes what they point to), so that %s is "
                      "read through the read-only data cache",
                      kernel, loads, nc, what);
    gl_test_note("%d ld.global.nc, no ld.const in %s", nc, kernel);
}

GL_TEST(lookup_readonly, GL_TECHNIQUE, 2, 10, "global lookup: ld.global.nc")
{
    given_ld_const("lookup_constant_kernel", 1); /* the given lookup reads constant memory */
    GL_FOR_EACH_KERNEL("lookup_global", "lookup_global_kernel", k)
        check_readonly(k, "the table", 2);
}

GL_KERNEL_TEST(long_readonly, 2, "long filter: ld.global.nc", "convolve_long",
               "convolve_long_kernel", check_readonly(k, "the taps", 3))

GL_FASTER(constant_vs_global, 4, "constant coefficients faster than global",
          .launcher = "poly_constant", .than = "poly_global",
          .factor = 1.5, /* time ratios: 512 coefficients, 2^24 outputs; H100 2.34 to 2.41 */
          .hint = "Every lane of a warp reads the same coefficient at the same time: read it "
                  "from c_coeffs[k], with the loop unrolled (#pragma unroll), so that the "
                  "coefficient is a broadcast from the constant cache, an operand of the FFMA, "
                  "and not a load from global memory; and evaluate by Horner's rule (acc = acc * "
                  "x + c[k]), one multiply-add per coefficient, as the given kernel does: a sum "
                  "of powers does two per coefficient, and the lab compares like with like")

GL_FASTER(long_vs_constant_runtime, 4, "1024 run-time taps: global faster than constant",
          .launcher = "convolve_long", .than = "convolve_constant_runtime",
          .factor = 1.35, /* 1024 run-time taps, 2^22 outputs (H100 4.0x, 2.0x at 1/4 SMs) */
          .hint = "Read the taps from global memory through `const float *__restrict__` "
                  "pointers: the read-only data cache keeps up where a long run-time loop over "
                  "constant memory does not")

GL_FASTER(lookup_random_global_vs_constant, 4, "random lookup: global faster than constant",
          .launcher = "lookup_global", .than = "lookup_constant", .on = "random",
          .factor = 20.0, /* the lookup on random indices, 2^24 outputs */
          .hint = "When the lanes of a warp read different addresses, constant memory serves "
                  "them one at a time; read the table from global memory through `const float "
                  "*__restrict__` (the read-only data cache serves them together), not from a "
                  "constant copy of it")

#define PERF_SETS 8 /* calls a round, each on its own input and output (cm_problem's sets) */
#define PERF_LONG_TAPS 1024

/* tests/04-constant-memory.cu: out[i] = sum of weight[k] * src[(start[i] + k) & mask] */
void cm_suite_window_sum(float *out, const float *src, const int *start, const float *weight,
                         int terms, unsigned mask, int n);

/* The reference of a student's timed lookup or convolution (buf: idx or in, table or taps, out),
 * where the given kernels take 25 ms and 3.4 ms a call on an H100. */
static void window_sum(void *ctx, void *const *buf)
{
    const cm_size *z = ctx;
    if (z->task == CM_LOOKUP) /* table[(idx[i] + k) % CM_TABLE] */
        cm_suite_window_sum(buf[2], buf[1], buf[0], NULL, CM_LOOKUPS, CM_TABLE - 1, z->n);
    else /* taps[k] * in[i + k] */
        cm_suite_window_sum(buf[2], buf[0], NULL, buf[1], z->ntaps, ~0u, z->n);
    GL_CHECK_LAUNCH("the suite's reference");
}

/* The timed problem: 2^24 outputs (a lookup's indices random, its usual, or uniform), a
 * convolution's 2^22 at PERF_LONG_TAPS taps; a quarter where the pool cannot hold 2 x PERF_SETS
 * + 3 arrays. No work: the claims compare times. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static cm_size z;
    int lookup = !strncmp(launcher, "lookup_", 7), conv = !strncmp(launcher, "convolve_", 9);
    int uniform = on && !strcmp(on, "uniform"), shift = conv ? 22 : 24;
    int fits = gl_pool_mib() >= (2 * PERF_SETS + 3) * ((4 << shift) >> 20) + 16;
    if (on && *on && !(lookup && (uniform || !strcmp(on, "random"))))
        return -1;
    z = (cm_size){.n = fits ? 1 << shift : 1 << (shift - 2), .ntaps = conv ? PERF_LONG_TAPS : 0,
                  .uniform = uniform};
    *p = cm_problem(launcher, &z);
    if (p->reference_fn && z.by_pointer) /* a student's lookup or convolution */
        p->reference_fn = window_sum;
    p->work = 0;
    return 0;
}

GL_TEST(constant_global_loads, GL_PROFILE, 5, 300,
        "constant coefficients: no global coefficient loads")
{
    static const char *const metrics[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                          "smsp__sass_inst_executed_op_global_st.sum"};
    const int n = 1 << 18; /* the counts per warp do not depend on n; SASS counters are slow */
    const char *args[] = {"poly_constant", "262144", NULL};
    double v[2], per_warp;
    gl_profile(metrics, 2, v, args);
    per_warp = v[0] / (n / 32.0);
    gl_test_margin(per_warp, MAX_LOADS_PER_WARP, 0);
    if (per_warp > MAX_LOADS_PER_WARP)
        gl_check_fail("the coefficients come from global memory: poly_constant executed %.0f "
                      "warp-level global load instructions for %d outputs, %.1f per warp of 32 "
                      "outputs, where its x takes 1 and coefficients read from c_coeffs none "
                      "(from global memory they add %d: %d in all). Read c_coeffs[k] in the "
                      "unrolled loop. Stores: %.0f",
                      v[0], n, per_warp, CM_COEFFS, CM_COEFFS + 1, v[1]);
    gl_test_note("%.0f global load instructions for %d outputs: %.1f per warp (at most %d; "
                 "global coefficients: %d); %.0f stores",
                 v[0], n, per_warp, MAX_LOADS_PER_WARP, CM_COEFFS + 1, v[1]);
}

/* The problem of a run: LAUNCHER N [NTAPS (default 64) | uniform | random (the default)],
 * checked against the CPU; one at a time, in a size that outlives it. */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static cm_size z;
    const gl_launcher *l = gl_launcher_find(launcher);
    int uniform = argc == 2 && !strcmp(argv[1], "uniform");
    int indices = uniform || (argc == 2 && !strcmp(argv[1], "random"));
    long n, ntaps = 64;
    if (!l || l->layout[0] == 'h' || argc < 1 || argc > 2 ||
        gl_parse_long(argv[0], 0, 1L << 28, &n) || (indices && strncmp(launcher, "lookup_", 7)) ||
        (argc == 2 && !indices &&
         gl_parse_long(argv[1], 1, l->flags & GL_GIVEN ? CM_MAX_CONST_TAPS : 1L << 24, &ntaps)))
        return -1;
    z = (cm_size){.n = (int)n, .ntaps = (int)ntaps, .uniform = uniform, .cpu_check = 1};
    *p = cm_problem(launcher, &z);
    return 0;
}

/* One call at 1000 outputs (100 taps), to see which kernels a launcher launches (set_coeffs:
 * by poly_constant, whose setup calls it). */
static void probe(const char *launcher)
{
    static cm_size z;
    launcher = strcmp(launcher, "set_coeffs") ? launcher : "poly_constant";
    z = (cm_size){.n = 1000, .ntaps = 100};
    gl_problem p = cm_problem(launcher, &z);
    gl_problem_check(launcher, &p, gl_seed() ^ 0x50726f62u);
}

/* the largest tests: 8 inputs and 8 outputs of 2^24 floats (or ints), an input made again and
 * the expected output, 64 MiB each */
const gl_lab GL_LAB = {.name = "04-constant-memory", .file = "constant_memory.cu",
                       .probe = probe, .problem = problem, .timed = timed,
                       .pool_mib = (2 * PERF_SETS + 3) * 64 + 64};
