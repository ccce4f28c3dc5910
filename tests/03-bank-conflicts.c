/* 03-bank-conflicts.c: the grader's suite for lab 03-bank-conflicts.
 *
 *   correctness  padded tile Gram matrices on floats and doubles: row counts a
 *                multiple of the 32-row tile or not, tiny and large ones, and
 *                one drawn from the run's seed, within the error bound of a
 *                dot product of 32 terms; the launchers return at once (the
 *                work is on the GPU); bank_conflict_degree on strides,
 *                broadcasts and random patterns (host code, run in the
 *                student's process)
 *   technique    the padded tiles in the PTX of the kernels that ran: a float
 *                row pitch that is not a multiple of 32 words, a double row
 *                pitch of an odd number of doubles
 *   performance  padded against the lab's own unpadded kernels, timed by the
 *                judge on fresh inputs every call
 *   profile      shared-memory wavefronts per load (Nsight Compute): 1 for
 *                the padded float tile, at most 2 for the padded double tile */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thresholds, well inside the effect README.md predicts (to be measured): a verdict must
 * not flip between runs or GPUs. Per tile, the unpadded kernels take 33792 shared-memory
 * wavefronts, the padded float one 2048 (16.5x fewer) and the padded double one 3072 (11x).
 * An unpadded float kernel with its loop unrolled (128-bit loads, README.md "Wide loads")
 * takes 8448, 4x fewer than the given one: under the float threshold. */
#define MIN_PADDED_OVER_UNPADDED 5.0        /* time ratios: predicted 8x to 16x */
#define MIN_DOUBLE_PADDED_OVER_UNPADDED 3.0 /* predicted 6x to 11x where FP64 is fast */
#define MIN_DOUBLE_SLOW_FP64 1.3 /* FP64 at 1/32 of FP32 or slower: about 2x predicted */
#define MAX_FLOAT_WAVEFRONTS 1.6 /* shared-memory wavefronts per load instruction: 1.0; 2-way: 2 */
#define MAX_DOUBLE_WAVEFRONTS 2.35 /* 1.5 or 2.0 (8-byte broadcasts); even pitch 2.5 or more */

/* ---- tasks 1 and 3: padded tile Gram matrices ---- */

/* One run of a tile-Gram launcher on rows x 32 random values, checked (lab.c). */
static const char *gram_once(gl_rng *rng, const char *launcher, int rows)
{
    bc_problem p;
    const char *why;
    bc_gram_make(rng, rows, bc_is_double(launcher), &p);
    why = bc_gram_check(launcher, &p);
    bc_gram_free(&p);
    return why;
}

static void check_gram(const char *launcher, const int *rows, int nrows)
{
    gl_rng rng;
    int i;
    gl_test_rng(&rng);
    for (i = 0; i < nrows; i++) {
        const char *why = gram_once(&rng, launcher, rows[i]);
        if (*why)
            gl_check_fail("%s with %d rows: %s", launcher, rows[i], why);
    }
}

static const int small_rows[] = {1, 31, 33, 100};  /* a partial last tile */
static const int whole_rows[] = {32, 64, 1024};    /* whole tiles only */
static const int large_rows[] = {(1 << 18) + 7, 1 << 18};

static void check_random(const char *launcher)
{
    gl_rng rng;
    int rows[1];
    gl_test_rng(&rng);
    rows[0] = (int)gl_rng_range(&rng, 1, 300000);
    check_gram(launcher, rows, 1);
}

GL_TEST(padded_small, GL_CORRECTNESS, 2, 15, "padded Gram, 1 to 100 rows")
{
    check_gram("tile_gram_padded", small_rows, 4);
}

GL_TEST(padded_whole, GL_CORRECTNESS, 1, 15, "padded Gram, whole tiles: 32 to 1024 rows")
{
    check_gram("tile_gram_padded", whole_rows, 3);
}

GL_TEST(padded_large, GL_CORRECTNESS, 2, 30, "padded Gram, 2^18 + 7 and 2^18 rows")
{
    check_gram("tile_gram_padded", large_rows, 2);
}

GL_TEST(padded_random, GL_CORRECTNESS, 1, 15, "padded Gram, rows from the seed")
{
    check_random("tile_gram_padded");
}

GL_TEST(double_small, GL_CORRECTNESS, 2, 15, "padded double Gram, 1 to 100 rows")
{
    check_gram("tile_gram_double_padded", small_rows, 4);
}

GL_TEST(double_whole, GL_CORRECTNESS, 1, 15, "padded double Gram, whole tiles")
{
    check_gram("tile_gram_double_padded", whole_rows, 3);
}

GL_TEST(double_large, GL_CORRECTNESS, 2, 30, "padded double Gram, 2^18 + 7 and 2^18")
{
    check_gram("tile_gram_double_padded", large_rows, 2);
}

GL_TEST(double_random, GL_CORRECTNESS, 1, 15, "padded double Gram, rows from the seed")
{
    check_random("tile_gram_double_padded");
}

/* The problem the grader times (and queues): rows x 32 random floats in [-1, 1), or doubles
 * (pairs of floats in [1, 2), whose high one makes a double in [2^-7, 2)); the kit's unpadded
 * kernel the reference. Two right FP32 results of one element differ by at most twice the
 * bound of a dot product of 32 terms (gl_matmul.h), 2 gamma_33 (u = 2^-24) times the sum of
 * |products|, below 32 here; doubles (positive inputs): 1e-12 relative, far above 2 gamma_33
 * (u = 2^-53). A dropped or repeated product misses them by far. */
typedef struct {
    int rows, dbl;
} problem_size;

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const problem_size *z = ctx;
    size_t n = (size_t)z->rows * BC_TILE;
    (void)k;
    if (z->dbl)
        gl_device_fill_float(dst, 2 * n, 1.0f, 2.0f, seed);
    else
        gl_device_fill_float(dst, n, -1.0f, 1.0f, seed);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const problem_size *z = ctx;
    if (z->dbl)
        bc_gram_double(launcher, buf[1], buf[0], z->rows);
    else
        bc_gram(launcher, buf[1], buf[0], z->rows);
}

static gl_problem problem(problem_size *z, char *what, size_t len)
{
    const double u = ldexp(1.0, -24), gamma = (BC_TILE + 1) * u / (1.0 - (BC_TILE + 1) * u);
    size_t bytes = (size_t)z->rows * BC_TILE * (z->dbl ? sizeof(double) : sizeof(float));
    gl_problem p = {.what = what, .sets = 8, .rounds = 5, .inputs = 1, .outputs = 1, .ctx = z,
                 .make = problem_make, .call = problem_call,
                 .reference = z->dbl ? "tile_gram_double" : "tile_gram"};
    snprintf(what, len, "on %d rows", z->rows);
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = bytes};
    if (z->dbl)
        p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes, .cmp = GL_CMP_DOUBLE,
                                 .atol = 1e-12, .rtol = 1e-12, .row = BC_TILE};
    else
        p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes, .cmp = GL_CMP_FLOAT,
                                 .atol = 2.0 * gamma * BC_TILE, .row = BC_TILE};
    return p;
}

/* The launcher only enqueues its kernel: 100000 rows behind a 150 ms kernel. */
static void check_async(const char *launcher)
{
    problem_size z = {100000, bc_is_double(launcher)};
    char what[64];
    gl_problem p = problem(&z, what, sizeof what);
    gl_perf_queued(launcher, &p);
}

GL_TEST(padded_async, GL_CORRECTNESS, 2, 30, "padded Gram, launcher returns at once")
{
    check_async("tile_gram_padded");
}

GL_TEST(double_async, GL_CORRECTNESS, 1, 30, "padded double Gram, returns at once")
{
    check_async("tile_gram_double_padded");
}

/* ---- task 2: bank_conflict_degree (host code, in the student's process) ---- */

static void expect_degree(const char *what, const int *words, int lanes, int want)
{
    const char *why = bc_degree_check(what, words, lanes, want);
    if (*why)
        gl_check_fail("%s", why);
}

GL_TEST(degree_strides, GL_CORRECTNESS, 2, 15, "conflict degree: strides")
{
    /* stride s from word 5: gcd(s, 32) lanes share each bank used, at different words */
    static const int strides[] = {1, 2, 3, 4, 8, 16, 17, 32, 33, 64};
    static const int wavefronts[] = {1, 2, 1, 4, 8, 16, 1, 32, 1, 32};
    int words[32], s, l;
    char what[64];
    for (s = 0; s < (int)(sizeof strides / sizeof strides[0]); s++) {
        for (l = 0; l < 32; l++)
            words[l] = 5 + l * strides[s];
        snprintf(what, sizeof what, "stride %d", strides[s]);
        expect_degree(what, words, 32, wavefronts[s]);
    }
    expect_degree("no lane", words, 0, 0);
}

GL_TEST(degree_broadcast, GL_CORRECTNESS, 2, 15, "conflict degree: broadcasts")
{
    int words[32], l;
    for (l = 0; l < 32; l++)
        words[l] = 7;
    expect_degree("one word for every lane", words, 32, 1);
    for (l = 0; l < 32; l++)
        words[l] = l / 2;
    expect_degree("pairs of lanes on one word", words, 32, 1);
    for (l = 0; l < 32; l++)
        words[l] = l % 2 ? 32 : 0;
    expect_degree("two words of one bank", words, 32, 2);
    for (l = 0; l < 32; l++)
        words[l] = (l % 4) * 32 + (l / 4 == 3) * 1;
    expect_degree("four words of bank 0, a few of bank 1", words, 32, 4);
}

/* the same patterns every run (lab.c): their wavefronts are worked out beside them, since a
 * count of the kit's own would hand out the task's answer */
GL_TEST(degree_random, GL_CORRECTNESS, 2, 30, "conflict degree: random patterns")
{
    int words[32], lanes, t;
    for (t = 0; t < BC_RANDOM_PATTERNS; t++) {
        int want = bc_random_pattern(t, words, &lanes);
        expect_degree("a random pattern", words, lanes, want);
    }
}

/* ---- technique: the padded tiles in the PTX of the kernels that ran ---- */

static void check_float_pitch(const char *kernel)
{
    long bytes = gl_kernel_shared_bytes(
        kernel, "Task 1 loads the tile into shared memory and takes the dot products of its "
                "rows from there");
    long words = bytes / 4, pitch = gl_tile_pitch(words, BC_TILE, 32);
    if (pitch == 0)
        gl_check_fail("%s's tile has %ld words, not %d rows of equal length (nor two buffers of "
                      "them)",
                      kernel, words, BC_TILE);
    if (pitch % 32 == 0)
        gl_check_fail("%s's tile rows are %ld words long, a multiple of 32: tile[r][k] is in "
                      "bank (r * %ld + k) %% 32 = k %% 32, so the lanes reading column k hit one "
                      "bank 32 times. Pad each row by one word",
                      kernel, pitch, pitch);
}

static void check_double_pitch(const char *kernel)
{
    long bytes = gl_kernel_shared_bytes(
        kernel, "Task 3 loads the tile of doubles into shared memory and takes the dot "
                "products of its rows from there");
    long doubles = bytes / 8, pitch = gl_tile_pitch(doubles, BC_TILE, 2);
    if (pitch == 0)
        gl_check_fail("%s's tile has %ld doubles, not %d rows of equal length (nor two buffers "
                      "of them)",
                      kernel, doubles, BC_TILE);
    if (pitch % 2 == 0)
        gl_check_fail("%s's tile rows are %ld doubles long, an even number: tile[r][k] starts at "
                      "word 2 (%ld r + k), and the 16 lanes of a half-warp reading a column share "
                      "bank pairs. A row of an odd number of doubles (%d + 1) gives them 16 "
                      "different pairs",
                      kernel, pitch, pitch, BC_TILE);
}

GL_TEST(padded_pitch, GL_TECHNIQUE, 3, 10, "float tile: pitch not a multiple of 32")
{
    GL_FOR_EACH_KERNEL("tile_gram_padded", "tile_gram_padded_kernel", k) check_float_pitch(k);
}

GL_TEST(double_pitch, GL_TECHNIQUE, 3, 10, "double tile: an odd number per row")
{
    GL_FOR_EACH_KERNEL("tile_gram_double_padded", "tile_gram_double_padded_kernel", k)
    check_double_pitch(k);
}

/* ---- performance: the judge's clock, fresh inputs every call (gl_perf_ms) ---- */

/* The largest test's memory (MiB): 8 inputs and 8 outputs of 2^20 rows of 32 floats (or 2^19
 * of doubles), an input made again and the kit's out of it. On a smaller pool every size is a
 * quarter. */
#define POOL_MIB (2304 + 128)

/* Milliseconds per call of a launcher on rows x 32; a student's outputs are checked after
 * every round (a wrong kernel's speed means nothing). */
static double time_gram(const char *launcher, int rows)
{
    problem_size z = {rows, bc_is_double(launcher)};
    char what[64];
    gl_problem p = problem(&z, what, sizeof what);
    return gl_perf_ms(launcher, &p);
}

/* 2^20 rows of floats, 2^19 of doubles (the same bytes): 2^15 or 2^14 tiles a call, a round
 * of 8 calls about 2 ms of the padded kernels on an H100 (README.md's estimate). */
static void expect_padded_faster(const char *mine, const char *given, double min_ratio,
                                 const char *why)
{
    int rows = (bc_is_double(mine) ? 1 << 19 : 1 << 20) / (gl_pool_mib() >= POOL_MIB ? 1 : 4);
    double ts = time_gram(given, rows), tf = time_gram(mine, rows);
    gl_test_margin(ts / tf, min_ratio, 1);
    if (ts < min_ratio * tf)
        gl_check_fail("on %d rows, %s takes %.3f ms and the given %s %.3f ms: %.2fx, where "
                      "removing the bank conflicts of the column reads should make it at least "
                      "%.1fx faster%s",
                      rows, mine, tf, given, ts, ts / tf, min_ratio, why);
    gl_test_note("%s %.3f ms, %s %.3f ms: %.2fx (needs %.1fx)", mine, tf, given, ts, ts / tf,
                 min_ratio);
}

GL_TEST(padded_vs_unpadded, GL_PERFORMANCE, 4, 120, "padded faster than unpadded")
{
    expect_padded_faster("tile_gram_padded", "tile_gram", MIN_PADDED_OVER_UNPADDED, "");
}

/* Where FP64 runs at 1/32 of FP32 or slower (GeForce, T4, L4), the padded double kernel's
 * 32 FP64 multiply-adds per thread take longer than its shared loads: padding gains about
 * 2x there, not 11x. */
GL_TEST(double_padded_vs_unpadded, GL_PERFORMANCE, 4, 120, "double: padded faster")
{
    int dev = 0, fp64 = 0; /* FP32 throughput over FP64 throughput */
    GL_CUDA(cudaGetDevice(&dev));
    GL_CUDA(cudaDeviceGetAttribute(&fp64, cudaDevAttrSingleToDoublePrecisionPerfRatio, dev));
    if (fp64 >= 32)
        expect_padded_faster("tile_gram_double_padded", "tile_gram_double", MIN_DOUBLE_SLOW_FP64,
                             " (on this GPU, FP64 arithmetic runs at 1/32 of FP32 or slower, "
                             "and bounds the padded kernel: the threshold is lower)");
    else
        expect_padded_faster("tile_gram_double_padded", "tile_gram_double",
                             MIN_DOUBLE_PADDED_OVER_UNPADDED, "");
}

/* ---- profile: Nsight Compute counters ---- */

static double wavefronts_per_load(const char *launcher, char *detail, size_t len)
{
    static const char *const metrics[] = {
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"};
    const char *args[] = {launcher, "65536", NULL};
    double v[3], w;
    char kernel[224];
    /* the most of the kernels that did the work, each on its own loads */
    w = gl_profile_ratio(metrics, 3, 1u << 0, 1u << 1, 0, args, v, kernel, sizeof kernel);
    if (w < 0)
        gl_check_fail("%s executed no shared-memory load (Nsight Compute): it should take the "
                      "dot products from the tile in shared memory",
                      launcher);
    snprintf(detail, len, "%.0f load instructions, %.0f wavefronts, %.0f bank conflicts", v[1],
             v[0], v[2]);
    gl_test_note("%.2f wavefronts per shared load (%s)", w, detail);
    return w;
}

GL_TEST(padded_wavefronts, GL_PROFILE, 3, 300, "float: 1 wavefront per load")
{
    char detail[256];
    double w = wavefronts_per_load("tile_gram_padded", detail, sizeof detail);
    gl_test_margin(w, MAX_FLOAT_WAVEFRONTS, 0);
    if (w > MAX_FLOAT_WAVEFRONTS)
        gl_check_fail("tile_gram_padded's shared loads take %.2f wavefronts each (%s): 1 is "
                      "conflict-free; half of the loads are column reads of the tile, and with "
                      "rows of 32 words each of those takes 32 (16.5 on average)",
                      w, detail);
}

GL_TEST(double_wavefronts, GL_PROFILE, 3, 300, "double: at most 2 wavefronts per load")
{
    char detail[256];
    double w = wavefronts_per_load("tile_gram_double_padded", detail, sizeof detail);
    gl_test_margin(w, MAX_DOUBLE_WAVEFRONTS, 0);
    if (w > MAX_DOUBLE_WAVEFRONTS)
        gl_check_fail("tile_gram_double_padded's shared loads take %.2f wavefronts each (%s): "
                      "a conflict-free 8-byte column read takes 2 (one per half-warp) and a "
                      "broadcast 1 or 2, at most 2 on average; rows of an even number of "
                      "doubles make each column read take 4 or more",
                      w, detail);
}

/* Under Nsight Compute: one launcher, once; checked. */
static const char *run_once(int argc, char **argv)
{
    long rows;
    gl_rng rng;
    if (argc != 2 || gl_parse_long(argv[1], 1, 1 << 24, &rows) ||
        !strstr(argv[0], "tile_gram"))
        return "usage: LAUNCHER ROWS (LAUNCHER: one of the tile Gram matrices)";
    gl_rng_init(&rng, gl_seed(), "run_once");
    return gram_once(&rng, argv[0], (int)rows);
}

/* One call on a small problem, to see which kernels a launcher launches. */
static void probe(const char *launcher)
{
    static const int words[32] = {0, 33, 66, 99};
    gl_rng rng;
    gl_rng_init(&rng, gl_seed(), "probe");
    if (!strcmp(launcher, "bank_conflict_degree"))
        bc_degree(words, 32);
    else if (strstr(launcher, "tile_gram"))
        gram_once(&rng, launcher, 100);
}

const gl_lab GL_LAB = {.name = "03-bank-conflicts", .file = "bank_conflicts.cu",
                       .run_once = run_once, .probe = probe, .pool_mib = POOL_MIB};
