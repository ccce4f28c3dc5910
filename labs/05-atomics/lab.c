/* lab.c: lab 05-atomics described once (lab.h). */
#include "lab.h"

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

void atomics_bytes_run(const char *name, unsigned *bins, const unsigned char *data, int n)
{
    gl_arg a[] = {GL_P(bins), GL_P(data), GL_I(n)};
    gl_exec(name, a);
}

void atomics_values_run(const char *name, unsigned *bins, const int *values, int n, int nbins)
{
    gl_arg a[] = {GL_P(bins), GL_P(values), GL_I(n), GL_I(nbins)};
    gl_exec(name, a);
}

void atomics_max_run(float *result, const float *x, int n)
{
    gl_arg a[] = {GL_P(result), GL_P(x), GL_I(n)};
    gl_exec("max_float", a);
}

void atomics_sum_run(unsigned *sum, const unsigned *x, int n, unsigned *partials,
                     unsigned *counter)
{
    gl_arg a[] = {GL_P(sum), GL_P(x), GL_I(n), GL_P(partials), GL_P(counter)};
    gl_exec("sum_last_block", a);
}

/* ---- inputs ---- */

static void *host_alloc(size_t elems, size_t size)
{
    void *p = malloc(elems * size + 1);
    if (!p)
        gl_fail("out of host memory (%zu elements of %zu bytes)", elems, size);
    return p;
}

unsigned char *atomics_make_bytes(gl_rng *rng, int n, int equal)
{
    size_t room = (size_t)n + AT_SLACK;
    unsigned char *h = host_alloc(room, 1);
    gl_fill_bytes(rng, h, room);
    if (equal) /* one value, drawn once: every count lands in one bin */
        memset(h, h[0], room);
    return h;
}

int *atomics_make_values(gl_rng *rng, int n, int nbins, double hot, int hot_bin)
{
    size_t room = (size_t)n + AT_SLACK, i;
    int *h = host_alloc(room, sizeof(int));
    for (i = 0; i < room; i++)
        h[i] = (double)(gl_rng_next(rng) >> 11) * 0x1p-53 < hot
                   ? hot_bin
                   : (int)gl_rng_range(rng, 0, nbins - 1);
    return h;
}

const char *atomics_floats_name(atomics_floats kind)
{
    static const char *names[] = {"random values in [-1000, 1000)",
                                  "every value negative, in [-1000, -1)",
                                  "the maximum at index 0", "the maximum at index n - 1",
                                  "negative values with many ties for the maximum"};
    return names[kind];
}

float *atomics_make_floats(gl_rng *rng, int n, atomics_floats kind)
{
    size_t room = (size_t)n + AT_SLACK, i;
    float *h = host_alloc(room, sizeof(float));
    switch (kind) {
    case AT_NEGATIVE:
        gl_fill_float(rng, h, room, -1000.0f, -1.0f);
        break;
    case AT_TIES: /* -10, -9.5, ..., -6.5: about one value in eight is the maximum */
        for (i = 0; i < room; i++)
            h[i] = -10.0f + 0.5f * (float)gl_rng_range(rng, 0, 7);
        break;
    default:
        gl_fill_float(rng, h, room, -1000.0f, 1000.0f);
        break;
    }
    if (kind == AT_MAX_FIRST && n > 0)
        h[0] = 5000.0f;
    if (kind == AT_MAX_LAST && n > 0)
        h[n - 1] = 5000.0f;
    return h;
}

unsigned *atomics_make_unsigned(gl_rng *rng, int n)
{
    size_t room = (size_t)n + AT_SLACK, i;
    unsigned *h = host_alloc(room, sizeof(unsigned));
    for (i = 0; i < room; i++)
        h[i] = (unsigned)gl_rng_next(rng);
    return h;
}

/* ---- CPU references ---- */

void atomics_count_bytes(const unsigned char *data, int n, unsigned bins[AT_BINS])
{
    int i;
    memset(bins, 0, AT_BINS * sizeof(unsigned));
    for (i = 0; i < n; i++)
        bins[data[i]]++;
}

void atomics_count_values(const int *values, int n, int nbins, unsigned *bins)
{
    int i;
    memset(bins, 0, (size_t)nbins * sizeof(unsigned));
    for (i = 0; i < n; i++)
        bins[values[i]]++;
}

float atomics_max_of(const float *x, int n)
{
    float m = -INFINITY;
    int i;
    for (i = 0; i < n; i++)
        if (x[i] > m)
            m = x[i];
    return m;
}

unsigned atomics_sum_of(const unsigned *x, int n)
{
    unsigned s = 0;
    int i;
    for (i = 0; i < n; i++)
        s += x[i];
    return s;
}

/* ---- checks ---- */

static char why[2048];

/* The input on the device (n + AT_SLACK elements), with guard zones. */
static gl_buf upload_input(const void *h, int n, size_t size)
{
    gl_buf in = gl_buf_alloc(((size_t)n + AT_SLACK) * size, 0);
    gl_buf_upload(&in, h);
    return in;
}

/* After a run: did the launcher write into its read-only input? Sets why. */
static int input_changed(const gl_buf *in, const void *h, const char *name)
{
    gl_guard_report g;
    void *back;
    int changed;
    if (gl_buf_check_guards(in, &g)) {
        snprintf(why, sizeof why, "wrote outside `%s`, which is read-only input", name);
        return 1;
    }
    back = host_alloc(in->bytes, 1);
    gl_buf_download(in, back);
    changed = memcmp(back, h, in->bytes) != 0;
    free(back);
    if (changed)
        snprintf(why, sizeof why, "changed `%s`: the input is read-only", name);
    return changed;
}

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

/* Runs a histogram launcher (bytes: task 1's, else task 2's) on in (n
 * elements) into nbins poisoned bins followed by 64 more poisoned words, and
 * checks them against ref. */
static const char *run_histogram(const char *launcher, int bytes, const gl_buf *in,
                                 const void *h_in, int n, int nbins, const unsigned *ref)
{
    size_t room = (size_t)nbins + 64, i;
    gl_buf bins = gl_buf_alloc(room * sizeof(unsigned), 0);
    unsigned *h_bins = host_alloc(room, sizeof(unsigned));
    gl_guard_report g;
    gl_cmp cmp;

    why[0] = '\0';
    gl_buf_poison(&bins);
    if (bytes)
        atomics_bytes_run(launcher, bins.ptr, in->ptr, n);
    else
        atomics_values_run(launcher, bins.ptr, in->ptr, n, nbins);
    GL_CHECK_LAUNCH(launcher);
    gl_buf_download(&bins, h_bins);
    if (gl_buf_check_guards(&bins, &g)) {
        char d[512];
        gl_guard_describe(&g, bins.bytes, sizeof(unsigned), "bins' allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: only bins[0 .. nbins - 1] are written", d);
    } else if (!input_changed(in, h_in, bytes ? "data" : "values")) {
        for (i = (size_t)nbins; i < room; i++)
            if (h_bins[i] != 0xffffffffu)
                break;
        if (i < room) {
            snprintf(why, sizeof why, "wrote bins[%zu], past the last of its %d bins: the loops "
                     "over the bins stop at nbins, and the memset zeroes nbins words", i, nbins);
        } else if (gl_compare_uint(ref, h_bins, (size_t)nbins, &cmp)) {
            char d[1024], h[600];
            gl_cmp_describe(&cmp, "bins", NULL, NULL, d, sizeof d);
            hist_hint(&cmp, h_bins, nbins, n, h, sizeof h);
            snprintf(why, sizeof why, "%s. %s", d, h);
        }
    }
    gl_buf_free(&bins);
    free(h_bins);
    return why;
}

const char *atomics_check_bytes(const char *launcher, const unsigned char *data, int n)
{
    unsigned ref[AT_BINS];
    gl_buf in = upload_input(data, n, 1);
    atomics_count_bytes(data, n, ref);
    run_histogram(launcher, 1, &in, data, n, AT_BINS, ref);
    gl_buf_free(&in);
    return why;
}

const char *atomics_check_values(const char *launcher, const int *values, int n, int nbins)
{
    unsigned *ref = host_alloc((size_t)nbins, sizeof(unsigned));
    gl_buf in = upload_input(values, n, sizeof(int));
    atomics_count_values(values, n, nbins, ref);
    run_histogram(launcher, 0, &in, values, n, nbins, ref);
    gl_buf_free(&in);
    free(ref);
    return why;
}

/* ---- the float maximum ---- */

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

gl_buf atomics_result_alloc(void)
{
    gl_buf b = gl_buf_alloc(64 * sizeof(float), 0);
    gl_buf_poison(&b);
    return b;
}

const char *atomics_check_max(const float *x, int n, gl_buf *result)
{
    gl_buf in = upload_input(x, n, sizeof(float)), fresh;
    gl_buf *out = result;
    float h[64], expected = atomics_max_of(x, n);
    gl_guard_report g;
    unsigned bits;
    int i;

    why[0] = '\0';
    if (!out) {
        fresh = atomics_result_alloc();
        out = &fresh;
    }
    atomics_max_run(out->ptr, in.ptr, n);
    GL_CHECK_LAUNCH("max_float");
    gl_buf_download(out, h);
    if (gl_buf_check_guards(out, &g)) {
        char d[512];
        gl_guard_describe(&g, out->bytes, sizeof(float), "result's allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: only *result is written", d);
    } else if (!input_changed(&in, x, "x")) {
        for (i = 1; i < 64; i++) {
            memcpy(&bits, &h[i], sizeof bits);
            if (bits != 0xffffffffu)
                break;
        }
        if (i < 64)
            snprintf(why, sizeof why, "wrote result[%d]: only *result (result[0]) is written", i);
        else if (!(h[0] == expected))
            snprintf(why, sizeof why, "*result is %.9g, expected %.9g. %s", h[0], expected,
                     max_hint(expected, h[0]));
    }
    if (!result)
        gl_buf_free(&fresh);
    gl_buf_free(&in);
    return why;
}

/* ---- the last-block sum ---- */

void atomics_sum_begin(atomics_sum_state *s)
{
    unsigned zero = 0;
    s->sum = gl_buf_alloc(64 * sizeof(unsigned), 0);
    s->partials = gl_buf_alloc(AT_SUM_BLOCKS * sizeof(unsigned), 0);
    s->counter = gl_buf_alloc(sizeof(unsigned), 0);
    s->calls = 0;
    gl_buf_poison(&s->partials);
    gl_buf_upload(&s->counter, &zero); /* once, as the header says */
}

void atomics_sum_end(atomics_sum_state *s)
{
    gl_buf_free(&s->sum);
    gl_buf_free(&s->partials);
    gl_buf_free(&s->counter);
}

/* What the sum's outputs say (why stays "" when they are right). */
static void sum_verdict(const unsigned *h_out, unsigned expected, unsigned counter, int again)
{
    int i;
    if (h_out[0] == 0xffffffffu && expected != 0xffffffffu) {
        snprintf(why, sizeof why, "*sum was never written: no block saw itself last. The "
                 "block that draws the last ticket (gridDim.x - 1) from atomicInc(counter, "
                 "gridDim.x - 1) adds the partials and writes *sum%s",
                 again ? "; and this is not the first call: the counter must be back at 0 "
                         "after each call (atomicInc with gridDim.x - 1 wraps it)" : "");
        return;
    }
    if (h_out[0] != expected) {
        snprintf(why, sizeof why, "*sum is %u, expected %u: the last block adds all gridDim.x "
                 "partials (volatile reads: other blocks wrote them), each block's written "
                 "before its ticket (a __threadfence() between the two)",
                 h_out[0], expected);
        return;
    }
    if (counter != 0) {
        snprintf(why, sizeof why, "*sum is right, but the counter is %u after the call, not 0: "
                 "the next call would find no last block. atomicInc(counter, gridDim.x - 1) "
                 "hands out 0 .. gridDim.x - 1 and wraps back to 0 at the last ticket",
                 counter);
        return;
    }
    for (i = 1; i < 64; i++)
        if (h_out[i] != 0xffffffffu) {
            snprintf(why, sizeof why, "wrote sum[%d]: only *sum (sum[0]) is written", i);
            return;
        }
}

const char *atomics_check_sum(atomics_sum_state *state, const unsigned *x, int n)
{
    atomics_sum_state fresh, *s = state;
    gl_buf in = upload_input(x, n, sizeof(unsigned));
    unsigned h_out[64], counter;
    gl_guard_report g;
    int again;

    why[0] = '\0';
    if (!s) {
        atomics_sum_begin(&fresh);
        s = &fresh;
    }
    again = s->calls++ > 0;
    gl_buf_poison(&s->sum);
    atomics_sum_run(s->sum.ptr, in.ptr, n, s->partials.ptr, s->counter.ptr);
    GL_CHECK_LAUNCH("sum_last_block");
    gl_buf_download(&s->sum, h_out);
    gl_buf_download(&s->counter, &counter);
    if (gl_buf_check_guards(&s->sum, &g) || gl_buf_check_guards(&s->partials, &g) ||
        gl_buf_check_guards(&s->counter, &g))
        snprintf(why, sizeof why, "wrote outside *sum, partials[0 .. %d] or *counter: block b "
                 "writes partials[b] only, and the last block *sum", AT_SUM_BLOCKS - 1);
    else if (!input_changed(&in, x, "x"))
        sum_verdict(h_out, atomics_sum_of(x, n), counter, again);
    if (!state)
        atomics_sum_end(&fresh);
    gl_buf_free(&in);
    return why;
}
