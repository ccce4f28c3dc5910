/* 03-bank-conflicts.c: the grader's suite for lab 03-bank-conflicts.
 *
 *   correctness  padded row sums on floats and doubles, odd row counts; the
 *                launcher returns at once; bank_conflict_degree on strides,
 *                broadcasts and random patterns (no GPU needed)
 *   technique    the padded tiles in the PTX: a float row pitch that is not
 *                a multiple of 32 words, a double row pitch of an odd
 *                number of doubles
 *   performance  padded against the lab's own unpadded kernels, in one run
 *   profile      shared-memory wavefronts per load (Nsight Compute): 1 for
 *                the padded float tile, 2 for the padded double tile */
#include "grader.h"
#include "inspect.h"

#include "bank_conflicts.h"
#include "gpulabs.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sums_f)(float *out, const float *in, int rows);
typedef void (*sums_d)(double *out, const double *in, int rows);
typedef int (*degree_fn)(const int *words, int lanes);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_PADDED_OVER_UNPADDED 1.2 /* time ratios, 2^22 rows: the global loads hide */
#define MIN_DOUBLE_PADDED_OVER_UNPADDED 1.1 /* part of the conflicts (README.md) */
#define MAX_FLOAT_WAVEFRONTS 1.25 /* shared-memory wavefronts per load instruction */
#define MAX_DOUBLE_WAVEFRONTS 2.5 /* 8-byte loads: two half-warps, 2 at the least */

/* ---- tasks 1 and 3: padded row sums ---- */

/* Runs one row-sums launcher (float or double) on rows x 32 random values
 * and checks it; "" or why not. */
static const char *sums_once(sums_f f, sums_d d, const char *name, int rows)
{
    static char why[1600];
    size_t size = f ? 4 : 8, n = (size_t)rows * BC_TILE;
    unsigned char *h_in = gl_malloc(n * size), *h_out = gl_malloc((size_t)rows * size),
                  *h_ref = gl_malloc((size_t)rows * size);
    gl_buf in = gl_buf_alloc(n * size, 0), out = gl_buf_alloc((size_t)rows * size, 0);
    gl_guard_report g;
    gl_cmp cmp;
    gl_rng rng;
    int r, k;

    why[0] = '\0';
    gl_test_rng(&rng);
    for (r = 0; r < rows; r++) {
        double sd = 0.0;
        float sf = 0.0f;
        for (k = 0; k < BC_TILE; k++) {
            size_t i = (size_t)r * BC_TILE + k;
            if (f) {
                ((float *)h_in)[i] = gl_rng_float(&rng, -1, 1);
                sf += ((float *)h_in)[i];
            } else {
                ((double *)h_in)[i] = gl_rng_float(&rng, -1, 1) + 1e-9 * gl_rng_float(&rng, -1, 1);
                sd += ((double *)h_in)[i];
            }
        }
        if (f)
            ((float *)h_ref)[r] = sf;
        else
            ((double *)h_ref)[r] = sd;
    }
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    if (f)
        f(out.ptr, in.ptr, rows);
    else
        d(out.ptr, in.ptr, rows);
    GL_CHECK_LAUNCH(name);
    if (gl_buf_check_guards(&out, &g)) {
        char dsc[512];
        gl_guard_describe(&g, out.bytes, size, "out", dsc, sizeof dsc);
        snprintf(why, sizeof why, "%s: the last tile has fewer than 32 rows when rows is not a "
                 "multiple of 32; test first + threadIdx.x < rows",
                 dsc);
    } else {
        size_t bad;
        gl_buf_download(&out, h_out);
        /* 32 terms in [-1, 1): the order of the additions may differ from ours */
        bad = f ? gl_compare_float((float *)h_ref, (float *)h_out, (size_t)rows, 1e-5, 1e-5, &cmp)
                : gl_compare_double((double *)h_ref, (double *)h_out, (size_t)rows, 1e-12, 1e-12,
                                    &cmp);
        if (bad) {
            char dsc[1024];
            gl_cmp_describe(&cmp, "out", NULL, NULL, dsc, sizeof dsc);
            snprintf(why, sizeof why, "%s. %s", dsc,
                     cmp.unwritten == cmp.n ? "Is the kernel still a TODO?"
                     : cmp.unwritten
                         ? "Some sums were never written: every row needs its thread"
                         : "Lane l sums row l of the tile: tile[threadIdx.x][k] for k = 0 .. 31, "
                           "after __syncthreads()");
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_out);
    free(h_ref);
    return why;
}

static void check_sums(const char *name, const int *rows, int nrows)
{
    int i, dbl = strstr(name, "double") != NULL;
    void *fn = gl_submission_fn(name);
    for (i = 0; i < nrows; i++) {
        const char *why = sums_once(dbl ? NULL : (sums_f)fn, dbl ? (sums_d)fn : NULL, name,
                                    rows[i]);
        if (*why)
            gl_check_fail("%s with %d rows: %s", name, rows[i], why);
    }
}

static const int small_rows[] = {1, 31, 33, 100};
static const int large_rows[] = {(1 << 20) + 7};

GL_TEST(padded_small)
{
    check_sums("row_sums_padded", small_rows, 4);
}

GL_TEST(padded_large)
{
    check_sums("row_sums_padded", large_rows, 1);
}

GL_TEST(double_small)
{
    check_sums("row_sums_double_padded", small_rows, 4);
}

GL_TEST(double_large)
{
    check_sums("row_sums_double_padded", large_rows, 1);
}

/* The launcher only enqueues its kernel (gl_expect_queued). */
typedef struct {
    sums_f fn;
    float *out;
    const float *in, *ref;
    int rows;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    q->fn(q->out, q->in, q->rows);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    float *h = gl_malloc((size_t)q->rows * 4);
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->out, (size_t)q->rows * 4, cudaMemcpyDeviceToHost));
    right = gl_compare_float(q->ref, h, (size_t)q->rows, 1e-5, 1e-5, &cmp) == 0;
    free(h);
    return right;
}

GL_TEST(padded_async)
{
    const int rows = 100000;
    size_t n = (size_t)rows * BC_TILE, i;
    float *h_in = gl_malloc(n * 4), *ref = gl_malloc((size_t)rows * 4);
    gl_buf staged = gl_buf_alloc(n * 4, 0), in = gl_buf_alloc(n * 4, 0),
           out = gl_buf_alloc((size_t)rows * 4, 0);
    queued q = {(sums_f)gl_submission_fn("row_sums_padded"), out.ptr, in.ptr, ref, rows};
    gl_queue_buffers b = {in.ptr, staged.ptr, n * 4, out.ptr, (size_t)rows * 4};
    gl_rng rng;

    gl_test_rng(&rng);
    gl_fill_float(&rng, h_in, n, -1, 1);
    for (i = 0; i < (size_t)rows; i++) {
        float s = 0.0f;
        int k;
        for (k = 0; k < BC_TILE; k++)
            s += h_in[i * BC_TILE + k];
        ref[i] = s;
    }
    gl_buf_upload(&staged, h_in);
    gl_expect_queued("row_sums_padded", queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(ref);
}

/* ---- task 2: bank_conflict_degree (host code, no GPU) ---- */

/* The reference: the most different words in one bank. */
static int degree(const int *words, int lanes)
{
    int bank, worst = 0, i, j;
    for (bank = 0; bank < BC_BANKS; bank++) {
        int distinct = 0;
        for (i = 0; i < lanes; i++) {
            int seen = 0;
            if (words[i] % BC_BANKS != bank)
                continue;
            for (j = 0; j < i; j++)
                seen |= words[j] == words[i];
            distinct += !seen;
        }
        if (distinct > worst)
            worst = distinct;
    }
    return worst;
}

static void expect_degree(degree_fn fn, const char *what, const int *words, int lanes)
{
    int want = degree(words, lanes), got = fn(words, lanes), i;
    char list[400];
    size_t w = 0;
    if (got == want)
        return;
    for (i = 0; i < lanes && w < sizeof list - 8; i++)
        w += (size_t)snprintf(list + w, sizeof list - w, "%s%d", i ? " " : "", words[i]);
    gl_check_fail("bank_conflict_degree for %s (%d lanes reading words %s) returned %d; the "
                  "access takes %d wavefront%s. %s",
                  what, lanes, list, got, want, want == 1 ? "" : "s",
                  want == 1 && got > 1 ? "Lanes reading the same word share it: a broadcast, "
                                         "not a conflict"
                  : want == 1 ? "With no two different words in a bank, one wavefront serves "
                                "the warp"
                              : "Count, for each bank (word % 32), the different words read "
                                "in it; the busiest bank sets the count");
}

GL_TEST(degree_strides)
{
    degree_fn fn = (degree_fn)gl_submission_fn("bank_conflict_degree");
    static const int strides[] = {1, 2, 3, 4, 8, 16, 17, 32, 33, 64};
    int words[32], s, l;
    char what[64];
    for (s = 0; s < (int)(sizeof strides / sizeof strides[0]); s++) {
        for (l = 0; l < 32; l++)
            words[l] = 5 + l * strides[s];
        snprintf(what, sizeof what, "stride %d", strides[s]);
        expect_degree(fn, what, words, 32);
    }
    if (fn(words, 0) != 0)
        gl_check_fail("bank_conflict_degree with 0 lanes returned %d, not 0", fn(words, 0));
}

GL_TEST(degree_broadcast)
{
    degree_fn fn = (degree_fn)gl_submission_fn("bank_conflict_degree");
    int words[32], l;
    for (l = 0; l < 32; l++)
        words[l] = 7;
    expect_degree(fn, "one word for every lane", words, 32);
    for (l = 0; l < 32; l++)
        words[l] = l / 2;
    expect_degree(fn, "pairs of lanes on one word", words, 32);
    for (l = 0; l < 32; l++)
        words[l] = l % 2 ? 32 : 0;
    expect_degree(fn, "two words of one bank", words, 32);
    for (l = 0; l < 32; l++)
        words[l] = (l % 4) * 32 + (l / 4 == 3) * 1;
    expect_degree(fn, "four words of bank 0, a few of bank 1", words, 32);
}

GL_TEST(degree_random)
{
    degree_fn fn = (degree_fn)gl_submission_fn("bank_conflict_degree");
    int words[32], t, l;
    gl_rng rng;
    gl_test_rng(&rng);
    for (t = 0; t < 300; t++) {
        int lanes = 1 + (int)gl_rng_range(&rng, 0, 31), span = t % 3 ? 256 : 2048;
        for (l = 0; l < lanes; l++)
            words[l] = (int)gl_rng_range(&rng, 0, span - 1);
        expect_degree(fn, "a random pattern", words, lanes);
    }
}

/* ---- technique: the padded tiles in the PTX ---- */

GL_TEST(padded_pitch)
{
    long bytes = gl_kernel_shared_bytes(
        "row_sums_padded_kernel",
        "Task 1 loads the tile into shared memory and sums its rows from there");
    long words = bytes / 4, pitch = words / BC_TILE;
    if (words % BC_TILE != 0)
        gl_check_fail("row_sums_padded_kernel's tile has %ld words, not %d rows of equal length",
                      words, BC_TILE);
    if (pitch % 32 == 0)
        gl_check_fail("row_sums_padded_kernel's tile rows are %ld words long, a multiple of 32: "
                      "tile[l][k] is in bank (l * %ld + k) %% 32 = k %% 32, so the lanes reading "
                      "column k hit one bank 32 times. Pad each row by one word",
                      pitch, pitch);
}

GL_TEST(double_pitch)
{
    long bytes = gl_kernel_shared_bytes(
        "row_sums_double_padded_kernel",
        "Task 3 loads the tile of doubles into shared memory and sums its rows from there");
    long doubles = bytes / 8, pitch = doubles / BC_TILE;
    if (doubles % BC_TILE != 0)
        gl_check_fail("row_sums_double_padded_kernel's tile has %ld doubles, not %d rows of equal "
                      "length",
                      doubles, BC_TILE);
    if (pitch % 2 == 0)
        gl_check_fail("row_sums_double_padded_kernel's tile rows are %ld doubles long, an even "
                      "number: tile[l][k] starts at word 2 (%ld l + k), and the 16 lanes of a "
                      "half-warp reading a column share bank pairs. A row of an odd number of "
                      "doubles (%d + 1) gives them 16 different pairs",
                      pitch, pitch, BC_TILE);
}

/* ---- performance: one run, ratios only ---- */

typedef struct {
    sums_f f;
    sums_d d;
    void *out;
    const void *in;
    int rows;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    if (j->f)
        j->f(j->out, j->in, j->rows);
    else
        j->d(j->out, j->in, j->rows);
}

static void expect_padded_faster(const char *mine, const char *given, int dbl, double min_ratio)
{
    void *fast = gl_submission_fn(mine), *slow = gl_baseline_fn(given);
    const int rows = 1 << 22;
    size_t size = dbl ? 8 : 4;
    gl_buf in, out;
    job j = {0};
    double ts, tf;

    if (*sums_once(dbl ? NULL : (sums_f)fast, dbl ? (sums_d)fast : NULL, mine, 100000))
        gl_check_fail("%s is not right yet, so its speed is not graded (the correctness tests "
                      "say what is wrong)",
                      mine);
    in = gl_buf_alloc((size_t)rows * BC_TILE * size, 0);
    out = gl_buf_alloc((size_t)rows * size, 0);
    GL_CUDA(cudaMemset(in.ptr, 0x3c, in.bytes));
    j.out = out.ptr;
    j.in = in.ptr;
    j.rows = rows;
    if (dbl)
        j.d = (sums_d)slow;
    else
        j.f = (sums_f)slow;
    ts = gl_time_ms(run_job, &j, gl_timing_default());
    if (dbl)
        j.d = (sums_d)fast;
    else
        j.f = (sums_f)fast;
    tf = gl_time_ms(run_job, &j, gl_timing_default());
    if (ts < min_ratio * tf)
        gl_check_fail("on %d rows, %s takes %.3f ms and the given %s %.3f ms: %.2fx, where "
                      "removing the bank conflicts of the column reads should make it at least "
                      "%.1fx faster",
                      rows, mine, tf, given, ts, ts / tf, min_ratio);
    gl_test_note("%s %.3f ms, %s %.3f ms: %.2fx (needs %.1fx)", mine, tf, given, ts, ts / tf,
                 min_ratio);
    gl_buf_free(&in);
    gl_buf_free(&out);
}

GL_TEST(padded_vs_unpadded)
{
    expect_padded_faster("row_sums_padded", "row_sums", 0, MIN_PADDED_OVER_UNPADDED);
}

GL_TEST(double_padded_vs_unpadded)
{
    expect_padded_faster("row_sums_double_padded", "row_sums_double", 1,
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
        gl_check_fail("row_sums_padded_kernel's shared loads take %.2f wavefronts each (%s): "
                      "1 is conflict-free, 32 is one bank for the whole warp",
                      w, detail);
}

GL_TEST(double_wavefronts)
{
    char detail[256];
    double w = wavefronts_per_load("row_sums_double_padded", detail, sizeof detail);
    if (w > MAX_DOUBLE_WAVEFRONTS)
        gl_check_fail("row_sums_double_padded_kernel's shared loads take %.2f wavefronts each "
                      "(%s): a conflict-free 8-byte load takes 2 (one per half-warp)",
                      w, detail);
}

/* Under Nsight Compute: one launcher, once; checked. */
static const char *run_once(int argc, char **argv)
{
    long rows;
    void *fn;
    int dbl;
    if (argc != 2 || gl_parse_long(argv[1], 1, 1 << 24, &rows))
        return "usage: --run LAUNCHER ROWS";
    fn = gl_submission_fn(argv[0]);
    dbl = strstr(argv[0], "double") != NULL;
    return sums_once(dbl ? NULL : (sums_f)fn, dbl ? (sums_d)fn : NULL, argv[0], (int)rows);
}

static void add_tests(void)
{
    GL_ADD(padded_small, GL_CORRECTNESS, 2, 15, "padded row sums, 1 to 100 rows");
    GL_ADD(padded_large, GL_CORRECTNESS, 2, 30, "padded row sums, 2^20 + 7 rows");
    GL_ADD(padded_async, GL_CORRECTNESS, 2, 30, "padded row sums, launcher returns at once");
    GL_ADD(degree_strides, GL_CORRECTNESS | GL_NO_GPU, 2, 10, "conflict degree: strides");
    GL_ADD(degree_broadcast, GL_CORRECTNESS | GL_NO_GPU, 2, 10, "conflict degree: broadcasts");
    GL_ADD(degree_random, GL_CORRECTNESS | GL_NO_GPU, 2, 10, "conflict degree: random patterns");
    GL_ADD(double_small, GL_CORRECTNESS, 2, 15, "padded double row sums, 1 to 100 rows");
    GL_ADD(double_large, GL_CORRECTNESS, 2, 30, "padded double row sums, 2^20 + 7 rows");
    GL_ADD(padded_pitch, GL_TECHNIQUE, 3, 10, "float tile: pitch not a multiple of 32");
    GL_ADD(double_pitch, GL_TECHNIQUE, 3, 10, "double tile: an odd number per row");
    GL_ADD(padded_vs_unpadded, GL_PERFORMANCE, 4, 120, "padded faster than unpadded");
    GL_ADD(double_padded_vs_unpadded, GL_PERFORMANCE, 4, 120, "double: padded faster");
    GL_ADD(padded_wavefronts, GL_PROFILE, 3, 300, "float: 1 wavefront per load");
    GL_ADD(double_wavefronts, GL_PROFILE, 3, 300, "double: 2 wavefronts per load");
}

const gl_lab GL_LAB = {"03-bank-conflicts", "bank_conflicts.cu", add_tests, run_once};
