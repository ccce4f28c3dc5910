/* lab.c: lab 05-atomics described once (lab.h): the launchers, and the four tasks' problems:
 * their inputs, guard zones and words, the expected outputs, and the hints. */
#include "lab.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GL_INVOKER(call_bytes, histogram_global, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_values, histogram_bins, a, a[0].p, a[1].p, (int)a[2].i, (int)a[3].i)
GL_INVOKER(call_max, max_float, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_sum, sum_last_block, a, a[0].p, a[1].p, (int)a[2].i, a[3].p, a[4].p)

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

/* Inputs hold AT_SLACK elements past n, drawn like the rest and never counted: a kernel that
 * reads past n counts them, and the comparison sees it. */
#define AT_SLACK 64

/* Output words: the bins, or *result or *sum. */
static int out_words(const at_size *z)
{
    return z->task == BYTES ? AT_BINS : z->task == VALUES ? z->nbins : 1;
}

/* The maximum of AT_MAX_FIRST and AT_MAX_LAST input, which a right call leaves in *result */
static const float top = 5000.0f;

/* ---- the inputs, made on the GPU from the seed ---- */

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const at_size *z = ctx;
    size_t room = (size_t)z->n + AT_SLACK;
    if (k == 1) /* max_float's *result, as a call before left it (again) */
        GL_CUDA(cudaMemcpy(dst, &top, sizeof top, cudaMemcpyHostToDevice));
    else if (k == 3) /* sum_last_block's counter: zeroed once by its caller, left at 0 */
        GL_CUDA(cudaMemset(dst, 0, sizeof(unsigned)));
    else if (z->task == BYTES && z->input == AT_EQUAL) /* one value: every count in one bin */
        GL_CUDA(cudaMemset(dst, (int)((seed * 0x9e3779b97f4a7c15ull) >> 56), room));
    else if (z->task == BYTES)
        gl_device_fill_bytes(dst, room, seed);
    else if (z->task == VALUES)
        gl_device_fill_int_skewed(dst, room, 0, z->nbins - 1, z->hot_bin, z->hot,
                                  (size_t)z->chunk, seed);
    else if (z->task == MAX && z->input == AT_TIES) /* -8 (0xc1000000) and the 7 floats below */
        gl_device_fill_int(dst, room, (int)0xc1000000u, (int)0xc1000007u, seed);
    else if (z->task == MAX)
        gl_device_fill_float(dst, room, -1000.0f, z->input == AT_NEGATIVE ? -1.0f : 1000.0f, seed);
    else
        gl_device_fill_int(dst, room, INT_MIN, INT_MAX, seed);
    if (k == 0 && z->task == MAX && z->n > 0 &&
        (z->input == AT_MAX_FIRST || z->input == AT_MAX_LAST))
        GL_CUDA(cudaMemcpy((float *)dst + (z->input == AT_MAX_FIRST ? 0 : z->n - 1), &top,
                           sizeof top, cudaMemcpyHostToDevice));
}

/* The output, the input, n, then nbins (task 2) or the sum's partials and counter; a
 * launcher takes as many as its layout says. */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const at_size *z = ctx;
    int sum = z->task == SUM;
    gl_arg a[] = {GL_P(buf[1]), GL_P(buf[0]), GL_I(z->n), sum ? GL_P(buf[2]) : GL_I(z->nbins),
                  GL_P(sum ? buf[3] : NULL)};
    gl_exec(launcher, a);
}

/* ---- the expected outputs, from the inputs: only the first n elements count ---- */

/* *result = the largest of x[0 .. n-1], -INFINITY for n = 0, found on the host. */
static void maximum(const at_size *z, const float *x, float *result)
{
    float *h = gl_host_alloc((size_t)z->n * sizeof *h), m = -INFINITY;
    GL_CUDA(cudaMemcpy(h, x, (size_t)z->n * sizeof *h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < z->n; i++)
        if (h[i] > m)
            m = h[i];
    free(h);
    GL_CUDA(cudaMemcpy(result, &m, sizeof m, cudaMemcpyHostToDevice));
}

/* The histograms by CUB (else the given kernel), the maximum, and the kit's word sum; the
 * counter stays as it was made, at 0. */
static void problem_reference(void *ctx, void *const *buf)
{
    const at_size *z = ctx;
    if (z->task == MAX) {
        maximum(z, buf[0], buf[1]);
    } else if (z->task == SUM) {
        unsigned sum = gl_device_sum_words(buf[0], (size_t)z->n);
        GL_CUDA(cudaMemcpy(buf[1], &sum, sizeof sum, cudaMemcpyHostToDevice));
    } else {
        GL_CUDA(cudaMemset(buf[1], 0, (size_t)out_words(z) * sizeof(unsigned))); /* n = 0 */
        if (gl_device_histogram(buf[0], (size_t)z->n, z->task == BYTES, out_words(z), buf[1]))
            problem_call(ctx, z->task == BYTES ? "histogram_global" : "histogram_bins_global",
                         buf);
        GL_CHECK_LAUNCH("the kit's histogram");
    }
}

/* ---- what a wrong output says about the code ---- */

static const char *max_hint(const gl_cmp *c)
{
    static char why[320];
    double expected = c->diff[0].expected, got = c->diff[0].actual;
    if (isnan(got)) {
        snprintf(why, sizeof why, "*result still holds what was there before the call (NaN "
                 "here, where %.9g was expected): the launcher sets it to -INFINITY "
                 "(set_float_kernel) before max_float_kernel, and no float compares above a NaN",
                 expected);
        return why;
    }
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

/* *sum is compared before the counter: a wrong counter comes with a right *sum. */
static const char *sum_hint(const gl_problem_buf *b, const gl_cmp *c)
{
    if (!strcmp(b->name, "counter"))
        return "*sum is right, but the counter is not back at 0 after the call: the next call "
               "would find no last block. atomicInc(counter, gridDim.x - 1) hands out 0 .. "
               "gridDim.x - 1 and wraps back to 0 at the last ticket";
    if (c->unwritten)
        return "*sum was never written: no block saw itself last. The block that draws the "
               "last ticket (gridDim.x - 1) from atomicInc(counter, gridDim.x - 1) adds the "
               "partials and writes *sum";
    return "The last block adds all gridDim.x partials (volatile reads: other blocks wrote "
           "them), each block's written before its ticket (a __threadfence() between the two)";
}

/* The hint of a wrong output; the histograms' by what their counts add up to. */
static const char *problem_hint(void *ctx, const char *launcher, const gl_problem_buf *b,
                                const gl_cmp *c, const void *expected, const void *got)
{
    const at_size *z = ctx;
    static char why[600];
    unsigned long long total = 0;
    (void)launcher;
    (void)expected;
    if (z->task == MAX || z->task == SUM)
        return z->task == MAX ? max_hint(c) : sum_hint(b, c);
    if (c->unwritten == c->n)
        return "No bin was written, not even zeroed: the launcher zeroes the bins "
               "(cudaMemsetAsync) before its kernel";
    if (c->unwritten)
        return "Some bins still hold what was there before the call: the launcher zeroes all of "
               "bins[0 .. nbins - 1] before its kernel";
    for (size_t i = 0; i < c->n; i++)
        total += ((const unsigned *)got)[i];
    if (total == (unsigned long long)z->n)
        return "The counts add up to n but land in the wrong bins: element i counts in the bin "
               "of its value, and the block's bin b merges into bins[b]";
    if (total < (unsigned long long)z->n)
        snprintf(why, sizeof why, "The bins add up to %llu, fewer than the %d elements: counts "
                 "were lost. The merge adds each block's hist[b] to bins[b] with atomicAdd "
                 "(other blocks add to the same bins: a plain store overwrites their counts), "
                 "after a __syncthreads() (every count of the block is in), over every bin up to "
                 "nbins", total, z->n);
    else
        snprintf(why, sizeof why, "The bins add up to %llu, more than the %d elements: is the "
                 "block's histogram zeroed before it counts (shared memory is not zeroed for "
                 "you), with a __syncthreads() between the zeroing and the counting? (A loop "
                 "that reads past element n - 1 counts elements that are not there, too)",
                 total, z->n);
    return why;
}

/* ---- the problems ---- */

/* "with n = 1000, random bytes": the input, in the messages' words */
static void describe(at_size *z)
{
    static const char *const floats[] = {"random values in [-1000, 1000)",
                                         "every value negative, in [-1000, -1)",
                                         "the maximum at index 0", "the maximum at index n - 1",
                                         "negative values with many ties for the maximum"};
    char bin[24] = "the last bin";
    if (z->hot_bin != z->nbins - 1)
        snprintf(bin, sizeof bin, "bin %d", z->hot_bin);
    if (z->task == VALUES && z->hot > 0)
        snprintf(z->what, sizeof z->what, "with n = %d, nbins = %d, %g%% of the values in %s%s",
                 z->n, z->nbins, 100 * z->hot, bin, z->chunk > 1 ? " (in runs)" : "");
    else if (z->task == VALUES)
        snprintf(z->what, sizeof z->what, "with n = %d, nbins = %d, uniform values", z->n,
                 z->nbins);
    else
        snprintf(z->what, sizeof z->what, "with n = %d, %s%s", z->n,
                 z->task == SUM ? "the counter at 0 (zeroed once by the caller, left at 0 by "
                                  "every right call)"
                 : z->task == MAX ? floats[z->input <= AT_TIES ? z->input : 0]
                 : z->input == AT_EQUAL ? "every byte equal" : "random bytes",
                 z->task == MAX && z->again ? ", after a call that left 5000 in *result" : "");
}

gl_problem atomics_problem(const char *launcher, void *size)
{
    at_size *z = size;
    int task = !strcmp(launcher, "max_float") ? MAX : !strcmp(launcher, "sum_last_block") ? SUM
               : strstr(launcher, "bins") ? VALUES : BYTES;
    size_t elem = task == BYTES ? 1 : 4, room = (size_t)z->n + AT_SLACK;
    /* the given global-atomic kernels take 11 to 17 ms a call on random bytes or skewed values
     * (H100): 4 calls make a round long beside its 1 ms of overhead */
    int slow = task == BYTES || (task == VALUES && z->hot > 0);
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = task == SUM ? 3 : 1, .ctx = z,
                    .make = problem_make, .call = problem_call,
                    .reference_fn = problem_reference, .inputs_read_only = 1,
                    .hint_of_values = problem_hint, .work = (double)z->n * (double)elem,
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
    p.buf[0] = (gl_problem_buf){.name = in_names[task], .bytes = room * elem,
                                .outside = "it is read-only input"};
    /* exact: a count, the maximum (one of the elements, or -INFINITY), a wrapping sum */
    p.buf[1] = (gl_problem_buf){.name = out_names[task],
                                .bytes = (size_t)out_words(z) * sizeof(unsigned),
                                .cmp = task == MAX ? GL_CMP_FLOAT : GL_CMP_UINT,
                                .made = task == MAX && z->again, .outside = outside,
                                /* a loop over the bins that runs past nbins writes up to the
                                 * lab's largest bin count too far */
                                .guard = AT_MAX_BINS * sizeof(unsigned) + 4096};
    p.buf[2] = (gl_problem_buf){.name = "partials", .bytes = AT_SUM_BLOCKS * sizeof(unsigned),
                                .scratch = 1, .outside = sum_outside};
    p.buf[3] = (gl_problem_buf){.name = "counter", .bytes = sizeof(unsigned), .cmp = GL_CMP_UINT,
                                .made = 1, .kept = 1, .outside = sum_outside};
    return p;
}
