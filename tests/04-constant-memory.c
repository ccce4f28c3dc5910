/* 04-constant-memory.c: the grader's suite for lab 04-constant-memory.
 *
 *   correctness  the constant-tap convolution for n = 0, 1, 31, 33, 1000 and
 *                2^20 + 3, after two set_taps in a row (the second counts);
 *                the lookup from global memory on uniform and random indices;
 *                the long convolution with 1 to 20000 taps (80 KB: past the
 *                64 KB of constant memory); the launcher returns at once
 *   technique    convolve_constant_kernel reads c_taps (ld.const) and the file
 *                calls cudaMemcpyToSymbol; the lookup and the long convolution
 *                load through the read-only path (ld.global.nc), no ld.const
 *   performance  constant vs global taps (64, at compile time); global vs
 *                constant table on random indices; global vs constant taps at
 *                1024 run-time taps, measured in one run
 *   profile      global load instructions of the constant convolution (Nsight
 *                Compute): the taps no longer come from global memory */
#include "grader.h"
#include "inspect.h"

#include "constant_memory.h"
#include "gpulabs.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void (*set_fn)(const float *host);
typedef void (*set_runtime_fn)(const float *host, int ntaps);
typedef void (*conv_constant_fn)(float *out, const float *in, int n);
typedef void (*conv_global_fn)(float *out, const float *in, const float *taps, int n);
typedef void (*conv_runtime_fn)(float *out, const float *in, int ntaps, int n);
typedef void (*conv_long_fn)(float *out, const float *in, const float *taps, int ntaps, int n);
typedef void (*lookup_constant_fn)(float *out, const int *idx, int n);
typedef void (*lookup_global_fn)(float *out, const int *idx, const float *table, int n);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_CONSTANT_OVER_GLOBAL 1.3         /* time ratios: 64 taps, 2^24 outputs */
#define MIN_GLOBAL_OVER_CONSTANT_RANDOM 20.0 /* the lookup on random indices, 2^24 outputs */
#define MIN_LONG_OVER_RUNTIME 1.8            /* 1024 run-time taps, 2^22 outputs */
#define PERF_LONG_TAPS 1024
#define MAX_LOADS_PER_WARP (1.1 * CM_TAPS)   /* global loads per warp; global taps: 2 * CM_TAPS */

/* An output is right when it is within REL_TOL of the sum of the magnitudes
 * of its terms: FP32 rounding in any order of summation stays far below it
 * (a few 2^-24 of that sum on random data), one tap missing or too many is
 * far above it. */
#define REL_TOL 1e-5

#define BIG ((1 << 20) + 3)

/* ---- checking a convolution or a lookup against the CPU ---- */

static int is_poison(float x)
{
    unsigned char b[sizeof x];
    size_t i;
    memcpy(b, &x, sizeof x);
    for (i = 0; i < sizeof x; i++)
        if (b[i] != GL_POISON_BYTE)
            return 0;
    return 1;
}

static void check_one(gl_cmp *c, size_t i, double ref, double magnitude, float got)
{
    double err = fabs((double)got - ref);
    int unwritten = is_poison(got);
    c->n++;
    if (unwritten || isnan(got) || !(err <= REL_TOL * magnitude + 1e-30)) {
        c->wrong++;
        c->unwritten += unwritten;
        if (c->shown < GL_CMP_SHOW) {
            gl_diff *d = &c->diff[c->shown++];
            d->index = i;
            d->expected = ref;
            d->actual = got;
            d->unwritten = unwritten;
        }
    } else if (err > c->max_abs_err) {
        c->max_abs_err = err;
    }
}

/* sum over k < ntaps of taps[k] * in[i + k], in double, and the sum of the
 * magnitudes of its terms */
static double conv_at(const float *in, const float *taps, int ntaps, size_t i, double *magnitude)
{
    double sum = 0.0, mag = 0.0;
    int k;
    for (k = 0; k < ntaps; k++) {
        double t = (double)taps[k] * in[i + k];
        sum += t;
        mag += fabs(t);
    }
    *magnitude = mag;
    return sum;
}

/* Checks out[i] for i = 0, stride, 2 stride, ... and n - 1 (every output for
 * stride 1). Returns the number wrong. */
static size_t check_conv(const float *out, const float *in, const float *taps, int ntaps, int n,
                         size_t stride, gl_cmp *c)
{
    size_t i;
    double mag, ref;
    memset(c, 0, sizeof *c);
    for (i = 0; i < (size_t)n; i += stride) {
        ref = conv_at(in, taps, ntaps, i, &mag);
        check_one(c, i, ref, mag, out[i]);
    }
    if (n > 0 && (size_t)(n - 1) % stride != 0) {
        ref = conv_at(in, taps, ntaps, (size_t)n - 1, &mag);
        check_one(c, (size_t)n - 1, ref, mag, out[n - 1]);
    }
    return c->wrong;
}

/* A sample that keeps the CPU's work near 2^25 multiply-adds. */
static size_t sample_stride(int n, int ntaps)
{
    size_t work = (size_t)n * (size_t)ntaps;
    return work > ((size_t)1 << 25) ? work >> 25 : 1;
}

/* What usually causes a wrong convolution, in the lab's terms: the first
 * wrong output is compared with the sums of the first m taps, the sum
 * without tap 0 and the sum over the input one place further; the closest
 * of them, if it is as close as a right output would be, names the mistake. */
static const char *conv_hint(const gl_cmp *c, const float *in, const float *taps, int ntaps,
                             int task)
{
    static char hint[512];
    const gl_diff *d = NULL;
    double mag, full, partial = 0.0, shifted = 0.0, best, diff;
    size_t i;
    int k, m, best_m = -1;

    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    for (k = 0; k < c->shown; k++)
        if (!c->diff[k].unwritten) {
            d = &c->diff[k];
            break;
        }
    if (!d)
        return "Some outputs were never written: does every thread i < n write out[i]?";
    i = d->index;
    full = conv_at(in, taps, ntaps, i, &mag);
    for (k = 0; k < ntaps; k++)
        shifted += (double)taps[k] * in[i + k + 1];
    best = fabs(d->actual - (full - (double)taps[0] * in[i])); /* m = -1: without tap 0 */
    for (m = 0; m < ntaps; m++) {
        if ((diff = fabs(d->actual - partial)) < best) {
            best = diff;
            best_m = m;
        }
        partial += (double)taps[m] * in[i + m];
    }
    if (fabs(d->actual - shifted) < best && fabs(d->actual - shifted) <= REL_TOL * mag)
        snprintf(hint, sizeof hint, "out[%zu] is the sum over in[%zu + 1 + k]: the input is "
                 "read one place too far", i, i);
    else if (best > REL_TOL * mag + 1e-30)
        snprintf(hint, sizeof hint, "Wrong values: out[i] is the sum of taps[k] * in[i + k] for "
                 "k = 0 .. %d%s", ntaps - 1, task == 1 ? ", the taps from c_taps" : "");
    else if (best_m < 0)
        snprintf(hint, sizeof hint, "out[%zu] leaves out the term of tap 0: does k start at 0?",
                 i);
    else
        snprintf(hint, sizeof hint, "out[%zu] is the sum of only the first %d of the %d taps: %s",
                 i, best_m, ntaps,
                 task == 1 ? "did set_taps copy all CM_TAPS * sizeof(float) bytes? "
                             "(sizeof(taps) is the size of a pointer, 2 floats)"
                           : "does the loop run to ntaps, whatever its value?");
    return hint;
}

/* ---- running a convolution ---- */

typedef enum { CONSTANT, GLOBAL, RUNTIME, LONG } conv_kind;

typedef struct {
    conv_kind kind;
    void *fn;
    float *out;
    const float *in, *taps; /* device pointers */
    int ntaps, n;
} conv_job;

static void conv_launch(void *arg)
{
    conv_job *j = arg;
    switch (j->kind) {
    case CONSTANT:
        ((conv_constant_fn)j->fn)(j->out, j->in, j->n);
        break;
    case GLOBAL:
        ((conv_global_fn)j->fn)(j->out, j->in, j->taps, j->n);
        break;
    case RUNTIME:
        ((conv_runtime_fn)j->fn)(j->out, j->in, j->ntaps, j->n);
        break;
    case LONG:
        ((conv_long_fn)j->fn)(j->out, j->in, j->taps, j->ntaps, j->n);
        break;
    }
}

static const char *const conv_names[] = {"convolve_constant", "convolve_global",
                                         "convolve_constant_runtime", "convolve_long"};

/* The launcher of a kind, and its constant taps set from h_taps (after
 * h_first, when given: the second set_taps must count). */
static void *conv_prepare(conv_kind kind, const float *h_first, const float *h_taps, int ntaps)
{
    switch (kind) {
    case CONSTANT: {
        set_fn set = (set_fn)gl_submission_fn("set_taps");
        if (h_first)
            set(h_first);
        set(h_taps);
        GL_CHECK_LAUNCH("set_taps");
        return gl_submission_fn("convolve_constant");
    }
    case GLOBAL:
        return gl_baseline_fn("convolve_global");
    case RUNTIME:
        ((set_runtime_fn)gl_baseline_fn("set_taps_runtime"))(h_taps, ntaps);
        GL_CHECK_LAUNCH("set_taps_runtime");
        return gl_baseline_fn("convolve_constant_runtime");
    case LONG:
        break;
    }
    return gl_submission_fn("convolve_long");
}

/* Runs a convolution once on n outputs and checks every one, and that nothing
 * outside out[0, n) moved. Returns "" or why not (a static buffer). */
static const char *run_and_check(conv_kind kind, int n, int ntaps, const float *h_in,
                                 const float *h_first, const float *h_taps)
{
    static char why[2048];
    size_t in_len = (size_t)n + ntaps - 1;
    gl_buf in = gl_buf_alloc(in_len * sizeof(float), 0),
           taps = gl_buf_alloc((size_t)ntaps * sizeof(float), 0),
           out = gl_buf_alloc((size_t)n * sizeof(float), 0);
    float *h_out = gl_malloc((size_t)n * sizeof(float));
    conv_job j = {kind, NULL, out.ptr, in.ptr, taps.ptr, ntaps, n};
    gl_guard_report g;
    gl_cmp cmp;

    why[0] = '\0';
    gl_buf_upload(&in, h_in);
    gl_buf_upload(&taps, h_taps);
    j.fn = conv_prepare(kind, h_first, h_taps, ntaps);
    gl_buf_poison(&out);
    conv_launch(&j);
    GL_CHECK_LAUNCH(conv_names[kind]);
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, out.bytes, sizeof(float), "out", d, sizeof d);
        snprintf(why, sizeof why, "%s: test i < n in the kernel (the last block has threads "
                 "past n)", d);
    } else {
        gl_buf_download(&out, h_out);
        if (check_conv(h_out, h_in, h_taps, ntaps, n, 1, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, "out", NULL, NULL, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d,
                     conv_hint(&cmp, h_in, h_taps, ntaps, kind == LONG ? 3 : 1));
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&taps);
    gl_buf_free(&out);
    free(h_out);
    return why;
}

/* Random input and taps for n outputs of an ntaps filter; checks launcher. */
static void check_conv_sizes(conv_kind kind, const int *sizes, int nsizes, int ntaps)
{
    int s;
    gl_rng rng;
    gl_test_rng(&rng);
    for (s = 0; s < nsizes; s++) {
        int n = sizes[s];
        size_t in_len = (size_t)n + ntaps - 1;
        float *h_in = gl_malloc(in_len * sizeof(float)),
              *h_first = gl_malloc((size_t)ntaps * sizeof(float)),
              *h_taps = gl_malloc((size_t)ntaps * sizeof(float));
        const char *why;
        gl_fill_float(&rng, h_in, in_len, -1.0f, 1.0f);
        gl_fill_float(&rng, h_first, (size_t)ntaps, -1.0f, 1.0f);
        gl_fill_float(&rng, h_taps, (size_t)ntaps, -1.0f, 1.0f);
        why = run_and_check(kind, n, ntaps, h_in, kind == CONSTANT ? h_first : NULL, h_taps);
        if (*why)
            gl_check_fail("%s with n = %d%s: %s", conv_names[kind], n,
                          kind == CONSTANT ? ", after set_taps twice (the second set counts)"
                                           : "",
                          why);
        free(h_in);
        free(h_first);
        free(h_taps);
    }
}

GL_TEST(constant_small_n)
{
    static const int sizes[] = {0, 1, 31, 33, 1000};
    check_conv_sizes(CONSTANT, sizes, 5, CM_TAPS);
}

GL_TEST(constant_large_n)
{
    static const int sizes[] = {BIG};
    check_conv_sizes(CONSTANT, sizes, 1, CM_TAPS);
}

GL_TEST(long_taps)
{
    static const int sizes[] = {1, 257, 1000}, big[] = {BIG};
    static const int taps[] = {1, 64, 1000};
    int t;
    for (t = 0; t < 3; t++)
        check_conv_sizes(LONG, sizes, 3, taps[t]);
    check_conv_sizes(LONG, big, 1, 33);
}

GL_TEST(long_past_64kb)
{
    static const int sizes[] = {1, 257, 1000};
    check_conv_sizes(LONG, sizes, 3, 20000); /* 80 KB of taps */
}

/* ---- the lookup ---- */

/* Uniform: every lane of a warp has the same index; random: each its own. */
static void fill_indices(gl_rng *rng, int *idx, int n, int uniform)
{
    int i, v = 0;
    for (i = 0; i < n; i++) {
        if (!uniform || i % 32 == 0)
            v = (int)gl_rng_range(rng, 0, CM_TABLE - 1);
        idx[i] = v;
    }
}

static size_t check_lookup(const float *out, const int *idx, const float *table, int n,
                           gl_cmp *c)
{
    int i, k;
    memset(c, 0, sizeof *c);
    for (i = 0; i < n; i++) {
        double sum = 0.0, mag = 0.0;
        for (k = 0; k < CM_LOOKUPS; k++) {
            double t = table[(idx[i] + k) % CM_TABLE];
            sum += t;
            mag += fabs(t);
        }
        check_one(c, (size_t)i, sum, mag, out[i]);
    }
    return c->wrong;
}

static const char *lookup_hint(const gl_cmp *c)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (c->unwritten)
        return "Some outputs were never written: does every thread i < n write out[i]?";
    return "Wrong values: out[i] is the sum of table[(idx[i] + k) % CM_TABLE] for k = 0 .. "
           "CM_LOOKUPS - 1 (the index wraps around the end of the table)";
}

typedef struct {
    void *fn;
    int global; /* lookup_global (the table pointer), or lookup_constant */
    float *out;
    const int *idx;
    const float *table;
    int n;
} lookup_job;

static void lookup_launch(void *arg)
{
    lookup_job *j = arg;
    if (j->global)
        ((lookup_global_fn)j->fn)(j->out, j->idx, j->table, j->n);
    else
        ((lookup_constant_fn)j->fn)(j->out, j->idx, j->n);
}

/* lookup_global once on n outputs: "" or why not (a static buffer). */
static const char *lookup_once(int n, const int *h_idx, const float *h_table)
{
    static char why[2048];
    gl_buf idx = gl_buf_alloc((size_t)n * sizeof(int), 0),
           table = gl_buf_alloc(CM_TABLE * sizeof(float), 0),
           out = gl_buf_alloc((size_t)n * sizeof(float), 0);
    float *h_out = gl_malloc((size_t)n * sizeof(float));
    lookup_job j = {gl_submission_fn("lookup_global"), 1, out.ptr, idx.ptr, table.ptr, n};
    gl_guard_report g;
    gl_cmp cmp;

    why[0] = '\0';
    gl_buf_upload(&idx, h_idx);
    gl_buf_upload(&table, h_table);
    gl_buf_poison(&out);
    lookup_launch(&j);
    GL_CHECK_LAUNCH("lookup_global");
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, out.bytes, sizeof(float), "out", d, sizeof d);
        snprintf(why, sizeof why, "%s: test i < n in the kernel (the last block has threads "
                 "past n)", d);
    } else {
        gl_buf_download(&out, h_out);
        if (check_lookup(h_out, h_idx, h_table, n, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, "out", NULL, NULL, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d, lookup_hint(&cmp));
        }
    }
    gl_buf_free(&idx);
    gl_buf_free(&table);
    gl_buf_free(&out);
    free(h_out);
    return why;
}

static void check_lookup_sizes(const int *sizes, int nsizes)
{
    float table[CM_TABLE];
    int s, uniform;
    gl_rng rng;
    gl_test_rng(&rng);
    gl_fill_float(&rng, table, CM_TABLE, -1.0f, 1.0f);
    for (s = 0; s < nsizes; s++)
        for (uniform = 1; uniform >= 0; uniform--) {
            int n = sizes[s];
            int *h_idx = gl_malloc((size_t)n * sizeof(int));
            const char *why;
            fill_indices(&rng, h_idx, n, uniform);
            why = lookup_once(n, h_idx, table);
            if (*why)
                gl_check_fail("lookup_global with n = %d, %s indices: %s", n,
                              uniform ? "uniform (one per warp)" : "random", why);
            free(h_idx);
        }
}

GL_TEST(lookup_small_n)
{
    static const int sizes[] = {0, 1, 33};
    check_lookup_sizes(sizes, 3);
}

GL_TEST(lookup_large_n)
{
    static const int sizes[] = {BIG};
    check_lookup_sizes(sizes, 1);
}

/* ---- the launcher only enqueues its kernel (gl_expect_queued) ---- */

typedef struct {
    conv_job j;
    const float *h_in, *h_taps;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    conv_launch(&q->j);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    float *h = gl_malloc((size_t)q->j.n * sizeof(float));
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->j.out, (size_t)q->j.n * sizeof(float), cudaMemcpyDeviceToHost));
    right = check_conv(h, q->h_in, q->h_taps, CM_TAPS, q->j.n, 1, &cmp) == 0;
    free(h);
    return right;
}

GL_TEST(constant_async)
{
    const int n = BIG;
    size_t in_bytes = ((size_t)n + CM_TAPS - 1) * sizeof(float);
    float *h_in = gl_malloc(in_bytes), h_taps[CM_TAPS];
    gl_buf staged = gl_buf_alloc(in_bytes, 0), in = gl_buf_alloc(in_bytes, 0),
           out = gl_buf_alloc((size_t)n * sizeof(float), 0);
    queued q = {{CONSTANT, NULL, out.ptr, in.ptr, NULL, CM_TAPS, n}, h_in, h_taps};
    gl_queue_buffers b = {in.ptr, staged.ptr, in_bytes, out.ptr, (size_t)n * sizeof(float)};
    gl_rng rng;

    gl_test_rng(&rng);
    gl_fill_float(&rng, h_in, in_bytes / sizeof(float), -1.0f, 1.0f);
    gl_fill_float(&rng, h_taps, CM_TAPS, -1.0f, 1.0f);
    gl_buf_upload(&staged, h_in);
    q.j.fn = conv_prepare(CONSTANT, NULL, h_taps, CM_TAPS);
    gl_expect_queued("convolve_constant", queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
}

/* ---- technique: read from the PTX and the library, no GPU needed ---- */

static int ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '$';
}

/* Does the entry's body name the symbol (a whole identifier)? */
static int entry_names(const gl_ptx_entry *e, const char *symbol)
{
    size_t k = strlen(symbol), i;
    for (i = 0; i + k <= e->body_len; i++)
        if (!strncmp(e->body + i, symbol, k) && (i == 0 || !ident_char(e->body[i - 1])) &&
            (i + k == e->body_len || !ident_char(e->body[i + k])))
            return 1;
    return 0;
}

/* The size in bytes of a module-scope .const array in the PTX, or -1. */
static long const_array_bytes(const char *ptx, const char *symbol)
{
    const char *line = ptx;
    size_t k = strlen(symbol);
    while (line && *line) {
        const char *end = strchr(line, '\n'), *s;
        size_t len = end ? (size_t)(end - line) : strlen(line);
        for (s = line; s + k < line + len; s++)
            if (!strncmp(s, symbol, k) && s[k] == '[' && s > line && s[-1] == ' ') {
                const char *c = strstr(line, ".const");
                if (c && c < s) {
                    long count = strtol(s + k + 1, NULL, 10);
                    const char *b8 = strstr(line, ".b8 ");
                    return b8 && b8 < s ? count : 4 * count; /* .b8 [bytes] or .f32 [floats] */
                }
            }
        line = end ? end + 1 : NULL;
    }
    return -1;
}

/* The baselines' PTX entry of kernel (the grader's own copy). */
static char *baseline_entry(const char *kernel, gl_ptx_entry *e)
{
    char *ptx = gl_read_file(gl_baseline_ptx());
    if (!ptx || gl_ptx_entry_find(ptx, kernel, e) != 0)
        gl_check_fail("grader: the baselines' PTX (%s) is missing %s: rebuild the kit with make",
                      gl_baseline_ptx(), kernel);
    return ptx;
}

GL_TEST(constant_reads_c_taps)
{
    gl_ptx_entry e;
    char *ptx = baseline_entry("convolve_global_kernel", &e);
    long bytes;
    int ld_const;

    /* the test tells the two apart: the given kernel has none */
    if (gl_ptx_count(&e, "ld.const"))
        gl_check_fail("grader: the given convolve_global_kernel has ld.const in its PTX: this "
                      "compiler puts global data in constant memory by itself, and the test "
                      "cannot tell");
    free(ptx);
    ptx = gl_kernel_ptx("convolve_constant_kernel", &e);
    bytes = const_array_bytes(ptx, "c_taps");
    if (bytes < 0)
        gl_check_fail("the PTX of constant_memory.cu has no __constant__ array c_taps (.const "
                      "... c_taps[%d]): keep `__constant__ float c_taps[CM_TAPS];` of the "
                      "starting file, and read the taps from it",
                      (int)(CM_TAPS * sizeof(float)));
    if (bytes != (long)(CM_TAPS * sizeof(float)))
        gl_check_fail("c_taps has %ld bytes in the PTX, where CM_TAPS floats take %d: declare it "
                      "`__constant__ float c_taps[CM_TAPS];`",
                      bytes, (int)(CM_TAPS * sizeof(float)));
    ld_const = gl_ptx_count(&e, "ld.const");
    if (ld_const == 0 || !entry_names(&e, "c_taps"))
        gl_check_fail("convolve_constant_kernel reads no taps from constant memory (%d ld.const "
                      "in its PTX, %s): task 1 reads c_taps[k] in the kernel, where every lane "
                      "of a warp reads the same tap at the same time (a broadcast)",
                      ld_const,
                      entry_names(&e, "c_taps") ? "c_taps named" : "c_taps never named");
    gl_test_note("%d ld.const from c_taps (%ld bytes) in convolve_constant_kernel", ld_const,
                 bytes);
    free(ptx);
}

/* Does the student's library import symbol (an undefined dynamic symbol,
 * resolved in the CUDA runtime)? Asks nm; skips the test where it cannot. */
static int library_imports(const char *const *symbols, int nsymbols, char *found, size_t len)
{
    const char *so = gl_artifact("so");
    char cmd[4300], line[1024];
    int imports_cuda = 0, hit = 0, s, status;
    FILE *p;

    if (access(so, R_OK) != 0)
        gl_check_fail("%s did not compile, so there is no library to read (%s)", GL_LAB.file,
                      so);
    if (strchr(so, '\''))
        gl_skip("cannot pass %s to nm (a quote in the path)", so);
    snprintf(cmd, sizeof cmd, "nm -D --undefined-only '%s' 2>/dev/null", so);
    fflush(NULL);
    if (!(p = popen(cmd, "r")))
        gl_skip("could not run nm (binutils) to read what %s calls", so);
    while (fgets(line, sizeof line, p)) {
        /* "                 U cudaMemcpyToSymbol@libcudart.so.13" */
        char *name = strrchr(line, ' ');
        if (!name)
            continue;
        name++;
        name[strcspn(name, "@\n")] = '\0';
        imports_cuda |= !strncmp(name, "__cuda", 6); /* __cudaRegisterFatBinary: every CUDA file */
        for (s = 0; s < nsymbols; s++)
            if (!strcmp(name, symbols[s]) && !hit) {
                snprintf(found, len, "%s", name);
                hit = 1;
            }
    }
    status = pclose(p);
    if (status != 0 && !imports_cuda)
        gl_skip("nm (binutils) is not installed here, or could not read %s", so);
    if (!imports_cuda)
        gl_skip("%s does not import the CUDA runtime dynamically (built with -cudart static?): "
                "what it calls cannot be read with nm -D", so);
    return hit;
}

GL_TEST(set_taps_to_symbol)
{
    static const char *const copies[] = {"cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync",
                                         "cudaGetSymbolAddress"};
    char found[64] = "";
    if (!library_imports(copies, 3, found, sizeof found))
        gl_check_fail("constant_memory.cu never calls cudaMemcpyToSymbol: constant memory is "
                      "written from the host, and set_taps copies the taps into c_taps with "
                      "cudaMemcpyToSymbol(c_taps, taps, CM_TAPS * sizeof(float))");
    gl_test_note("constant_memory.cu calls %s", found);
}

/* The kernel loads only through the read-only data path (ld.global.nc) and
 * never from constant memory. */
static void check_readonly(const char *kernel, const char *what, int task)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    int loads = gl_ptx_count(&e, "ld.global"), nc = gl_ptx_count_with(&e, "ld.global", ".nc"),
        ld_const = gl_ptx_count(&e, "ld.const");
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
    free(ptx);
}

GL_TEST(lookup_readonly)
{
    gl_ptx_entry e;
    char *ptx = baseline_entry("lookup_constant_kernel", &e);
    /* the test tells the two apart: the given lookup reads constant memory */
    if (gl_ptx_count(&e, "ld.const") == 0)
        gl_check_fail("grader: the given lookup_constant_kernel has no ld.const in its PTX, and "
                      "the test cannot tell");
    free(ptx);
    check_readonly("lookup_global_kernel", "the table", 2);
}

GL_TEST(long_readonly)
{
    check_readonly("convolve_long_kernel", "the taps", 3);
}

/* ---- performance: one run, ratios only ---- */

/* The timed size: 2^24 outputs (2^22 for the long filters), less on a small GPU. */
static int perf_n(int shift)
{
    gl_device_info info;
    gl_device_require(&info);
    return info.global_mem_bytes >= ((size_t)2 << 30) ? 1 << shift : 1 << (shift - 2);
}

/* Times a convolution on the job's arrays; its output, after the timed runs,
 * must be right (a sample of it for long filters). */
static double time_conv(conv_job *j, gl_buf *out, const float *h_in, const float *h_taps)
{
    float *h_out = gl_malloc((size_t)j->n * sizeof(float));
    double ms;
    gl_cmp cmp;
    gl_buf_poison(out);
    ms = gl_time_ms(conv_launch, j, gl_timing_default());
    gl_buf_download(out, h_out);
    if (check_conv(h_out, h_in, h_taps, j->ntaps, j->n, sample_stride(j->n, j->ntaps), &cmp)) {
        char d[1024];
        gl_cmp_describe(&cmp, "out", NULL, NULL, d, sizeof d);
        gl_check_fail("%s with %d taps is not right at n = %d after the timed runs (%s), so its "
                      "speed is not graded (the correctness tests say more)",
                      conv_names[j->kind], j->ntaps, j->n, d);
    }
    free(h_out);
    return ms;
}

/* slow and fast, the same filter of ntaps on n outputs; fast must take at
 * most 1 / min_ratio of slow's time. */
static void expect_faster(conv_kind fast, conv_kind slow, int shift, int ntaps, double min_ratio,
                          const char *why)
{
    int n = perf_n(shift);
    size_t in_len = (size_t)n + ntaps - 1;
    float *h_in = gl_malloc(in_len * sizeof(float)),
          *h_taps = gl_malloc((size_t)ntaps * sizeof(float));
    gl_buf in = gl_buf_alloc(in_len * sizeof(float), 0),
           taps = gl_buf_alloc((size_t)ntaps * sizeof(float), 0),
           out = gl_buf_alloc((size_t)n * sizeof(float), 0);
    conv_job js = {slow, NULL, out.ptr, in.ptr, taps.ptr, ntaps, n}, jf = js;
    double ts, tf;
    gl_rng rng;

    gl_test_rng(&rng);
    gl_fill_float(&rng, h_in, in_len, -1.0f, 1.0f);
    gl_fill_float(&rng, h_taps, (size_t)ntaps, -1.0f, 1.0f);
    gl_buf_upload(&in, h_in);
    gl_buf_upload(&taps, h_taps);
    js.fn = conv_prepare(slow, NULL, h_taps, ntaps);
    ts = time_conv(&js, &out, h_in, h_taps);
    jf.kind = fast;
    jf.fn = conv_prepare(fast, NULL, h_taps, ntaps);
    tf = time_conv(&jf, &out, h_in, h_taps);
    if (ts < min_ratio * tf)
        gl_check_fail("at n = %d with %d taps, %s takes %.3f ms, %.2fx faster than the given %s "
                      "(%.3f ms); it should be at least %.2fx. %s",
                      n, ntaps, conv_names[fast], tf, ts / tf, conv_names[slow], ts, min_ratio,
                      why);
    gl_test_note("%d taps: %s %.3f ms = %.2fx faster than %s %.3f ms (needs %.2fx)", ntaps,
                 conv_names[fast], tf, ts / tf, conv_names[slow], ts, min_ratio);
    gl_buf_free(&in);
    gl_buf_free(&taps);
    gl_buf_free(&out);
    free(h_in);
    free(h_taps);
}

GL_TEST(constant_vs_global)
{
    expect_faster(CONSTANT, GLOBAL, 24, CM_TAPS, MIN_CONSTANT_OVER_GLOBAL,
                  "Every lane of a warp reads the same tap at the same time: read it from "
                  "c_taps[k], with the loop unrolled (#pragma unroll), so that the tap is a "
                  "broadcast from the constant cache and not a load from global memory");
}

GL_TEST(long_vs_constant_runtime)
{
    expect_faster(LONG, RUNTIME, 22, PERF_LONG_TAPS, MIN_LONG_OVER_RUNTIME,
                  "Read the taps from global memory through `const float *__restrict__` "
                  "pointers: the read-only data cache keeps up where a long run-time loop over "
                  "constant memory does not");
}

/* Times a lookup; its output after the timed runs must be right. */
static double time_lookup(lookup_job *j, gl_buf *out, const int *h_idx, const float *h_table,
                          const char *name)
{
    float *h_out = gl_malloc((size_t)j->n * sizeof(float));
    double ms;
    gl_cmp cmp;
    gl_buf_poison(out);
    ms = gl_time_ms(lookup_launch, j, gl_timing_default());
    gl_buf_download(out, h_out);
    if (check_lookup(h_out, h_idx, h_table, j->n, &cmp))
        gl_check_fail("%s is not right at n = %d after the timed runs (%zu wrong outputs), so "
                      "its speed is not graded (the correctness tests say more)",
                      name, j->n, cmp.wrong);
    free(h_out);
    return ms;
}

GL_TEST(lookup_random_global_vs_constant)
{
    int n = perf_n(24);
    float table[CM_TABLE];
    int *h_idx = gl_malloc((size_t)n * sizeof(int));
    gl_buf idx = gl_buf_alloc((size_t)n * sizeof(int), 0),
           d_table = gl_buf_alloc(CM_TABLE * sizeof(float), 0),
           out = gl_buf_alloc((size_t)n * sizeof(float), 0);
    lookup_job jc = {gl_baseline_fn("lookup_constant"), 0, out.ptr, idx.ptr, d_table.ptr, n},
               jg = jc;
    double tc, tg;
    gl_rng rng;

    gl_test_rng(&rng);
    gl_fill_float(&rng, table, CM_TABLE, -1.0f, 1.0f);
    fill_indices(&rng, h_idx, n, 0);
    gl_buf_upload(&idx, h_idx);
    gl_buf_upload(&d_table, table);
    ((set_fn)gl_baseline_fn("set_table_constant"))(table);
    GL_CHECK_LAUNCH("set_table_constant");
    tc = time_lookup(&jc, &out, h_idx, table, "lookup_constant");
    jg.fn = gl_submission_fn("lookup_global");
    jg.global = 1;
    tg = time_lookup(&jg, &out, h_idx, table, "lookup_global");
    if (tc < MIN_GLOBAL_OVER_CONSTANT_RANDOM * tg)
        gl_check_fail("at n = %d with random indices, lookup_global takes %.3f ms, %.1fx faster "
                      "than the given lookup_constant (%.3f ms); it should be at least %.0fx. "
                      "When the lanes of a warp read different addresses, constant memory "
                      "serves them one at a time; read the table from global memory through "
                      "`const float *__restrict__` (the read-only data cache serves them "
                      "together), not from a constant copy of it",
                      n, tg, tc / tg, tc, MIN_GLOBAL_OVER_CONSTANT_RANDOM);
    gl_test_note("random indices: lookup_global %.3f ms = %.1fx faster than lookup_constant "
                 "%.3f ms (needs %.0fx)",
                 tg, tc / tg, tc, MIN_GLOBAL_OVER_CONSTANT_RANDOM);
    gl_buf_free(&idx);
    gl_buf_free(&d_table);
    gl_buf_free(&out);
    free(h_idx);
}

/* ---- profile: Nsight Compute counters ---- */

GL_TEST(constant_global_loads)
{
    static const char *const metrics[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                          "smsp__sass_inst_executed_op_global_st.sum"};
    const int n = 1 << 22;
    const char *args[] = {"convolve_constant", "4194304", NULL};
    double v[2], per_warp;
    gl_profile(metrics, 2, v, args);
    per_warp = v[0] / (n / 32.0);
    if (per_warp > MAX_LOADS_PER_WARP)
        gl_check_fail("convolve_constant executed %.0f warp-level global load instructions for "
                      "%d outputs: %.1f per warp of 32 outputs, where the %d input values take "
                      "%d and taps from constant memory none (taps from global memory make it "
                      "%d). Stores: %.0f",
                      v[0], n, per_warp, CM_TAPS, CM_TAPS, 2 * CM_TAPS, v[1]);
    gl_test_note("%.0f global load instructions for %d outputs: %.1f per warp (at most %.1f; "
                 "global taps: %d); %.0f stores",
                 v[0], n, per_warp, MAX_LOADS_PER_WARP, 2 * CM_TAPS, v[1]);
}

/* Under Nsight Compute: convolve_constant (or the given convolve_global, for
 * comparison) once on n outputs; checked. */
static const char *run_once(int argc, char **argv)
{
    long n;
    conv_kind kind;
    size_t in_len;
    float *h_in, h_taps[CM_TAPS];
    const char *why;
    gl_rng rng;

    if (argc != 2 || gl_parse_long(argv[1], 0, 1L << 28, &n) ||
        (strcmp(argv[0], "convolve_constant") && strcmp(argv[0], "convolve_global")))
        return "usage: --run convolve_constant|convolve_global N";
    kind = strcmp(argv[0], "convolve_constant") ? GLOBAL : CONSTANT;
    in_len = (size_t)n + CM_TAPS - 1;
    h_in = gl_malloc(in_len * sizeof(float));
    gl_rng_init(&rng, gl_seed(), "run_once");
    gl_fill_float(&rng, h_in, in_len, -1.0f, 1.0f);
    gl_fill_float(&rng, h_taps, CM_TAPS, -1.0f, 1.0f);
    why = run_and_check(kind, (int)n, CM_TAPS, h_in, NULL, h_taps);
    free(h_in);
    return why;
}

static void add_tests(void)
{
    GL_ADD(constant_small_n, GL_CORRECTNESS, 2, 15, "constant taps, n = 0, 1, 31, 33, 1000");
    GL_ADD(constant_large_n, GL_CORRECTNESS, 2, 15, "constant taps, n = 2^20 + 3");
    GL_ADD(constant_async, GL_CORRECTNESS, 2, 30, "constant taps, launcher returns at once");
    GL_ADD(lookup_small_n, GL_CORRECTNESS, 2, 15, "global lookup, n = 0, 1, 33");
    GL_ADD(lookup_large_n, GL_CORRECTNESS, 2, 15, "global lookup, n = 2^20 + 3");
    GL_ADD(long_taps, GL_CORRECTNESS, 2, 15, "long filter, 1, 33, 64, 1000 taps");
    GL_ADD(long_past_64kb, GL_CORRECTNESS, 3, 15, "long filter, 20000 taps (80 KB)");
    GL_ADD(constant_reads_c_taps, GL_TECHNIQUE, 3, 10, "constant taps: ld.const from c_taps");
    GL_ADD(set_taps_to_symbol, GL_TECHNIQUE, 2, 10, "set_taps: cudaMemcpyToSymbol");
    GL_ADD(lookup_readonly, GL_TECHNIQUE, 2, 10, "global lookup: ld.global.nc");
    GL_ADD(long_readonly, GL_TECHNIQUE, 2, 10, "long filter: ld.global.nc");
    GL_ADD(constant_vs_global, GL_PERFORMANCE, 4, 120, "constant taps faster than global");
    GL_ADD(lookup_random_global_vs_constant, GL_PERFORMANCE, 4, 120,
           "random lookup: global faster than constant");
    GL_ADD(long_vs_constant_runtime, GL_PERFORMANCE, 4, 120,
           "1024 run-time taps: global faster than constant");
    GL_ADD(constant_global_loads, GL_PROFILE, 5, 300, "constant taps: no global tap loads");
}

const gl_lab GL_LAB = {"04-constant-memory", "constant_memory.cu", add_tests, run_once};
