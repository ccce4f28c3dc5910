/* 05-atomics.c: the grader's suite for lab 05-atomics.
 *
 *   correctness  the byte histogram on tiny, odd and large n, on random bytes
 *                and on bytes all equal (one bin takes every count); the
 *                histogram of any bin count on uniform and on skewed values;
 *                the float maximum on random, all-negative, tied input, with
 *                the maximum first or last, and called twice on one result;
 *                the last-block sum on tiny, odd and large n, and three calls
 *                in a row on one counter, which must be back at 0 after each;
 *                exact; the launcher returns at once
 *   technique    the privatised histograms add with shared atomics
 *                (atom.shared) into a zeroed __shared__ histogram between two
 *                barriers, and merge with global atomics (the given kernels
 *                have no shared atomics, so the test can tell); the maximum
 *                has an atomicCAS (atom.cas); the last-block sum a fence and
 *                an atomicInc (atom.inc)
 *   performance  against the lab's own global-atomic kernels, in one run
 *   profile      global atomic instructions of the byte histogram (Nsight
 *                Compute): at most one per bin per block */
#include "grader.h"
#include "inspect.h"

#include "gpulabs.h"
#include "atomics.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*hist_fn)(unsigned *bins, const unsigned char *data, int n);
typedef void (*bins_fn)(unsigned *bins, const int *values, int n, int nbins);
typedef void (*max_fn)(float *result, const float *x, int n);
typedef void (*sum_fn)(unsigned *sum, const unsigned *x, int n, unsigned *partials,
                       unsigned *counter);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_SHARED_OVER_GLOBAL 20.0 /* 2^26 random bytes (H200: 93x) */
#define MIN_BINS_OVER_GLOBAL_SKEWED 20.0 /* 1000 bins, 90% hot (H200: 199x) */
#define MIN_BINS_OVER_GLOBAL_UNIFORM 5.0 /* 1000 bins, uniform (H200: 26x) */
#define MAX_GLOBAL_ATOMICS_PER_BIN_PER_BLOCK 1.1 /* warp-level global atomics / (AT_BINS x blocks) */

#define BIG ((1 << 20) + 3)
#define PERF_BINS 1000 /* not a power of two */
#define HOT_SKEWED 0.99
#define HOT_PERF 0.9

/* ---- the inputs ---- */

typedef enum { RANDOM, EQUAL } bytes_input;

static void make_bytes(unsigned char *h, size_t n, bytes_input kind, gl_rng *rng)
{
    gl_fill_bytes(rng, h, n);
    if (kind == EQUAL) /* one value, drawn once: every count lands in one bin */
        memset(h, h[0], n);
}

/* values in [0, nbins): a fraction hot of them in the last bin, the rest
 * uniform */
static void make_values(int *h, size_t n, int nbins, double hot, gl_rng *rng)
{
    size_t i;
    for (i = 0; i < n; i++)
        h[i] = (double)(gl_rng_next(rng) >> 11) * 0x1p-53 < hot
                   ? nbins - 1
                   : (int)gl_rng_range(rng, 0, nbins - 1);
}

static void count_bytes(const unsigned char *data, int n, unsigned *bins)
{
    int i;
    memset(bins, 0, AT_BINS * sizeof(unsigned));
    for (i = 0; i < n; i++)
        bins[data[i]]++;
}

static void count_values(const int *values, int n, int nbins, unsigned *bins)
{
    int i;
    memset(bins, 0, (size_t)nbins * sizeof(unsigned));
    for (i = 0; i < n; i++)
        bins[values[i]]++;
}

/* ---- histograms: one check for both tasks ---- */

/* What a wrong histogram says about the kernel. */
static void hist_hint(const gl_cmp *c, const unsigned *got, int nbins, int n, char *buf,
                      size_t len)
{
    unsigned long long total = 0;
    int b;
    if (c->unwritten == c->n) {
        snprintf(buf, len, "No bin was written, not even zeroed: the launcher zeroes the bins "
                 "(cudaMemsetAsync) before its kernel");
        return;
    }
    if (c->unwritten) {
        snprintf(buf, len, "Some bins still hold what was there before the call: the launcher "
                 "zeroes all of bins[0 .. nbins - 1] before its kernel");
        return;
    }
    for (b = 0; b < nbins; b++)
        total += got[b];
    if (total < (unsigned long long)n)
        snprintf(buf, len, "The bins add up to %llu, fewer than the %d elements: counts were "
                 "lost. The merge adds each block's hist[b] to bins[b] with atomicAdd (other "
                 "blocks add to the same bins: a plain store overwrites their counts), after a "
                 "__syncthreads() (every count of the block is in), over every bin up to nbins",
                 total, n);
    else if (total > (unsigned long long)n)
        snprintf(buf, len, "The bins add up to %llu, more than the %d elements: is the block's "
                 "histogram zeroed before it counts (shared memory is not zeroed for you), with "
                 "a __syncthreads() between the zeroing and the counting?",
                 total, n);
    else
        snprintf(buf, len, "The counts add up to n but land in the wrong bins: element i counts "
                 "in the bin of its value, and the block's bin b merges into bins[b]");
}

/* Checks a histogram: bins[0 .. nbins) against ref, the rest of the
 * allocation (room words) still poison. Returns "" or why not. */
static const char *check_bins(const gl_buf *bins, unsigned *h_bins, const unsigned *ref,
                              int nbins, size_t room, int n)
{
    static char why[2048];
    gl_guard_report g;
    gl_cmp cmp;
    size_t i;

    why[0] = '\0';
    gl_buf_download(bins, h_bins);
    if (gl_buf_check_guards(bins, &g)) {
        char d[512];
        gl_guard_describe(&g, bins->bytes, sizeof(unsigned), "bins' allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: only bins[0 .. nbins - 1] are written", d);
        return why;
    }
    for (i = (size_t)nbins; i < room; i++)
        if (h_bins[i] != 0xffffffffu)
            break;
    if (i < room)
        snprintf(why, sizeof why, "wrote bins[%zu], past the last of its %d bins: the loops over "
                 "the bins stop at nbins, and the memset zeroes nbins words", i, nbins);
    else if (gl_compare_uint(ref, h_bins, (size_t)nbins, &cmp)) {
        char d[1024], h[600];
        gl_cmp_describe(&cmp, "bins", NULL, NULL, d, sizeof d);
        hist_hint(&cmp, h_bins, nbins, n, h, sizeof h);
        snprintf(why, sizeof why, "%s. %s", d, h);
    }
    return why;
}

/* Task 1: fn on n bytes of the input. Returns "" or why not. */
static const char *run_and_check_bytes(hist_fn fn, const char *name, int n, bytes_input kind)
{
    const char *why;
    size_t room = AT_BINS + 64, in_bytes = (size_t)n + 64;
    unsigned char *h_in = gl_malloc(in_bytes);
    unsigned *h_bins = gl_malloc(room * sizeof(unsigned)), ref[AT_BINS];
    gl_buf in = gl_buf_alloc(in_bytes, 0), bins = gl_buf_alloc(room * sizeof(unsigned), 0);
    gl_rng rng;

    gl_test_rng(&rng);
    make_bytes(h_in, in_bytes, kind, &rng);
    count_bytes(h_in, n, ref);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&bins);
    fn(bins.ptr, in.ptr, n);
    GL_CHECK_LAUNCH(name);
    why = check_bins(&bins, h_bins, ref, AT_BINS, room, n);
    gl_buf_free(&in);
    gl_buf_free(&bins);
    free(h_in);
    free(h_bins);
    return why;
}

/* Task 2: fn on n values in [0, nbins), a fraction hot of them in the last
 * bin. Returns "" or why not. */
static const char *run_and_check_values(bins_fn fn, const char *name, int n, int nbins,
                                        double hot)
{
    const char *why;
    size_t room = (size_t)nbins + 64, in_room = (size_t)n + 64;
    int *h_in = gl_malloc(in_room * sizeof(int));
    unsigned *h_bins = gl_malloc(room * sizeof(unsigned)),
             *ref = gl_malloc((size_t)nbins * sizeof(unsigned));
    gl_buf in = gl_buf_alloc(in_room * sizeof(int), 0),
           bins = gl_buf_alloc(room * sizeof(unsigned), 0);
    gl_rng rng;

    gl_test_rng(&rng);
    make_values(h_in, in_room, nbins, hot, &rng);
    count_values(h_in, n, nbins, ref);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&bins);
    fn(bins.ptr, in.ptr, n, nbins);
    GL_CHECK_LAUNCH(name);
    why = check_bins(&bins, h_bins, ref, nbins, room, n);
    gl_buf_free(&in);
    gl_buf_free(&bins);
    free(h_in);
    free(h_bins);
    free(ref);
    return why;
}

static const char *bytes_name(bytes_input kind)
{
    return kind == RANDOM ? "random bytes" : "every byte equal";
}

static void check_bytes(const int *sizes, int nsizes, bytes_input kind)
{
    hist_fn fn = (hist_fn)gl_submission_fn("histogram_shared");
    int s;
    for (s = 0; s < nsizes; s++) {
        const char *why = run_and_check_bytes(fn, "histogram_shared", sizes[s], kind);
        if (*why)
            gl_check_fail("histogram_shared with n = %d, %s: %s", sizes[s], bytes_name(kind),
                          why);
    }
}

static void check_values(const int *nbins, int count, int n, double hot)
{
    bins_fn fn = (bins_fn)gl_submission_fn("histogram_bins");
    int k;
    for (k = 0; k < count; k++) {
        const char *why = run_and_check_values(fn, "histogram_bins", n, nbins[k], hot);
        if (*why)
            gl_check_fail("histogram_bins with n = %d, nbins = %d, %s: %s", n, nbins[k],
                          hot > 0 ? "99% of the values in the last bin" : "uniform values", why);
    }
}

GL_TEST(histogram_shared_small_n)
{
    static const int sizes[] = {0, 1, 2, 255, 256, 1000};
    check_bytes(sizes, 6, RANDOM);
}

GL_TEST(histogram_shared_large_n)
{
    static const int sizes[] = {BIG};
    check_bytes(sizes, 1, RANDOM);
}

/* every count in one bin: the most contention there is */
GL_TEST(histogram_shared_one_value)
{
    static const int sizes[] = {1000, BIG};
    check_bytes(sizes, 2, EQUAL);
}

static const int bin_counts[] = {1, 7, AT_BINS, PERF_BINS, AT_MAX_BINS};

GL_TEST(histogram_bins_uniform)
{
    static const int zero_one[] = {PERF_BINS};
    check_values(zero_one, 1, 0, 0.0); /* n = 0: the bins are zeroed all the same */
    check_values(zero_one, 1, 1, 0.0);
    check_values(bin_counts, 5, 100003, 0.0);
    check_values(bin_counts + 3, 2, BIG, 0.0);
}

GL_TEST(histogram_bins_skewed)
{
    check_values(bin_counts, 5, BIG, HOT_SKEWED);
}

/* ---- the float maximum ---- */

typedef enum { MIXED, NEGATIVE, MAX_FIRST, MAX_LAST, TIES } float_input;

static const char *float_name(float_input kind)
{
    static const char *names[] = {"random values in [-1000, 1000)",
                                  "every value negative, in [-1000, -1)",
                                  "the maximum at index 0", "the maximum at index n - 1",
                                  "negative values with many ties for the maximum"};
    return names[kind];
}

static void make_floats(float *h, size_t n, int used, float_input kind, gl_rng *rng)
{
    size_t i;
    switch (kind) {
    case NEGATIVE:
        gl_fill_float(rng, h, n, -1000.0f, -1.0f);
        break;
    case TIES: /* -10, -9.5, ..., -6.5: about one value in eight is the maximum */
        for (i = 0; i < n; i++)
            h[i] = -10.0f + 0.5f * (float)gl_rng_range(rng, 0, 7);
        break;
    default:
        gl_fill_float(rng, h, n, -1000.0f, 1000.0f);
        break;
    }
    if (kind == MAX_FIRST && used > 0)
        h[0] = 5000.0f;
    if (kind == MAX_LAST && used > 0)
        h[used - 1] = 5000.0f;
}

static float max_of(const float *x, int n)
{
    float m = -INFINITY;
    int i;
    for (i = 0; i < n; i++)
        if (x[i] > m)
            m = x[i];
    return m;
}

/* What a wrong maximum says about the code. */
static const char *max_hint(float expected, float got)
{
    if (isnan(got))
        return "*result still holds what was there before the call (NaN here): the launcher "
               "sets it to -INFINITY (set_float_kernel) before max_float_kernel, and no float "
               "compares above a NaN";
    if (got > expected)
        return "The result is larger than every element: a value from before the call. The "
               "launcher must set *result to -INFINITY on every call, before the blocks merge";
    if (expected < 0 && isinf(got) && got < 0)
        return "Every value is negative, and the result never moved from -INFINITY: is the "
               "maximum taken with atomicMax on the int bits? Negative floats order backwards "
               "as ints (and -INFINITY's bits are a larger int than any negative float's). "
               "Compare as floats in an atomicCAS loop";
    return "An update was lost: the CAS loop retries while the stored float is below the value, "
           "with the value atomicCAS returned (another thread got there first), until its "
           "swap succeeds";
}

/* result must be a device float followed by poison: checks it and that
 * nothing after it moved. Returns "" or why not. */
static const char *check_max(const gl_buf *out, float expected)
{
    static char why[1024];
    float h[64];
    unsigned bits;
    gl_guard_report g;
    int i;

    why[0] = '\0';
    gl_buf_download(out, h);
    if (gl_buf_check_guards(out, &g)) {
        char d[512];
        gl_guard_describe(&g, out->bytes, sizeof(float), "result's allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: only *result is written", d);
        return why;
    }
    for (i = 1; i < 64; i++) {
        memcpy(&bits, &h[i], sizeof bits);
        if (bits != 0xffffffffu) {
            snprintf(why, sizeof why, "wrote result[%d]: only *result (result[0]) is written", i);
            return why;
        }
    }
    if (!(h[0] == expected))
        snprintf(why, sizeof why, "*result is %.9g, expected %.9g. %s", h[0], expected,
                 max_hint(expected, h[0]));
    return why;
}

static const char *run_and_check_max(max_fn fn, int n, float_input kind)
{
    const char *why;
    size_t room = (size_t)n + 64;
    float *h_x = gl_malloc(room * sizeof(float)), expected;
    gl_buf x = gl_buf_alloc(room * sizeof(float), 0), out = gl_buf_alloc(64 * sizeof(float), 0);
    gl_rng rng;

    gl_test_rng(&rng);
    make_floats(h_x, room, n, kind, &rng);
    expected = max_of(h_x, n);
    gl_buf_upload(&x, h_x);
    gl_buf_poison(&out);
    fn(out.ptr, x.ptr, n);
    GL_CHECK_LAUNCH("max_float");
    why = check_max(&out, expected);
    gl_buf_free(&x);
    gl_buf_free(&out);
    free(h_x);
    return why;
}

static void check_max_sizes(const int *sizes, int nsizes, float_input kind)
{
    max_fn fn = (max_fn)gl_submission_fn("max_float");
    int s;
    for (s = 0; s < nsizes; s++) {
        const char *why = run_and_check_max(fn, sizes[s], kind);
        if (*why)
            gl_check_fail("max_float with n = %d, %s: %s", sizes[s], float_name(kind), why);
    }
}

GL_TEST(max_float_sizes)
{
    static const int sizes[] = {0, 1, 2, 33, 257, 1000, BIG};
    check_max_sizes(sizes, 7, MIXED);
}

GL_TEST(max_float_negative)
{
    static const int sizes[] = {1, 33, 1000, BIG};
    check_max_sizes(sizes, 4, NEGATIVE);
}

GL_TEST(max_float_position)
{
    static const int sizes[] = {1, 33, 1000, BIG};
    check_max_sizes(sizes, 4, MAX_FIRST);
    check_max_sizes(sizes, 4, MAX_LAST);
    check_max_sizes(sizes, 4, TIES);
}

/* Two calls on one result: a large maximum, then a smaller one. The second
 * must not see the first's. */
GL_TEST(max_float_twice)
{
    const int n = BIG;
    max_fn fn = (max_fn)gl_submission_fn("max_float");
    float *h_a = gl_malloc(n * sizeof(float)), *h_b = gl_malloc(n * sizeof(float));
    gl_buf a = gl_buf_alloc(n * sizeof(float), 0), b = gl_buf_alloc(n * sizeof(float), 0),
           out = gl_buf_alloc(64 * sizeof(float), 0);
    const char *why;
    gl_rng rng;

    gl_test_rng(&rng);
    make_floats(h_a, n, n, MAX_LAST, &rng);
    make_floats(h_b, n, n, NEGATIVE, &rng);
    gl_buf_upload(&a, h_a);
    gl_buf_upload(&b, h_b);
    gl_buf_poison(&out);
    fn(out.ptr, a.ptr, n);
    GL_CHECK_LAUNCH("max_float");
    why = check_max(&out, max_of(h_a, n));
    if (*why)
        gl_check_fail("max_float with n = %d, %s: %s", n, float_name(MAX_LAST), why);
    fn(out.ptr, b.ptr, n);
    GL_CHECK_LAUNCH("max_float");
    why = check_max(&out, max_of(h_b, n));
    if (*why)
        gl_check_fail("max_float called twice on one result, first on values up to 5000, then "
                      "on n = %d values in [-1000, -1): the second call's %s",
                      n, why);
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&out);
    free(h_a);
    free(h_b);
}

/* ---- the last-block sum ---- */

/* The sum's device state, kept across calls as a caller would. */
typedef struct {
    sum_fn fn;
    gl_buf out, partials, counter;
} sum_state;

static void sum_begin(sum_state *s)
{
    unsigned zero = 0;
    s->fn = (sum_fn)gl_submission_fn("sum_last_block");
    s->out = gl_buf_alloc(64 * sizeof(unsigned), 0);
    s->partials = gl_buf_alloc(AT_SUM_BLOCKS * sizeof(unsigned), 0);
    s->counter = gl_buf_alloc(sizeof(unsigned), 0);
    gl_buf_poison(&s->partials);
    gl_buf_upload(&s->counter, &zero); /* once, as the header says */
}

static void sum_end(sum_state *s)
{
    gl_buf_free(&s->out);
    gl_buf_free(&s->partials);
    gl_buf_free(&s->counter);
}

/* One call on n random values. Returns "" or why not. */
static const char *sum_call(sum_state *s, int n, int call)
{
    static char why[1024];
    size_t room = (size_t)n + 64;
    unsigned *h_x = gl_malloc(room * sizeof(unsigned)), h_out[64], counter, expected = 0;
    gl_buf x = gl_buf_alloc(room * sizeof(unsigned), 0);
    gl_guard_report g;
    gl_rng rng;
    int i;

    why[0] = '\0';
    gl_test_rng(&rng);
    for (i = 0; i < call; i++) /* a different input for each call */
        gl_rng_next(&rng);
    for (i = 0; i < (int)room; i++)
        h_x[i] = (unsigned)gl_rng_next(&rng);
    for (i = 0; i < n; i++)
        expected += h_x[i];
    gl_buf_upload(&x, h_x);
    gl_buf_poison(&s->out);
    s->fn(s->out.ptr, x.ptr, n, s->partials.ptr, s->counter.ptr);
    GL_CHECK_LAUNCH("sum_last_block");
    gl_buf_download(&s->out, h_out);
    gl_buf_download(&s->counter, &counter);
    if (gl_buf_check_guards(&s->out, &g) || gl_buf_check_guards(&s->partials, &g) ||
        gl_buf_check_guards(&s->counter, &g))
        snprintf(why, sizeof why, "wrote outside *sum, partials[0 .. %d] or *counter: block b "
                 "writes partials[b] only, and the last block *sum", AT_SUM_BLOCKS - 1);
    else if (h_out[0] == 0xffffffffu && expected != 0xffffffffu)
        snprintf(why, sizeof why, "*sum was never written: no block saw itself last. The "
                 "block that draws the last ticket (gridDim.x - 1) from atomicInc(counter, "
                 "gridDim.x - 1) adds the partials and writes *sum%s",
                 call > 0 ? "; and this is not the first call: the counter must be back at 0 "
                            "after each call (atomicInc with gridDim.x - 1 wraps it)" : "");
    else if (h_out[0] != expected)
        snprintf(why, sizeof why, "*sum is %u, expected %u: the last block adds all gridDim.x "
                 "partials (volatile reads: other blocks wrote them), each block's written "
                 "before its ticket (a __threadfence() between the two)",
                 h_out[0], expected);
    else if (counter != 0)
        snprintf(why, sizeof why, "*sum is right, but the counter is %u after the call, not 0: "
                 "the next call would find no last block. atomicInc(counter, gridDim.x - 1) "
                 "hands out 0 .. gridDim.x - 1 and wraps back to 0 at the last ticket",
                 counter);
    else {
        for (i = 1; i < 64; i++)
            if (h_out[i] != 0xffffffffu)
                break;
        if (i < 64)
            snprintf(why, sizeof why, "wrote sum[%d]: only *sum (sum[0]) is written", i);
    }
    gl_buf_free(&x);
    free(h_x);
    return why;
}

GL_TEST(sum_last_block_sizes)
{
    static const int sizes[] = {0, 1, 2, 255, 257, 1000, AT_SUM_BLOCKS * AT_BLOCK + 1, BIG};
    sum_state s;
    int k;
    for (k = 0; k < 8; k++) {
        const char *why;
        sum_begin(&s);
        why = sum_call(&s, sizes[k], 0);
        if (*why)
            gl_check_fail("sum_last_block with n = %d: %s", sizes[k], why);
        sum_end(&s);
    }
}

/* three calls in a row on one counter, zeroed once before the first */
GL_TEST(sum_last_block_repeated)
{
    static const int sizes[] = {BIG, 1000, BIG};
    sum_state s;
    int k;
    sum_begin(&s);
    for (k = 0; k < 3; k++) {
        const char *why = sum_call(&s, sizes[k], k);
        if (*why)
            gl_check_fail("sum_last_block, call %d of 3 in a row on one counter (n = %d): %s",
                          k + 1, sizes[k], why);
    }
    sum_end(&s);
}

/* The launcher only enqueues its work (gl_expect_queued). */
typedef struct {
    hist_fn fn;
    unsigned *bins;
    const unsigned char *data;
    const unsigned *ref;
    int n;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    q->fn(q->bins, q->data, q->n);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    unsigned h[AT_BINS];
    gl_cmp cmp;
    GL_CUDA(cudaMemcpy(h, q->bins, sizeof h, cudaMemcpyDeviceToHost));
    return gl_compare_uint(q->ref, h, AT_BINS, &cmp) == 0;
}

GL_TEST(histogram_shared_async)
{
    const int n = BIG;
    unsigned char *h_in = gl_malloc(n);
    unsigned ref[AT_BINS];
    gl_buf staged = gl_buf_alloc(n, 0), in = gl_buf_alloc(n, 0),
           bins = gl_buf_alloc(AT_BINS * sizeof(unsigned), 0);
    queued q = {(hist_fn)gl_submission_fn("histogram_shared"), bins.ptr, in.ptr, ref, n};
    gl_queue_buffers b = {in.ptr, staged.ptr, (size_t)n, bins.ptr, AT_BINS * sizeof(unsigned)};
    gl_rng rng;

    gl_test_rng(&rng);
    make_bytes(h_in, n, RANDOM, &rng);
    count_bytes(h_in, n, ref);
    gl_buf_upload(&staged, h_in);
    gl_expect_queued("histogram_shared", queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&bins);
    free(h_in);
}

/* ---- technique: read from the PTX, no GPU needed ---- */

/* atomics (atom: the old value is used; red: it is not) on shared memory */
static int shared_atomics(const gl_ptx_entry *e)
{
    return gl_ptx_count_with(e, "atom", ".shared") + gl_ptx_count_with(e, "red", ".shared");
}

/* every other atomic: global (or generic, which may be global) */
static int global_atomics(const gl_ptx_entry *e)
{
    return gl_ptx_count(e, "atom") + gl_ptx_count(e, "red") - shared_atomics(e);
}

/* The given kernel adds in global memory only: the test can tell them apart. */
static void check_baseline_global(const char *kernel)
{
    gl_ptx_entry e;
    char *ptx = gl_read_file(gl_baseline_ptx());
    if (!ptx || gl_ptx_entry_find(ptx, kernel, &e) != 0)
        gl_check_fail("grader: the baselines' PTX (%s) is missing: rebuild the kit with make",
                      gl_baseline_ptx());
    if (shared_atomics(&e) > 0 || global_atomics(&e) == 0)
        gl_check_fail("grader: the given %s has %d shared and %d global atomics in its PTX, "
                      "where it has none and one: the test cannot tell the kernels apart",
                      kernel, shared_atomics(&e), global_atomics(&e));
    free(ptx);
}

/* The three steps of a privatised histogram, in the kernel's PTX. */
static void check_privatised(const char *kernel, int task)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    if (shared_atomics(&e) == 0)
        gl_check_fail("%s has no atomic on shared memory (atom.shared) in its PTX: task %d "
                      "counts into the block's own histogram in __shared__ memory, with "
                      "atomicAdd, so that only the block's threads contend for a bin",
                      kernel, task);
    if (gl_ptx_count(&e, "st.shared") == 0)
        gl_check_fail("%s never stores to shared memory (no st.shared in its PTX): the block's "
                      "histogram is not zeroed, and shared memory starts with whatever the last "
                      "block on that multiprocessor left there",
                      kernel);
    if (gl_ptx_barriers(&e) < 2)
        gl_check_fail("%s has %d barriers (bar.sync) in its PTX: it needs one after zeroing the "
                      "histogram (no thread counts into a bin not yet zeroed) and one before "
                      "the merge (every count is in before it is read)",
                      kernel, gl_ptx_barriers(&e));
    if (global_atomics(&e) == 0)
        gl_check_fail("%s has no atomic on global memory in its PTX: the merge adds each bin to "
                      "bins[b] with atomicAdd, since the other blocks add to the same bins (a "
                      "store would overwrite their counts)",
                      kernel);
    free(ptx);
}

GL_TEST(histogram_shared_privatised)
{
    long bytes;
    check_baseline_global("histogram_global_kernel");
    check_privatised("histogram_shared_kernel", 1);
    bytes = gl_kernel_shared_bytes("histogram_shared_kernel",
                                   "Task 1 counts into a block histogram, "
                                   "__shared__ unsigned hist[AT_BINS]");
    if (bytes < AT_BINS * (long)sizeof(unsigned))
        gl_check_fail("histogram_shared_kernel's largest __shared__ array has %ld bytes: the "
                      "block's histogram needs one unsigned per bin, %d bytes",
                      bytes, AT_BINS * (int)sizeof(unsigned));
}

GL_TEST(histogram_bins_privatised)
{
    check_baseline_global("histogram_bins_global_kernel");
    check_privatised("histogram_bins_kernel", 2);
}

GL_TEST(atomic_max_float_cas)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx("max_float_kernel", &e);
    if (gl_ptx_count_with(&e, "atom", ".cas") == 0)
        gl_check_fail("max_float_kernel has no atomicCAS (atom.cas) in its PTX: no atomic does "
                      "a float maximum, so task 3 builds one, atomic_max_float, from an "
                      "atomicCAS loop on the float's bits%s",
                      gl_ptx_count_with(&e, "atom", ".max") + gl_ptx_count_with(&e, "red", ".max")
                          ? " (atomicMax on the int bits is wrong for negative floats)"
                          : "");
    free(ptx);
}

GL_TEST(sum_last_block_ticket)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx("sum_last_block_kernel", &e);
    int fences = gl_ptx_count(&e, "membar") + gl_ptx_count(&e, "fence");
    if (gl_ptx_count_with(&e, "atom", ".inc") == 0)
        gl_check_fail("sum_last_block_kernel has no atomicInc (atom.inc) in its PTX: each block "
                      "draws a ticket with atomicInc(counter, gridDim.x - 1), which also wraps "
                      "the counter back to 0 at the last ticket");
    if (fences == 0)
        gl_check_fail("sum_last_block_kernel has no memory fence (membar or fence) in its PTX: "
                      "without __threadfence() between writing the partial and drawing the "
                      "ticket, the last block may draw its ticket before another block's "
                      "partial is visible to it, and add a stale one");
    free(ptx);
}

/* ---- performance: one run, ratios only ---- */

typedef struct {
    hist_fn bytes_fn;
    bins_fn values_fn;
    unsigned *bins;
    const void *in;
    int n, nbins;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    if (j->bytes_fn)
        j->bytes_fn(j->bins, j->in, j->n);
    else
        j->values_fn(j->bins, j->in, j->n, j->nbins);
}

/* The time of one histogram launcher, whose bins after the timed runs must
 * be right (a launcher that works only once is not timed). */
static double time_hist(job *j, const char *name, const unsigned *ref, const char *input)
{
    unsigned *h = gl_malloc((size_t)j->nbins * sizeof(unsigned));
    gl_cmp cmp;
    double ms;
    GL_CUDA(cudaMemset(j->bins, GL_POISON_BYTE, (size_t)j->nbins * sizeof(unsigned)));
    ms = gl_time_ms(run_job, j, gl_timing_default());
    GL_CUDA(cudaMemcpy(h, j->bins, (size_t)j->nbins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    if (gl_compare_uint(ref, h, (size_t)j->nbins, &cmp))
        gl_check_fail("%s is not right at n = %d on %s (after the timed runs), so its speed is "
                      "not graded (the correctness tests say more)",
                      name, j->n, input);
    free(h);
    return ms;
}

GL_TEST(shared_vs_global_uniform)
{
    gl_device_info info;
    int n;
    unsigned char *h_in;
    unsigned ref[AT_BINS];
    gl_buf in, bins;
    gl_rng rng;
    double s, f;

    gl_device_require(&info);
    n = info.global_mem_bytes >= ((size_t)2 << 30) ? 1 << 26 : 1 << 24;
    h_in = gl_malloc((size_t)n);
    in = gl_buf_alloc((size_t)n, 0);
    bins = gl_buf_alloc(AT_BINS * sizeof(unsigned), 0);
    gl_test_rng(&rng);
    make_bytes(h_in, (size_t)n, RANDOM, &rng);
    count_bytes(h_in, n, ref);
    gl_buf_upload(&in, h_in);
    {
        job slow = {(hist_fn)gl_baseline_fn("histogram_global"), NULL, bins.ptr, in.ptr, n,
                    AT_BINS};
        job fast = {(hist_fn)gl_submission_fn("histogram_shared"), NULL, bins.ptr, in.ptr, n,
                    AT_BINS};
        s = time_hist(&slow, "histogram_global", ref, "random bytes");
        f = time_hist(&fast, "histogram_shared", ref, "random bytes");
    }
    if (s < MIN_SHARED_OVER_GLOBAL * f)
        gl_check_fail("at n = %d random bytes, histogram_shared takes %.3f ms, %.2fx faster than "
                      "the given histogram_global (%.3f ms); it should be at least %.1fx. Each "
                      "block counts into its own __shared__ histogram and merges it with one "
                      "global atomicAdd per bin",
                      n, f, s / f, s, MIN_SHARED_OVER_GLOBAL);
    gl_test_note("histogram_shared %.3f ms = %.2fx faster than histogram_global %.3f ms (needs "
                 "%.1fx)",
                 f, s / f, s, MIN_SHARED_OVER_GLOBAL);
    gl_buf_free(&in);
    gl_buf_free(&bins);
    free(h_in);
}

static void expect_bins_faster(double hot, double min_ratio)
{
    const int n = 1 << 24, nbins = PERF_BINS;
    int *h_in = gl_malloc((size_t)n * sizeof(int));
    unsigned ref[PERF_BINS];
    gl_buf in = gl_buf_alloc((size_t)n * sizeof(int), 0),
           bins = gl_buf_alloc(nbins * sizeof(unsigned), 0);
    gl_device_info info;
    char input[64];
    gl_rng rng;
    double s, f;

    gl_device_require(&info);
    gl_test_rng(&rng);
    make_values(h_in, (size_t)n, nbins, hot, &rng);
    count_values(h_in, n, nbins, ref);
    gl_buf_upload(&in, h_in);
    snprintf(input, sizeof input, "%d bins, %.0f%% of the values in one", nbins, 100 * hot);
    {
        job slow = {NULL, (bins_fn)gl_baseline_fn("histogram_bins_global"), bins.ptr, in.ptr, n,
                    nbins};
        job fast = {NULL, (bins_fn)gl_submission_fn("histogram_bins"), bins.ptr, in.ptr, n,
                    nbins};
        s = time_hist(&slow, "histogram_bins_global", ref, input);
        f = time_hist(&fast, "histogram_bins", ref, input);
    }
    if (s < min_ratio * f)
        gl_check_fail("at n = %d values, %s, histogram_bins takes %.3f ms, %.2fx faster than the "
                      "given histogram_bins_global (%.3f ms); it should be at least %.1fx. Count "
                      "in the block's dynamic shared histogram (extern __shared__), merge once "
                      "per bin per block",
                      n, input, f, s / f, s, min_ratio);
    gl_test_note("%s: histogram_bins %.3f ms = %.2fx faster than histogram_bins_global %.3f ms "
                 "(needs %.1fx)",
                 input, f, s / f, s, min_ratio);
    gl_buf_free(&in);
    gl_buf_free(&bins);
    free(h_in);
}

GL_TEST(bins_vs_global_skewed)
{
    expect_bins_faster(HOT_PERF, MIN_BINS_OVER_GLOBAL_SKEWED);
}

GL_TEST(bins_vs_global_uniform)
{
    expect_bins_faster(0.0, MIN_BINS_OVER_GLOBAL_UNIFORM);
}

/* ---- profile: Nsight Compute counters ---- */

static const char *const atomic_metrics[] = {"smsp__sass_inst_executed_op_global_atom.sum",
                                             "smsp__sass_inst_executed_op_global_red.sum",
                                             "launch__grid_size"};

GL_TEST(histogram_shared_global_atomics)
{
    const int n = 1 << 24;
    const char *given_args[] = {"given:histogram_global", "16777216", NULL};
    const char *args[] = {"histogram_shared", "16777216", NULL};
    double g[3], v[3], limit;
    gl_profile(atomic_metrics, 3, g, given_args);
    gl_profile(atomic_metrics, 3, v, args);
    if (g[0] + g[1] < n / 64.0)
        gl_check_fail("grader: the given histogram_global executed %.0f global atomic "
                      "instructions for %d bytes, where it takes one per 32 bytes (%d): the "
                      "counters do not show the atomics on this GPU",
                      g[0] + g[1], n, n / 32);
    limit = MAX_GLOBAL_ATOMICS_PER_BIN_PER_BLOCK * AT_BINS * v[2];
    if (v[0] + v[1] > limit)
        gl_check_fail("histogram_shared executed %.0f warp-level global atomic instructions "
                      "(%.0f atom, %.0f red) for %d bytes in %.0f blocks: more than one per bin "
                      "per block (%.0f). The given kernel executes %.0f, one per 32 bytes: are "
                      "the bytes still counted in global memory? Count in shared memory, and "
                      "touch the global bins only in the merge",
                      v[0] + v[1], v[0], v[1], n, v[2], limit, g[0] + g[1]);
    gl_test_note("global atomic instructions: histogram_shared %.0f in %.0f blocks (at most "
                 "%.0f), given histogram_global %.0f",
                 v[0] + v[1], v[2], limit, g[0] + g[1]);
}

/* Under Nsight Compute: one byte histogram ("given:NAME" for the lab's own),
 * once, on n random bytes; checked. */
static const char *run_once(int argc, char **argv)
{
    const char *name;
    long n;

    if (argc != 2 || gl_parse_long(argv[1], 0, 1L << 28, &n))
        return "usage: --run [given:]histogram_global|histogram_shared N";
    name = gl_launcher_name(argv[0]);
    if (strcmp(name, "histogram_global") && strcmp(name, "histogram_shared"))
        return "usage: --run [given:]histogram_global|histogram_shared N (no such launcher)";
    return run_and_check_bytes((hist_fn)gl_launcher_fn(argv[0]), name, (int)n, RANDOM);
}

static void add_tests(void)
{
    GL_ADD(histogram_shared_small_n, GL_CORRECTNESS, 2, 15, "privatised, n = 0 .. 1000");
    GL_ADD(histogram_shared_large_n, GL_CORRECTNESS, 2, 15, "privatised, n = 2^20 + 3");
    GL_ADD(histogram_shared_one_value, GL_CORRECTNESS, 2, 15, "privatised, every byte equal");
    GL_ADD(histogram_shared_async, GL_CORRECTNESS, 2, 30, "privatised, launcher returns at once");
    GL_ADD(histogram_bins_uniform, GL_CORRECTNESS, 2, 15, "any bin count, uniform values");
    GL_ADD(histogram_bins_skewed, GL_CORRECTNESS, 2, 15, "any bin count, 99% in one bin");
    GL_ADD(max_float_sizes, GL_CORRECTNESS, 2, 15, "float maximum, n = 0 .. 2^20 + 3");
    GL_ADD(max_float_negative, GL_CORRECTNESS, 2, 15, "float maximum, all negative");
    GL_ADD(max_float_position, GL_CORRECTNESS, 2, 15, "float maximum first, last, tied");
    GL_ADD(max_float_twice, GL_CORRECTNESS, 2, 15, "float maximum, two calls, one result");
    GL_ADD(sum_last_block_sizes, GL_CORRECTNESS, 2, 15, "last-block sum, n = 0 .. 2^20 + 3");
    GL_ADD(sum_last_block_repeated, GL_CORRECTNESS, 2, 15, "last-block sum, three calls");
    GL_ADD(histogram_shared_privatised, GL_TECHNIQUE, 3, 10,
           "privatised: shared atomics, merge");
    GL_ADD(histogram_bins_privatised, GL_TECHNIQUE, 3, 10, "any bin count: privatised");
    GL_ADD(atomic_max_float_cas, GL_TECHNIQUE, 3, 10, "float maximum: atomicCAS");
    GL_ADD(sum_last_block_ticket, GL_TECHNIQUE, 3, 10, "last block: fence and atomicInc");
    GL_ADD(shared_vs_global_uniform, GL_PERFORMANCE, 4, 120, "privatised faster, random bytes");
    GL_ADD(bins_vs_global_skewed, GL_PERFORMANCE, 4, 120, "any bin count faster, 90% in one bin");
    GL_ADD(bins_vs_global_uniform, GL_PERFORMANCE, 4, 120, "any bin count faster, uniform");
    GL_ADD(histogram_shared_global_atomics, GL_PROFILE, 5, 300,
           "privatised: one global atomic per bin per block");
}

const gl_lab GL_LAB = {"05-atomics", "atomics.cu", add_tests, run_once};
