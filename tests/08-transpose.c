/* 08-transpose.c: the grader's suite for lab 08-transpose.
 *
 *   correctness  tiled and padded on odd, tiny and large sizes; the launchers
 *                return at once (the work is on the GPU)
 *   technique    a __shared__ tile and a barrier in both kernels; the padded
 *                tile's row pitch is not a multiple of 32 words
 *   performance  tiled vs naive, padded vs tiled, padded vs the copy kernel,
 *                measured in one run (the baselines are the lab's own)
 *   profile      shared-memory wavefronts per request (Nsight Compute): 1 for
 *                the padded kernel (no bank conflicts), many for the tiled one */
#include "grader.h"
#include "inspect.h"

#include "gpulabs.h"
#include "transpose.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*transpose_fn)(float *out, const float *in, int rows, int cols);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_TILED_OVER_NAIVE 1.5   /* bandwidth ratio, 8192 x 8192 */
#define MIN_PADDED_OVER_TILED 1.3
#define MIN_PADDED_PCT_OF_COPY 70.0
#define MAX_PADDED_WAVEFRONTS 1.25 /* shared-memory wavefronts per instruction: 1 = no conflict */
#define MIN_TILED_WAVEFRONTS 4.0

static void reference(float *ref, const float *in, int rows, int cols)
{
    int r, c;
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            ref[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(const gl_cmp *cmp)
{
    if (cmp->unwritten == cmp->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (cmp->unwritten)
        return "Some elements were never written: the bounds test or the index arithmetic "
               "skips them (when the size is not a multiple of 32, the last tiles stick out of "
               "the matrix: test each element, not the whole tile)";
    return "Wrong values: for the write, the block indices swap (blockIdx.y picks the tile's "
           "column of out) and out has `rows` columns; a missing __syncthreads() reads tile "
           "elements other warps have not written yet";
}

/* Runs launcher once on rows x cols and checks everything about the result.
 * Returns an empty string if right, else why not (a static buffer). */
static const char *run_and_check(transpose_fn fn, const char *launcher, int rows, int cols,
                                 const float *h_in, const float *h_ref)
{
    static char why[2048];
    size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
    /* a missing bounds test writes up to 31 rows or columns too far */
    size_t guard = (size_t)32 * (size_t)(rows > cols ? rows : cols) * sizeof(float) + 4096;
    gl_buf in = gl_buf_alloc(bytes, guard), out = gl_buf_alloc(bytes, guard);
    float *h_out = gl_malloc(bytes), *h_back = gl_malloc(bytes);
    gl_guard_report g;
    gl_cmp cmp;
    int out_cols = rows;

    why[0] = '\0';
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    fn(out.ptr, in.ptr, rows, cols);
    GL_CHECK_LAUNCH(launcher);
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, bytes, sizeof(float), "out", d, sizeof d);
        snprintf(why, sizeof why, "%s: the bounds test for the last, partial tiles is missing or "
                 "wrong", d);
    } else if (gl_buf_check_guards(&in, &g)) {
        snprintf(why, sizeof why, "wrote outside `in`, which is read-only input");
    } else {
        gl_buf_download(&in, h_back);
        gl_buf_download(&out, h_out);
        if (memcmp(h_back, h_in, bytes) != 0) {
            snprintf(why, sizeof why, "changed `in`: the input is read-only");
        } else if (gl_compare_float(h_ref, h_out, n, 0.0, 0.0, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, "out", gl_index_2d, &out_cols, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d, hint(&cmp));
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_out);
    free(h_back);
    return why;
}

static void check_transpose(const char *launcher, int rows, int cols)
{
    transpose_fn fn = (transpose_fn)gl_submission_fn(launcher);
    size_t n = (size_t)rows * cols;
    float *h_in = gl_malloc(n * sizeof(float)), *h_ref = gl_malloc(n * sizeof(float));
    const char *why;
    gl_rng rng;

    gl_test_rng(&rng);
    gl_fill_float(&rng, h_in, n, -1.0f, 1.0f);
    reference(h_ref, h_in, rows, cols);
    why = run_and_check(fn, launcher, rows, cols, h_in, h_ref);
    if (*why)
        gl_check_fail("%s on a %d x %d matrix: %s", launcher, rows, cols, why);
    free(h_in);
    free(h_ref);
}

#define CORRECTNESS(variant, rows, cols)                                                      \
    GL_TEST(variant##_##rows##x##cols)                                                        \
    {                                                                                         \
        check_transpose("transpose_" #variant, rows, cols);                                   \
    }

CORRECTNESS(tiled, 1, 1)
CORRECTNESS(tiled, 1, 1000)
CORRECTNESS(tiled, 1000, 1)
CORRECTNESS(tiled, 33, 31)
CORRECTNESS(tiled, 1025, 2049)
CORRECTNESS(tiled, 4096, 4096)
CORRECTNESS(padded, 1, 1)
CORRECTNESS(padded, 1, 1000)
CORRECTNESS(padded, 1000, 1)
CORRECTNESS(padded, 33, 31)
CORRECTNESS(padded, 1025, 2049)
CORRECTNESS(padded, 4096, 4096)

/* The launcher only enqueues its kernel (gl_expect_queued). */
typedef struct {
    transpose_fn fn;
    float *out;
    const float *in, *ref;
    int rows, cols;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    q->fn(q->out, q->in, q->rows, q->cols);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    size_t n = (size_t)q->rows * q->cols;
    float *h = gl_malloc(n * sizeof(float));
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->out, n * sizeof(float), cudaMemcpyDeviceToHost));
    right = gl_compare_float(q->ref, h, n, 0.0, 0.0, &cmp) == 0;
    free(h);
    return right;
}

static void check_async(const char *launcher)
{
    const int rows = 1000, cols = 1000;
    size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
    float *h_in = gl_malloc(bytes), *h_ref = gl_malloc(bytes);
    gl_buf staged = gl_buf_alloc(bytes, 0), in = gl_buf_alloc(bytes, 0),
           out = gl_buf_alloc(bytes, 0);
    queued q = {(transpose_fn)gl_submission_fn(launcher), out.ptr, in.ptr, h_ref, rows, cols};
    gl_queue_buffers b = {in.ptr, staged.ptr, bytes, out.ptr, bytes};
    gl_rng rng;

    gl_test_rng(&rng);
    gl_fill_float(&rng, h_in, n, -1.0f, 1.0f);
    reference(h_ref, h_in, rows, cols);
    gl_buf_upload(&staged, h_in);
    gl_expect_queued(launcher, queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_ref);
}

GL_TEST(tiled_async)
{
    check_async("transpose_tiled");
}

GL_TEST(padded_async)
{
    check_async("transpose_padded");
}

/* ---- technique: read from the PTX and ptxas report, no GPU needed ---- */

/* The kernel stages a tile of at least TILE_DIM x TILE_DIM floats in shared
 * memory, writes it and reads it. Returns the tile's size in bytes. */
static long check_shared_tile(const char *kernel, int task)
{
    char lesson[256];
    gl_ptx_entry e;
    char *ptx;
    long bytes;
    snprintf(lesson, sizeof lesson,
             "Task %d stages a TILE_DIM x TILE_DIM tile in shared memory: read it row by row "
             "from in (coalesced), write it row by row of out (coalesced), reading the tile by "
             "columns in between",
             task);
    bytes = gl_kernel_shared_bytes(kernel, lesson);
    if (bytes < (long)(TILE_DIM * TILE_DIM * sizeof(float)))
        gl_check_fail("%s's shared tile has %ld bytes, less than a %d x %d tile of floats (%zu "
                      "bytes)",
                      kernel, bytes, TILE_DIM, TILE_DIM, TILE_DIM * TILE_DIM * sizeof(float));
    ptx = gl_kernel_ptx(kernel, &e);
    if (gl_ptx_count(&e, "st.shared") == 0 || gl_ptx_count(&e, "ld.shared") == 0)
        gl_check_fail("%s declares a shared tile but does not both write it and read it "
                      "(st.shared: %d, ld.shared: %d in the PTX)",
                      kernel, gl_ptx_count(&e, "st.shared"), gl_ptx_count(&e, "ld.shared"));
    free(ptx);
    return bytes;
}

static void check_barrier(const char *kernel)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    if (gl_ptx_barriers(&e) == 0)
        gl_check_fail("%s has no __syncthreads(): between writing the tile and reading it by "
                      "columns, every thread must wait, or it reads elements that other warps "
                      "have not written yet",
                      kernel);
    free(ptx);
}

GL_TEST(tiled_shared_tile)
{
    check_shared_tile("transpose_tiled_kernel", 1);
}

GL_TEST(tiled_barrier)
{
    check_barrier("transpose_tiled_kernel");
}

GL_TEST(padded_shared_tile)
{
    check_shared_tile("transpose_padded_kernel", 2);
}

GL_TEST(padded_barrier)
{
    check_barrier("transpose_padded_kernel");
}

/* The tile has TILE_DIM rows; its row pitch, in 4-byte words, must not be a
 * multiple of 32, or a column of the tile sits in one bank. */
GL_TEST(padded_pitch)
{
    long bytes = check_shared_tile("transpose_padded_kernel", 2);
    long words = bytes / 4, pitch = words / TILE_DIM;
    if (words % TILE_DIM != 0)
        gl_check_fail("transpose_padded_kernel's tile has %ld words, not TILE_DIM = %d rows of "
                      "equal length: declare it as tile[TILE_DIM][TILE_DIM + 1]",
                      words, TILE_DIM);
    if (pitch % 32 == 0)
        gl_check_fail("transpose_padded_kernel's tile rows are %ld words long, a multiple of 32: "
                      "element [i][k] is in bank (i * %ld + k) %% 32 = k %% 32, so the 32 lanes "
                      "reading a column hit one bank 32 times. Pad each row by one word: "
                      "tile[TILE_DIM][TILE_DIM + 1]",
                      pitch, pitch);
}

/* ---- performance: one run, ratios only ---- */

typedef struct {
    transpose_fn fn;
    float *out;
    const float *in;
    int rows, cols;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    j->fn(j->out, j->in, j->rows, j->cols);
}

typedef struct {
    int dim;
    gl_buf in, out;
    float *h_in, *h_ref;
} perf_setup;

static void perf_begin(perf_setup *p)
{
    gl_device_info info;
    size_t n, bytes;
    gl_rng rng;
    gl_device_require(&info);
    /* 8192 x 8192 floats (256 MiB each way) fills any recent GPU's memory system */
    p->dim = info.global_mem_bytes >= ((size_t)3 << 30) ? 8192 : 4096;
    n = (size_t)p->dim * p->dim;
    bytes = n * sizeof(float);
    p->h_in = gl_malloc(bytes);
    p->h_ref = gl_malloc(bytes);
    gl_test_rng(&rng);
    gl_fill_float(&rng, p->h_in, n, -1.0f, 1.0f);
    reference(p->h_ref, p->h_in, p->dim, p->dim);
    p->in = gl_buf_alloc(bytes, 0);
    p->out = gl_buf_alloc(bytes, 0);
    gl_buf_upload(&p->in, p->h_in);
}

/* Effective bandwidth of a submission's launcher, after checking that it is
 * right at this size: a wrong kernel's speed means nothing. */
static double student_gbps(perf_setup *p, const char *launcher)
{
    transpose_fn fn = (transpose_fn)gl_submission_fn(launcher);
    const char *why = run_and_check(fn, launcher, p->dim, p->dim, p->h_in, p->h_ref);
    size_t n = (size_t)p->dim * p->dim;
    job j = {fn, p->out.ptr, p->in.ptr, p->dim, p->dim};
    float *h_out;
    double ms;
    gl_cmp cmp;

    if (*why)
        gl_check_fail("%s is not right at %d x %d yet, so its speed is not graded (the "
                      "correctness tests say what is wrong)",
                      launcher, p->dim, p->dim);
    /* the timed runs must do the work too, not only the first one */
    gl_buf_poison(&p->out);
    ms = gl_time_ms(run_job, &j, gl_timing_default());
    h_out = gl_malloc(n * sizeof(float));
    gl_buf_download(&p->out, h_out);
    if (gl_compare_float(p->h_ref, h_out, n, 0.0, 0.0, &cmp))
        gl_check_fail("%s was right once, but after the timed runs out is wrong at %zu elements "
                      "(%zu never written): every call must do the whole transpose",
                      launcher, cmp.wrong, cmp.unwritten);
    free(h_out);
    return gl_gbps(2.0 * (double)n * sizeof(float), ms);
}

static double baseline_gbps(perf_setup *p, const char *launcher)
{
    job j = {(transpose_fn)gl_baseline_fn(launcher), p->out.ptr, p->in.ptr, p->dim, p->dim};
    return gl_gbps(2.0 * p->dim * (double)p->dim * sizeof(float),
                   gl_time_ms(run_job, &j, gl_timing_default()));
}

static void perf_end(perf_setup *p)
{
    gl_buf_free(&p->in);
    gl_buf_free(&p->out);
    free(p->h_in);
    free(p->h_ref);
}

GL_TEST(tiled_vs_naive)
{
    perf_setup p;
    double naive, tiled;
    perf_begin(&p);
    naive = baseline_gbps(&p, "transpose_naive");
    tiled = student_gbps(&p, "transpose_tiled");
    if (tiled < MIN_TILED_OVER_NAIVE * naive)
        gl_check_fail("at %d x %d, transpose_tiled moves %.0f GB/s, %.2fx the naive transpose "
                      "(%.0f GB/s); it should be at least %.1fx. Are both the read from in and "
                      "the write to out coalesced (consecutive threadIdx.x on consecutive "
                      "addresses)?",
                      p.dim, p.dim, tiled, tiled / naive, naive, MIN_TILED_OVER_NAIVE);
    gl_test_note("tiled %.0f GB/s = %.2fx naive %.0f GB/s (needs %.1fx)", tiled, tiled / naive,
                 naive, MIN_TILED_OVER_NAIVE);
    perf_end(&p);
}

GL_TEST(padded_vs_tiled)
{
    perf_setup p;
    double tiled, padded;
    perf_begin(&p);
    tiled = student_gbps(&p, "transpose_tiled");
    padded = student_gbps(&p, "transpose_padded");
    if (padded < MIN_PADDED_OVER_TILED * tiled)
        gl_check_fail("at %d x %d, transpose_padded moves %.0f GB/s, %.2fx transpose_tiled "
                      "(%.0f GB/s); it should be at least %.1fx: padding removes the 32-way bank "
                      "conflicts of the column reads. Is the padding on the rows "
                      "(tile[TILE_DIM][TILE_DIM + 1]), and is the tiled tile unpadded?",
                      p.dim, p.dim, padded, padded / tiled, tiled, MIN_PADDED_OVER_TILED);
    gl_test_note("padded %.0f GB/s = %.2fx tiled %.0f GB/s (needs %.1fx)", padded,
                 padded / tiled, tiled, MIN_PADDED_OVER_TILED);
    perf_end(&p);
}

GL_TEST(padded_vs_copy)
{
    perf_setup p;
    double copy, padded;
    perf_begin(&p);
    copy = baseline_gbps(&p, "transpose_copy");
    padded = student_gbps(&p, "transpose_padded");
    if (gl_percent(padded, copy) < MIN_PADDED_PCT_OF_COPY)
        gl_check_fail("at %d x %d, transpose_padded moves %.0f GB/s, %.0f%% of the copy kernel "
                      "(%.0f GB/s); it should reach %.0f%%. A transpose moves the same bytes as "
                      "a copy: with both accesses coalesced and no bank conflicts it runs "
                      "close to it",
                      p.dim, p.dim, padded, gl_percent(padded, copy), copy,
                      MIN_PADDED_PCT_OF_COPY);
    gl_test_note("padded %.0f GB/s = %.1f%% of the copy kernel %.0f GB/s (needs %.0f%%)", padded,
                 gl_percent(padded, copy), copy, MIN_PADDED_PCT_OF_COPY);
    perf_end(&p);
}

/* ---- profile: Nsight Compute counters ---- */

static const char *const shared_metrics[] = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};

/* Shared-memory wavefronts per shared-memory instruction of launcher's
 * kernels: 1 when no access has bank conflicts, up to 32. */
static double wavefronts_per_request(const char *launcher, char *detail, size_t len)
{
    const char *args[] = {launcher, "2048", "2048", NULL};
    double v[6];
    gl_profile(shared_metrics, 6, v, args);
    if (v[2] + v[3] <= 0)
        gl_check_fail("%s's kernels executed no shared-memory instruction (Nsight Compute): the "
                      "tile in shared memory is the lesson", launcher);
    snprintf(detail, len,
             "loads: %.0f instructions, %.0f wavefronts; stores: %.0f instructions, %.0f "
             "wavefronts; bank conflicts: %.0f on loads, %.0f on stores",
             v[2], v[0], v[3], v[1], v[4], v[5]);
    return (v[0] + v[1]) / (v[2] + v[3]);
}

GL_TEST(padded_conflict_free)
{
    char detail[512];
    double w = wavefronts_per_request("transpose_padded", detail, sizeof detail);
    if (w > MAX_PADDED_WAVEFRONTS)
        gl_check_fail("transpose_padded_kernel's shared-memory accesses take %.2f wavefronts "
                      "each (1 = conflict-free, 32 = one bank for the whole warp): they still "
                      "have bank conflicts (%s). The tile's rows must be 33 words long",
                      w, detail);
    gl_test_note("%.2f wavefronts per shared access (at most %.2f); %s", w, MAX_PADDED_WAVEFRONTS,
                 detail);
}

GL_TEST(tiled_conflicts)
{
    char detail[512];
    double w = wavefronts_per_request("transpose_tiled", detail, sizeof detail);
    if (w < MIN_TILED_WAVEFRONTS)
        gl_check_fail("transpose_tiled_kernel's shared-memory accesses take only %.2f "
                      "wavefronts each (%s): task 1's tile is the unpadded 32 x 32 one, whose "
                      "column reads conflict; that is what task 2 measures against",
                      w, detail);
    gl_test_note("%.2f wavefronts per shared access (at least %.1f); %s", w, MIN_TILED_WAVEFRONTS,
                 detail);
}

/* Under Nsight Compute: one launcher, once, on rows x cols; checked. */
static const char *run_once(int argc, char **argv)
{
    long rows, cols;
    transpose_fn fn;
    size_t n;
    float *h_in, *h_ref;
    const char *why;
    gl_rng rng;

    if (argc != 3 || gl_parse_long(argv[1], 1, 65536, &rows) ||
        gl_parse_long(argv[2], 1, 65536, &cols))
        return "usage: --run LAUNCHER ROWS COLS";
    fn = (transpose_fn)gl_submission_fn(argv[0]);
    n = (size_t)rows * (size_t)cols;
    h_in = gl_malloc(n * sizeof(float));
    h_ref = gl_malloc(n * sizeof(float));
    gl_rng_init(&rng, gl_seed(), "run_once");
    gl_fill_float(&rng, h_in, n, -1.0f, 1.0f);
    reference(h_ref, h_in, (int)rows, (int)cols);
    why = run_and_check(fn, argv[0], (int)rows, (int)cols, h_in, h_ref);
    free(h_in);
    free(h_ref);
    return why;
}

static void add_tests(void)
{
    GL_ADD(tiled_1x1, GL_CORRECTNESS, 1, 15, "tiled, 1 x 1");
    GL_ADD(tiled_1x1000, GL_CORRECTNESS, 1, 15, "tiled, 1 x 1000");
    GL_ADD(tiled_1000x1, GL_CORRECTNESS, 1, 15, "tiled, 1000 x 1");
    GL_ADD(tiled_33x31, GL_CORRECTNESS, 2, 15, "tiled, 33 x 31");
    GL_ADD(tiled_1025x2049, GL_CORRECTNESS, 2, 15, "tiled, 1025 x 2049");
    GL_ADD(tiled_4096x4096, GL_CORRECTNESS, 2, 60, "tiled, 4096 x 4096");
    GL_ADD(tiled_async, GL_CORRECTNESS, 2, 30, "tiled, launcher returns at once");
    GL_ADD(padded_1x1, GL_CORRECTNESS, 1, 15, "padded, 1 x 1");
    GL_ADD(padded_1x1000, GL_CORRECTNESS, 1, 15, "padded, 1 x 1000");
    GL_ADD(padded_1000x1, GL_CORRECTNESS, 1, 15, "padded, 1000 x 1");
    GL_ADD(padded_33x31, GL_CORRECTNESS, 2, 15, "padded, 33 x 31");
    GL_ADD(padded_1025x2049, GL_CORRECTNESS, 2, 15, "padded, 1025 x 2049");
    GL_ADD(padded_4096x4096, GL_CORRECTNESS, 2, 60, "padded, 4096 x 4096");
    GL_ADD(padded_async, GL_CORRECTNESS, 2, 30, "padded, launcher returns at once");
    GL_ADD(tiled_shared_tile, GL_TECHNIQUE, 3, 10, "tiled: a shared tile");
    GL_ADD(tiled_barrier, GL_TECHNIQUE, 2, 10, "tiled: __syncthreads()");
    GL_ADD(padded_shared_tile, GL_TECHNIQUE, 2, 10, "padded: a shared tile");
    GL_ADD(padded_barrier, GL_TECHNIQUE, 1, 10, "padded: __syncthreads()");
    GL_ADD(padded_pitch, GL_TECHNIQUE, 4, 10, "padded: row pitch not a multiple of 32");
    GL_ADD(tiled_vs_naive, GL_PERFORMANCE, 5, 120, "tiled faster than naive");
    GL_ADD(padded_vs_tiled, GL_PERFORMANCE, 5, 120, "padded faster than tiled");
    GL_ADD(padded_vs_copy, GL_PERFORMANCE, 5, 120, "padded near the copy");
    GL_ADD(padded_conflict_free, GL_PROFILE, 4, 300,
           "padded: no bank conflicts");
    GL_ADD(tiled_conflicts, GL_PROFILE, 2, 300, "tiled: bank conflicts");
}

const gl_lab GL_LAB = {"08-transpose", "transpose.cu", add_tests, run_once};
