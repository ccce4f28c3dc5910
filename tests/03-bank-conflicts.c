/* 03-bank-conflicts.c: the grader's suite for lab 03-bank-conflicts.
 *
 *   correctness  padded row sums on floats and doubles: row counts a multiple
 *                of the 32-row tile or not, tiny and large ones, and one drawn
 *                from the run's seed; the launchers return at once (the work is
 *                on the GPU); bank_conflict_degree on strides, broadcasts and
 *                random patterns (host code, run in the student's process)
 *   technique    the padded tiles in the PTX of the kernels that ran: a float
 *                row pitch that is not a multiple of 32 words, a double row
 *                pitch of an odd number of doubles
 *   performance  padded against the lab's own unpadded kernels, timed by the
 *                judge on fresh inputs every call
 *   profile      shared-memory wavefronts per load (Nsight Compute): 1 for
 *                the padded float tile, 2 for the padded double tile */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_PADDED_OVER_UNPADDED 1.2 /* time ratios: the global loads hide part of the */
#define MIN_DOUBLE_PADDED_OVER_UNPADDED 1.1 /* conflicts (README.md: 1.58x and 1.42x) */
#define MAX_FLOAT_WAVEFRONTS 1.25 /* shared-memory wavefronts per load instruction */
#define MAX_DOUBLE_WAVEFRONTS 2.5 /* 8-byte loads: two half-warps, 2 at the least */

/* ---- tasks 1 and 3: padded row sums ---- */

/* One run of a row-sums launcher on rows x 32 random values, checked (lab.c). */
static const char *sums_once(gl_rng *rng, const char *launcher, int rows)
{
    void *in, *ref;
    const char *why;
    bc_sums_make(rng, rows, bc_is_double(launcher), &in, &ref);
    why = bc_sums_check(launcher, rows, in, ref);
    free(in);
    free(ref);
    return why;
}

static void check_sums(const char *launcher, const int *rows, int nrows)
{
    gl_rng rng;
    int i;
    gl_test_rng(&rng);
    for (i = 0; i < nrows; i++) {
        const char *why = sums_once(&rng, launcher, rows[i]);
        if (*why)
            gl_check_fail("%s with %d rows: %s", launcher, rows[i], why);
    }
}

static const int small_rows[] = {1, 31, 33, 100};  /* a partial last tile */
static const int whole_rows[] = {32, 64, 1024};    /* whole tiles only */
static const int large_rows[] = {(1 << 20) + 7, 1 << 20};

static void check_random(const char *launcher)
{
    gl_rng rng;
    int rows[1];
    gl_test_rng(&rng);
    rows[0] = (int)gl_rng_range(&rng, 1, 300000);
    check_sums(launcher, rows, 1);
}

GL_TEST(padded_small)
{
    check_sums("row_sums_padded", small_rows, 4);
}

GL_TEST(padded_whole)
{
    check_sums("row_sums_padded", whole_rows, 3);
}

GL_TEST(padded_large)
{
    check_sums("row_sums_padded", large_rows, 2);
}

GL_TEST(padded_random)
{
    check_random("row_sums_padded");
}

GL_TEST(double_small)
{
    check_sums("row_sums_double_padded", small_rows, 4);
}

GL_TEST(double_whole)
{
    check_sums("row_sums_double_padded", whole_rows, 3);
}

GL_TEST(double_large)
{
    check_sums("row_sums_double_padded", large_rows, 2);
}

GL_TEST(double_random)
{
    check_random("row_sums_double_padded");
}

/* The launcher only enqueues its kernel (gl_expect_queued). */
typedef struct {
    const char *launcher;
    void *out;
    const void *in, *ref;
    int rows;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    if (bc_is_double(q->launcher))
        bc_sums_double(q->launcher, q->out, q->in, q->rows);
    else
        bc_sums(q->launcher, q->out, q->in, q->rows);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    int dbl = bc_is_double(q->launcher);
    size_t bytes = (size_t)q->rows * (dbl ? sizeof(double) : sizeof(float));
    void *h = gl_malloc(bytes);
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->out, bytes, cudaMemcpyDeviceToHost));
    right = (dbl ? gl_compare_double(q->ref, h, (size_t)q->rows, 1e-12, 1e-12, &cmp)
                 : gl_compare_float(q->ref, h, (size_t)q->rows, 1e-5, 1e-5, &cmp)) == 0;
    free(h);
    return right;
}

static void check_async(const char *launcher)
{
    const int rows = 100000;
    size_t size = bc_is_double(launcher) ? sizeof(double) : sizeof(float),
           in_bytes = (size_t)rows * BC_TILE * size, out_bytes = (size_t)rows * size;
    void *h_in, *ref;
    gl_buf staged = gl_buf_alloc(in_bytes, 0), in = gl_buf_alloc(in_bytes, 0),
           out = gl_buf_alloc(out_bytes, 0);
    gl_queue_buffers b = {in.ptr, staged.ptr, in_bytes, out.ptr, out_bytes};
    queued q;
    gl_rng rng;

    gl_test_rng(&rng);
    bc_sums_make(&rng, rows, bc_is_double(launcher), &h_in, &ref);
    q = (queued){launcher, out.ptr, in.ptr, ref, rows};
    gl_buf_upload(&staged, h_in);
    gl_expect_queued(launcher, queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(ref);
}

GL_TEST(padded_async)
{
    check_async("row_sums_padded");
}

GL_TEST(double_async)
{
    check_async("row_sums_double_padded");
}

/* ---- task 2: bank_conflict_degree (host code, in the student's process) ---- */

static void expect_degree(const char *what, const int *words, int lanes)
{
    const char *why = bc_degree_check(what, words, lanes);
    if (*why)
        gl_check_fail("%s", why);
}

GL_TEST(degree_strides)
{
    static const int strides[] = {1, 2, 3, 4, 8, 16, 17, 32, 33, 64};
    int words[32], s, l;
    char what[64];
    for (s = 0; s < (int)(sizeof strides / sizeof strides[0]); s++) {
        for (l = 0; l < 32; l++)
            words[l] = 5 + l * strides[s];
        snprintf(what, sizeof what, "stride %d", strides[s]);
        expect_degree(what, words, 32);
    }
    expect_degree("no lane", words, 0);
}

GL_TEST(degree_broadcast)
{
    int words[32], l;
    for (l = 0; l < 32; l++)
        words[l] = 7;
    expect_degree("one word for every lane", words, 32);
    for (l = 0; l < 32; l++)
        words[l] = l / 2;
    expect_degree("pairs of lanes on one word", words, 32);
    for (l = 0; l < 32; l++)
        words[l] = l % 2 ? 32 : 0;
    expect_degree("two words of one bank", words, 32);
    for (l = 0; l < 32; l++)
        words[l] = (l % 4) * 32 + (l / 4 == 3) * 1;
    expect_degree("four words of bank 0, a few of bank 1", words, 32);
}

GL_TEST(degree_random)
{
    int words[32], t, l;
    gl_rng rng;
    gl_test_rng(&rng);
    for (t = 0; t < 300; t++) {
        int lanes = 1 + (int)gl_rng_range(&rng, 0, 31), span = t % 3 ? 256 : 2048;
        for (l = 0; l < lanes; l++)
            words[l] = (int)gl_rng_range(&rng, 0, span - 1);
        expect_degree("a random pattern", words, lanes);
    }
}

/* ---- technique: the padded tiles in the PTX of the kernels that ran ---- */

/* The kernels the launcher really ran (the starting file's name without a GPU). */
#define FOR_EACH_KERNEL(launcher, named, k)                                                   \
    char k##_names[8][224];                                                                   \
    int k##_n = gl_technique_kernels(launcher, named, k##_names, 8), k##_i;                  \
    for (k##_i = 0; k##_i < k##_n; k##_i++)                                                   \
        for (const char *k = k##_names[k##_i]; k; k = NULL)

static void check_float_pitch(const char *kernel)
{
    long bytes = gl_kernel_shared_bytes(
        kernel, "Task 1 loads the tile into shared memory and sums its rows from there");
    long words = bytes / 4, pitch = words / BC_TILE;
    if (words % BC_TILE != 0)
        gl_check_fail("%s's tile has %ld words, not %d rows of equal length", kernel, words,
                      BC_TILE);
    if (pitch % 32 == 0)
        gl_check_fail("%s's tile rows are %ld words long, a multiple of 32: tile[l][k] is in "
                      "bank (l * %ld + k) %% 32 = k %% 32, so the lanes reading column k hit one "
                      "bank 32 times. Pad each row by one word",
                      kernel, pitch, pitch);
}

static void check_double_pitch(const char *kernel)
{
    long bytes = gl_kernel_shared_bytes(
        kernel, "Task 3 loads the tile of doubles into shared memory and sums its rows from "
                "there");
    long doubles = bytes / 8, pitch = doubles / BC_TILE;
    if (doubles % BC_TILE != 0)
        gl_check_fail("%s's tile has %ld doubles, not %d rows of equal length", kernel, doubles,
                      BC_TILE);
    if (pitch % 2 == 0)
        gl_check_fail("%s's tile rows are %ld doubles long, an even number: tile[l][k] starts at "
                      "word 2 (%ld l + k), and the 16 lanes of a half-warp reading a column share "
                      "bank pairs. A row of an odd number of doubles (%d + 1) gives them 16 "
                      "different pairs",
                      kernel, pitch, pitch, BC_TILE);
}

GL_TEST(padded_pitch)
{
    FOR_EACH_KERNEL("row_sums_padded", "row_sums_padded_kernel", k) check_float_pitch(k);
}

GL_TEST(double_pitch)
{
    FOR_EACH_KERNEL("row_sums_double_padded", "row_sums_double_padded_kernel", k)
    check_double_pitch(k);
}

/* ---- performance: the judge's clock, fresh inputs every call ---- */

/* The largest test's memory (MiB): 8 inputs of 2^22 rows of 32 floats (or 2^21 of
 * doubles), their outputs, an input made again and the expected sums. On a smaller pool
 * every size is a quarter. */
#define POOL_MIB (4752 + 128)
#define PERF_SETS 8

typedef struct {
    const char *launcher;
    int rows, dbl;
    gl_buf in[PERF_SETS], out[PERF_SETS];
    gl_buf scratch, expected; /* an input made again, and the kit's sums of it */
} perf;

/* The input of call i in a round, made on the GPU from the seed: the same again in verify,
 * whatever the launcher did to the buffers. Doubles: pairs of floats in [1, 2), whose high
 * one makes a double in [2^-7, 2). */
static void perf_input(const perf *p, void *dst, int round, int i)
{
    size_t n = (size_t)p->rows * BC_TILE;
    unsigned long long seed =
        gl_seed() ^ (0x1000003ull * (unsigned long long)(round * PERF_SETS + i + 1));
    if (p->dbl)
        gl_device_fill_float(dst, 2 * n, 1.0f, 2.0f, seed);
    else
        gl_device_fill_float(dst, n, -1.0f, 1.0f, seed);
}

static void perf_prepare(void *ctx, int round)
{
    perf *p = ctx;
    int i;
    for (i = 0; i < PERF_SETS; i++) {
        perf_input(p, p->in[i].ptr, round, i);
        gl_buf_poison(&p->out[i]);
    }
}

static void perf_call(void *ctx, int i)
{
    perf *p = ctx;
    if (p->dbl)
        bc_sums_double(p->launcher, p->out[i].ptr, p->in[i].ptr, p->rows);
    else
        bc_sums(p->launcher, p->out[i].ptr, p->in[i].ptr, p->rows);
}

/* Doubles on the host (the kit compares no doubles on the GPU). */
static size_t double_wrong(perf *p, int i, size_t *first)
{
    size_t bytes = (size_t)p->rows * sizeof(double), wrong;
    double *want = gl_malloc(bytes), *got = gl_malloc(bytes);
    gl_cmp cmp;
    GL_CUDA(cudaMemcpy(want, p->expected.ptr, bytes, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(got, p->out[i].ptr, bytes, cudaMemcpyDeviceToHost));
    wrong = gl_compare_double(want, got, (size_t)p->rows, 1e-12, 1e-12, &cmp);
    *first = cmp.shown ? cmp.diff[0].index : 0;
    free(want);
    free(got);
    return wrong;
}

/* Every output of the round against the kit's own unpadded row sums of its input, made
 * again. */
static void perf_verify(void *ctx, int round)
{
    perf *p = ctx;
    const char *given = p->dbl ? "row_sums_double" : "row_sums";
    size_t wrong, first = 0;
    int i;
    for (i = 0; i < PERF_SETS; i++) {
        perf_input(p, p->scratch.ptr, round, i);
        if (p->dbl)
            bc_sums_double(given, p->expected.ptr, p->scratch.ptr, p->rows);
        else
            bc_sums(given, p->expected.ptr, p->scratch.ptr, p->rows);
        GL_CHECK_LAUNCH(given);
        wrong = p->dbl ? double_wrong(p, i, &first)
                       : gl_device_diff_float(p->expected.ptr, p->out[i].ptr, (size_t)p->rows,
                                              1e-5f, 1e-5f, &first);
        if (wrong)
            gl_check_fail("%s was right on smaller inputs, but in timed round %d (fresh inputs) "
                          "out is wrong at %zu of %d rows, first at row %zu: every call must sum "
                          "the rows of its own input",
                          p->launcher, round, wrong, p->rows, first);
    }
}

/* Milliseconds per call of a launcher on rows x 32, after checking that a student's is right
 * (a wrong kernel's speed means nothing). */
static double time_sums(const char *launcher, int rows)
{
    perf p;
    gl_timed t = {PERF_SETS, 5, perf_prepare, perf_call, perf_verify};
    const gl_launcher *l = gl_launcher_find(launcher);
    size_t size;
    double ms;
    int i;

    if (!(l->flags & GL_GIVEN)) {
        gl_rng rng;
        gl_test_rng(&rng);
        if (*sums_once(&rng, launcher, 100000))
            gl_check_fail("%s is not right yet, so its speed is not graded (the correctness "
                          "tests say what is wrong)",
                          launcher);
    }
    memset(&p, 0, sizeof p);
    p.launcher = launcher;
    p.rows = rows;
    p.dbl = bc_is_double(launcher);
    size = p.dbl ? sizeof(double) : sizeof(float);
    for (i = 0; i < PERF_SETS; i++) {
        p.in[i] = gl_buf_alloc((size_t)rows * BC_TILE * size, 0);
        p.out[i] = gl_buf_alloc((size_t)rows * size, 0);
    }
    p.scratch = gl_buf_alloc((size_t)rows * BC_TILE * size, 0);
    p.expected = gl_buf_alloc((size_t)rows * size, 0);
    if (l->flags & GL_GIVEN) {
        t.verify = NULL; /* the kit's own */
        ms = gl_time_baseline(&t, &p);
    } else {
        ms = gl_time_student(&t, &p);
    }
    for (i = 0; i < PERF_SETS; i++) {
        gl_buf_free(&p.in[i]);
        gl_buf_free(&p.out[i]);
    }
    gl_buf_free(&p.scratch);
    gl_buf_free(&p.expected);
    return ms;
}

/* 2^22 rows of floats, 2^21 of doubles (the same bytes): about 1 ms of the reference per
 * round of 8 calls */
static void expect_padded_faster(const char *mine, const char *given, double min_ratio)
{
    int rows = (bc_is_double(mine) ? 1 << 21 : 1 << 22) / (gl_pool_mib() >= POOL_MIB ? 1 : 4);
    double ts = time_sums(given, rows), tf = time_sums(mine, rows);
    if (ts < min_ratio * tf)
        gl_check_fail("on %d rows, %s takes %.3f ms and the given %s %.3f ms: %.2fx, where "
                      "removing the bank conflicts of the column reads should make it at least "
                      "%.1fx faster",
                      rows, mine, tf, given, ts, ts / tf, min_ratio);
    gl_test_note("%s %.3f ms, %s %.3f ms: %.2fx (needs %.1fx)", mine, tf, given, ts, ts / tf,
                 min_ratio);
}

GL_TEST(padded_vs_unpadded)
{
    expect_padded_faster("row_sums_padded", "row_sums", MIN_PADDED_OVER_UNPADDED);
}

GL_TEST(double_padded_vs_unpadded)
{
    expect_padded_faster("row_sums_double_padded", "row_sums_double",
                         MIN_DOUBLE_PADDED_OVER_UNPADDED);
}

/* ---- profile: Nsight Compute counters ---- */

static double wavefronts_per_load(const char *launcher, char *detail, size_t len)
{
    static const char *const metrics[] = {
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"};
    const char *args[] = {launcher, "65536", NULL};
    double v[3];
    gl_profile(metrics, 3, v, args);
    if (v[1] <= 0)
        gl_check_fail("%s executed no shared-memory load (Nsight Compute): it should sum the "
                      "rows from the tile in shared memory",
                      launcher);
    snprintf(detail, len, "%.0f load instructions, %.0f wavefronts, %.0f bank conflicts", v[1],
             v[0], v[2]);
    gl_test_note("%.2f wavefronts per shared load (%s)", v[0] / v[1], detail);
    return v[0] / v[1];
}

GL_TEST(padded_wavefronts)
{
    char detail[256];
    double w = wavefronts_per_load("row_sums_padded", detail, sizeof detail);
    if (w > MAX_FLOAT_WAVEFRONTS)
        gl_check_fail("row_sums_padded's shared loads take %.2f wavefronts each (%s): "
                      "1 is conflict-free, 32 is one bank for the whole warp",
                      w, detail);
}

GL_TEST(double_wavefronts)
{
    char detail[256];
    double w = wavefronts_per_load("row_sums_double_padded", detail, sizeof detail);
    if (w > MAX_DOUBLE_WAVEFRONTS)
        gl_check_fail("row_sums_double_padded's shared loads take %.2f wavefronts each "
                      "(%s): a conflict-free 8-byte load takes 2 (one per half-warp)",
                      w, detail);
}

/* Under Nsight Compute: one launcher, once; checked. */
static const char *run_once(int argc, char **argv)
{
    long rows;
    gl_rng rng;
    if (argc != 2 || gl_parse_long(argv[1], 1, 1 << 24, &rows) ||
        !strstr(argv[0], "row_sums"))
        return "usage: LAUNCHER ROWS (LAUNCHER: one of the row sums)";
    gl_rng_init(&rng, gl_seed(), "run_once");
    return sums_once(&rng, argv[0], (int)rows);
}

/* One call on a small problem, to see which kernels a launcher launches. */
static void probe(const char *launcher)
{
    static const int words[32] = {0, 33, 66, 99};
    gl_rng rng;
    gl_rng_init(&rng, gl_seed(), "probe");
    if (!strcmp(launcher, "bank_conflict_degree"))
        bc_degree(words, 32);
    else if (strstr(launcher, "row_sums"))
        sums_once(&rng, launcher, 100);
}

static void add_tests(void)
{
    GL_ADD(padded_small, GL_CORRECTNESS, 2, 15, "padded row sums, 1 to 100 rows");
    GL_ADD(padded_whole, GL_CORRECTNESS, 1, 15, "padded row sums, whole tiles: 32 to 1024 rows");
    GL_ADD(padded_large, GL_CORRECTNESS, 2, 30, "padded row sums, 2^20 + 7 and 2^20 rows");
    GL_ADD(padded_random, GL_CORRECTNESS, 1, 15, "padded row sums, rows from the seed");
    GL_ADD(padded_async, GL_CORRECTNESS, 2, 30, "padded row sums, launcher returns at once");
    GL_ADD(degree_strides, GL_CORRECTNESS, 2, 15, "conflict degree: strides");
    GL_ADD(degree_broadcast, GL_CORRECTNESS, 2, 15, "conflict degree: broadcasts");
    GL_ADD(degree_random, GL_CORRECTNESS, 2, 30, "conflict degree: random patterns");
    GL_ADD(double_small, GL_CORRECTNESS, 2, 15, "padded double row sums, 1 to 100 rows");
    GL_ADD(double_whole, GL_CORRECTNESS, 1, 15, "padded double row sums, whole tiles");
    GL_ADD(double_large, GL_CORRECTNESS, 2, 30, "padded double row sums, 2^20 + 7 and 2^20");
    GL_ADD(double_random, GL_CORRECTNESS, 1, 15, "padded double row sums, rows from the seed");
    GL_ADD(double_async, GL_CORRECTNESS, 1, 30, "padded double row sums, returns at once");
    GL_ADD(padded_pitch, GL_TECHNIQUE, 3, 10, "float tile: pitch not a multiple of 32");
    GL_ADD(double_pitch, GL_TECHNIQUE, 3, 10, "double tile: an odd number per row");
    GL_ADD(padded_vs_unpadded, GL_PERFORMANCE, 4, 120, "padded faster than unpadded");
    GL_ADD(double_padded_vs_unpadded, GL_PERFORMANCE, 4, 120, "double: padded faster");
    GL_ADD(padded_wavefronts, GL_PROFILE, 3, 300, "float: 1 wavefront per load");
    GL_ADD(double_wavefronts, GL_PROFILE, 3, 300, "double: 2 wavefronts per load");
}

const gl_lab GL_LAB = {"03-bank-conflicts", "bank_conflicts.cu", add_tests, run_once, probe,
                       POOL_MIB};
