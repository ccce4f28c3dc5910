/* lab.c: lab 05-atomics described once (lab.h): the launchers, the four tasks' problems (their
 * inputs, guard zones and words), and the lab's own check of each task's output with its
 * hints. */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*bytes_fn)(unsigned *bins, const unsigned char *data, int n);
typedef void (*values_fn)(unsigned *bins, const int *values, int n, int nbins);
typedef void (*max_fn)(float *result, const float *x, int n);
typedef void (*sum_fn)(unsigned *sum, const unsigned *x, int n, unsigned *partials,
                       unsigned *counter);

static long long call_bytes(void *fn, const gl_arg *a)
{
    ((bytes_fn)fn)((unsigned *)a[0].p, (const unsigned char *)a[1].p, (int)a[2].i);
    return 0;
}

static long long call_values(void *fn, const gl_arg *a)
{
    ((values_fn)fn)((unsigned *)a[0].p, (const int *)a[1].p, (int)a[2].i, (int)a[3].i);
    return 0;
}

static long long call_max(void *fn, const gl_arg *a)
{
    ((max_fn)fn)((float *)a[0].p, (const float *)a[1].p, (int)a[2].i);
    return 0;
}

static long long call_sum(void *fn, const gl_arg *a)
{
    ((sum_fn)fn)((unsigned *)a[0].p, (const unsigned *)a[1].p, (int)a[2].i, (unsigned *)a[3].p,
                 (unsigned *)a[4].p);
    return 0;
}

/* The histograms zero their bins with cudaMemsetAsync; the sum writes 0 that
 * way for n = 0. max_float cannot (-INFINITY is not one repeated byte). */
const gl_launcher LAB_LAUNCHERS[] = {
    {"histogram_global", "ppi", call_bytes, GL_GIVEN | GL_MAY_MEMSET},
    {"histogram_bins_global", "ppii", call_values, GL_GIVEN | GL_MAY_MEMSET},
    {"histogram_shared", "ppi", call_bytes, GL_MAY_MEMSET},
    {"histogram_bins", "ppii", call_values, GL_MAY_MEMSET},
    {"max_float", "ppi", call_max, 0},
    {"sum_last_block", "ppipp", call_sum, GL_MAY_MEMSET},
    {NULL, NULL, NULL, 0},
};

enum { BYTES, VALUES, MAX, SUM }; /* the tasks, 1 to 4 */

static int task_of(const char *launcher)
{
    if (!strcmp(launcher, "max_float"))
        return MAX;
    if (!strcmp(launcher, "sum_last_block"))
        return SUM;
    return strstr(launcher, "bins") ? VALUES : BYTES;
}

static size_t room(const at_size *z)
{
    return (size_t)z->n + AT_SLACK;
}

/* Output words: the bins, or *result or *sum. */
static int out_words(const at_size *z)
{
    return z->task == BYTES ? AT_BINS : z->task == VALUES ? z->nbins : 1;
}

/* The guard zones of the bins, *result and *sum: a loop over the bins that runs past nbins
 * writes up to the lab's largest bin count too far */
#define OUT_GUARD (AT_MAX_BINS * sizeof(unsigned) + 4096)

/* The maximum of AT_MAX_FIRST and AT_MAX_LAST input: what a right call on them leaves in
 * *result */
static const float top = 5000.0f;

static void upload(void *dst, const void *src, size_t bytes)
{
    GL_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

/* count words of device memory, downloaded (malloc'ed). */
static unsigned *download(const void *src, size_t count)
{
    unsigned *h = malloc(count * sizeof(unsigned) + 1);
    if (!h)
        gl_fail("out of host memory (%zu words)", count);
    GL_CUDA(cudaMemcpy(h, src, count * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return h;
}

/* ---- the inputs, made on the GPU from the seed ---- */

static void make_floats(const at_size *z, float *x, unsigned long long seed)
{
    if (z->input == AT_TIES) /* bit patterns 0xc1000000 (-8) to 0xc1000007: below -8 */
        gl_device_fill_int((int *)x, room(z), (int)0xc1000000u, (int)0xc1000007u, seed);
    else
        gl_device_fill_float(x, room(z), -1000.0f, z->input == AT_NEGATIVE ? -1.0f : 1000.0f,
                             seed);
    if (z->n > 0 && (z->input == AT_MAX_FIRST || z->input == AT_MAX_LAST))
        upload(x + (z->input == AT_MAX_FIRST ? 0 : z->n - 1), &top, sizeof top);
}

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const at_size *z = ctx;
    if (k == 1) /* max_float's *result, as a call before left it (again) */
        upload(dst, &top, sizeof top);
    else if (k == 3) /* sum_last_block's counter: its caller zeroes it once, a right call
                      * leaves it at 0 */
        GL_CUDA(cudaMemset(dst, 0, sizeof(unsigned)));
    else if (z->task == BYTES && z->input == AT_EQUAL) /* one value: every count in one bin */
        GL_CUDA(cudaMemset(dst, (int)((seed * 0x9e3779b97f4a7c15ull) >> 56), room(z)));
    else if (z->task == BYTES)
        gl_device_fill_bytes(dst, room(z), seed);
    else if (z->task == VALUES)
        gl_device_fill_int_skewed(dst, room(z), 0, z->nbins - 1, z->hot_bin, z->hot,
                                  (size_t)z->chunk, seed);
    else if (z->task == MAX)
        make_floats(z, dst, seed);
    else
        gl_device_fill_int(dst, room(z), INT_MIN, INT_MAX, seed);
}

/* The output, the input, n, then nbins (task 2) or the sum's partials and counter; a
 * launcher takes as many as its layout says. */
static void run(const char *launcher, const at_size *z, void *const *buf)
{
    gl_arg a[] = {GL_P(buf[1]), GL_P(buf[0]), GL_I(z->n), GL_I(z->nbins), GL_P(NULL)};
    if (z->task == SUM) {
        a[3] = GL_P(buf[2]);
        a[4] = GL_P(buf[3]);
    }
    gl_exec(launcher, a);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    run(launcher, ctx, buf);
}

/* ---- the lab's own check of each task's output, in its terms (verify) ----
 * The kit finds writes outside the outputs (guard zones) and changed inputs; the values are
 * checked here. The kit's comparison (reference_fn, hint_of) cannot do it yet: its hints see
 * neither the histogram's total nor which of *sum and the counter is wrong, it finds -INFINITY
 * (max_float on n = 0) unequal to itself, and gl_perf_queued takes a counter (a made output)
 * only where the lab checks it. */

static char why[2048];

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
                 "a __syncthreads() between the zeroing and the counting? (A loop that reads "
                 "past element n - 1 counts elements that are not there, too)",
                 total, n);
    else
        snprintf(buf, len, "The counts add up to n but land in the wrong bins: element i counts "
                 "in the bin of its value, and the block's bin b merges into bins[b]");
}

/* The right bins, on the GPU: CUB's histogram, else the given kernel's. */
static unsigned *expected_bins(const at_size *z, void *const *buf)
{
    gl_buf bins = gl_buf_alloc((size_t)out_words(z) * sizeof(unsigned), 0);
    void *given[GL_PROBLEM_BUFS] = {buf[0], bins.ptr};
    unsigned *h;
    GL_CUDA(cudaMemset(bins.ptr, 0, bins.bytes)); /* n = 0 counts nothing */
    if (gl_device_histogram(buf[0], (size_t)z->n, z->task == BYTES, out_words(z), bins.ptr))
        run(z->task == BYTES ? "histogram_global" : "histogram_bins_global", z, given);
    GL_CHECK_LAUNCH("the kit's histogram");
    h = download(bins.ptr, (size_t)out_words(z));
    gl_buf_free(&bins);
    return h;
}

static void verify_histogram(const at_size *z, void *const *buf)
{
    size_t nbins = (size_t)out_words(z);
    unsigned *got = download(buf[1], nbins), *ref = expected_bins(z, buf);
    gl_cmp cmp;
    if (gl_compare_uint(ref, got, nbins, &cmp)) {
        char d[1024], h[600];
        gl_cmp_describe(&cmp, "bins", NULL, NULL, d, sizeof d);
        hist_hint(&cmp, got, (int)nbins, z->n, h, sizeof h);
        snprintf(why, sizeof why, "%s. %s", d, h);
    }
    free(got);
    free(ref);
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

static void verify_max(const at_size *z, void *const *buf)
{
    float *x = (float *)download(buf[0], (size_t)z->n), *got = (float *)download(buf[1], 1);
    float expected = -INFINITY;
    int i;
    for (i = 0; i < z->n; i++)
        if (x[i] > expected)
            expected = x[i];
    if (!(*got == expected)) /* -INFINITY equals itself, a NaN (the poison) nothing */
        snprintf(why, sizeof why, "*result is %.9g, expected %.9g. %s", *got, expected,
                 max_hint(expected, *got));
    free(x);
    free(got);
}

static void verify_sum(const at_size *z, void *const *buf)
{
    unsigned *h = download(buf[1], 1), *counter = download(buf[3], 1);
    unsigned expected = gl_device_sum_words(buf[0], (size_t)z->n);
    if (h[0] == 0xffffffffu && expected != 0xffffffffu)
        snprintf(why, sizeof why, "*sum was never written: no block saw itself last. The "
                 "block that draws the last ticket (gridDim.x - 1) from atomicInc(counter, "
                 "gridDim.x - 1) adds the partials and writes *sum");
    else if (h[0] != expected)
        snprintf(why, sizeof why, "*sum is %u, expected %u: the last block adds all gridDim.x "
                 "partials (volatile reads: other blocks wrote them), each block's written "
                 "before its ticket (a __threadfence() between the two)", h[0], expected);
    else if (*counter != 0)
        snprintf(why, sizeof why, "*sum is right, but the counter is %u after the call, not 0: "
                 "the next call would find no last block. atomicInc(counter, gridDim.x - 1) "
                 "hands out 0 .. gridDim.x - 1 and wraps back to 0 at the last ticket",
                 *counter);
    free(h);
    free(counter);
}

static const char *problem_verify(void *ctx, void *const *buf, unsigned long long seed)
{
    const at_size *z = ctx;
    (void)seed; /* every element is checked */
    why[0] = '\0';
    if (z->task == MAX)
        verify_max(z, buf);
    else if (z->task == SUM)
        verify_sum(z, buf);
    else
        verify_histogram(z, buf);
    return why;
}

/* ---- the problems ---- */

/* "with n = 1000, random bytes": the input, in the messages' words */
static void describe(at_size *z)
{
    static const char *floats[] = {"random values in [-1000, 1000)",
                                   "every value negative, in [-1000, -1)",
                                   "the maximum at index 0", "the maximum at index n - 1",
                                   "negative values with many ties for the maximum"};
    int w = snprintf(z->what, sizeof z->what, "with n = %d", z->n);
    size_t len = sizeof z->what - (size_t)w;
    if (z->task == BYTES)
        snprintf(z->what + w, len, ", %s",
                 z->input == AT_EQUAL ? "every byte equal" : "random bytes");
    else if (z->task == MAX)
        snprintf(z->what + w, len, ", %s%s", floats[z->input <= AT_TIES ? z->input : 0],
                 z->again ? ", after a call that left 5000 in *result" : "");
    else if (z->task == VALUES && z->hot <= 0)
        snprintf(z->what + w, len, ", nbins = %d, uniform values", z->nbins);
    else if (z->task == VALUES && z->hot_bin == z->nbins - 1)
        snprintf(z->what + w, len, ", nbins = %d, %g%% of the values in the last bin%s",
                 z->nbins, 100 * z->hot, z->chunk > 1 ? " (in runs)" : "");
    else if (z->task == VALUES)
        snprintf(z->what + w, len, ", nbins = %d, %g%% of the values in bin %d%s", z->nbins,
                 100 * z->hot, z->hot_bin, z->chunk > 1 ? " (in runs)" : "");
    else
        snprintf(z->what + w, len, ", the counter at 0 (zeroed once by the caller, left at 0 by "
                 "every right call)");
}

gl_problem atomics_problem(const char *launcher, void *size)
{
    at_size *z = size;
    int task = task_of(launcher);
    size_t elem = task == BYTES ? 1 : 4;
    /* the given global-atomic kernels take 11 to 17 ms a call on random bytes or skewed values
     * (H100): 4 calls make a round long beside its 1 ms of overhead */
    int slow = task == BYTES || (task == VALUES && z->hot > 0);
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = task == SUM ? 3 : 1, .ctx = z,
                    .make = problem_make, .call = problem_call, .verify = problem_verify,
                    .inputs_read_only = 1, .work = (double)z->n * (double)elem,
                    .sets = AT_SETS, .rounds = 5, .baseline_sets = slow ? 4 : 0};
    static const char *const in_names[] = {"data", "values", "x", "x"},
                             *out_names[] = {"bins", "bins", "result", "sum"};
    const char *outside = task == MAX   ? "only *result (result[0]) is written"
                          : task == SUM ? "only *sum (sum[0]) is written"
                                        : "only bins[0 .. nbins - 1] are written: the loops over "
                                          "the bins stop at nbins, and the memset zeroes nbins "
                                          "words",
               *sum_outside = "block b writes partials[b] only, and the last block *sum";
    if (task == VALUES && (z->nbins < 1 || z->nbins > AT_MAX_BINS))
        gl_fail("atomics_problem(%s): %d bins, not 1 .. AT_MAX_BINS", launcher, z->nbins);
    z->task = task;
    describe(z);
    p.buf[0] = (gl_problem_buf){.name = in_names[task], .bytes = room(z) * elem,
                                .outside = "it is read-only input"};
    p.buf[1] = (gl_problem_buf){.name = out_names[task],
                                .bytes = (size_t)out_words(z) * sizeof(unsigned),
                                .made = task == MAX && z->again, .outside = outside,
                                .guard = OUT_GUARD};
    p.buf[2] = (gl_problem_buf){.name = "partials", .bytes = AT_SUM_BLOCKS * sizeof(unsigned),
                                .outside = sum_outside};
    p.buf[3] = (gl_problem_buf){.name = "counter", .bytes = sizeof(unsigned), .made = 1,
                                .outside = sum_outside};
    return p;
}
