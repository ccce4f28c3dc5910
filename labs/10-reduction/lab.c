/* lab.c: lab 10-reduction described once (lab.h). */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*float_fn)(float *sum, float *partial, const float *in, int n);
typedef void (*int_fn)(int *sum, int *partial, const int *in, int n);

static long long call_float(void *fn, const gl_arg *a)
{
    ((float_fn)fn)((float *)a[0].p, (float *)a[1].p, (const float *)a[2].p, (int)a[3].i);
    return 0;
}

static long long call_int(void *fn, const gl_arg *a)
{
    ((int_fn)fn)((int *)a[0].p, (int *)a[1].p, (const int *)a[2].p, (int)a[3].i);
    return 0;
}

/* The grid-stride launchers zero *sum with cudaMemsetAsync before their
 * blocks add to it. */
const gl_launcher LAB_LAUNCHERS[] = {
    {"reduce_interleaved", "pppi", call_float, GL_GIVEN},
    {"reduce_sequential", "pppi", call_float, 0},
    {"reduce_first_add", "pppi", call_float, 0},
    {"reduce_shuffle", "pppi", call_float, 0},
    {"reduce_grid_stride", "pppi", call_float, GL_MAY_MEMSET},
    {"reduce_grid_stride_int", "pppi", call_int, GL_MAY_MEMSET},
    {"reduce_last_block", "pppi", call_float, 0},
    {NULL, NULL, NULL, 0},
};

void reduce_float(const char *name, float *sum, float *partial, const float *in, int n)
{
    gl_arg a[] = {GL_P(sum), GL_P(partial), GL_P(in), GL_I(n)};
    gl_exec(name, a);
}

void reduce_int(const char *name, int *sum, int *partial, const int *in, int n)
{
    gl_arg a[] = {GL_P(sum), GL_P(partial), GL_P(in), GL_I(n)};
    gl_exec(name, a);
}

int reduce_sums_ints(const char *name)
{
    return !strcmp(name, "reduce_grid_stride_int");
}

/* The buffer holds PAST_N elements beyond n (and one before, for in + 1),
 * all set to PAST_N_FLOAT or PAST_N_INT: a kernel that reads past n adds
 * them, and its sum is off by a multiple of that value. */
#define PAST_N 1024
#define PAST_N_FLOAT 1000.0f
#define PAST_N_INT 1000003
#define INTEGER_VALUED_MAX 16

const char *reduce_input_name(reduce_input kind)
{
    static const char *names[] = {"integers in [-16, 16] stored as floats",
                                  "random floats in [-1, 1)", "random ints in [-1000, 1000]",
                                  "random ints in [-2^30, 2^30] (the sum wraps)"};
    return names[kind];
}

/* What each launcher must get right, in the handout's words. */
static const char *hint(const char *name)
{
    if (!strcmp(name, "reduce_sequential"))
        return "Task 1: for s = blockDim.x / 2 down to 1, the threads tid < s add sdata[tid + s] "
               "into sdata[tid], with a __syncthreads() after every step";
    if (!strcmp(name, "reduce_first_add"))
        return "Task 2: block b starts at element 2 * b * blockDim.x; thread tid adds in[i] and "
               "in[i + blockDim.x], each only when it is below n; then task 1's tree";
    if (!strcmp(name, "reduce_shuffle"))
        return "Task 3: task 2's load, the tree only while s > 32, then the first warp adds "
               "sdata[tid] + sdata[tid + 32] and warp_sum shuffles down by 16, 8, 4, 2 and 1 "
               "with the full mask 0xffffffff";
    if (!strcmp(name, "reduce_grid_stride") || !strcmp(name, "reduce_grid_stride_int"))
        return "Task 4: stride = gridDim.x * blockDim.x; the loop takes in[i], in[i + stride], "
               "in[i + 2 stride], in[i + 3 stride] while i + 3 stride < n, then the tail one "
               "stride at a time while i < n; block_sum sums each warp, then the warps' sums "
               "(zeros past blockDim.x / 32); thread 0 adds the block's sum with atomicAdd "
               "to a *sum the launcher zeroed first";
    if (!strcmp(name, "reduce_last_block"))
        return "Task 5: each block writes its sum to partial[blockIdx.x], then __threadfence(), "
               "then atomicInc(&blocks_done, gridDim.x - 1); the block that draws gridDim.x - 1 "
               "adds partial[0 .. gridDim.x - 1] and writes *sum";
    return "";
}

void reduce_bufs_alloc(reduce_bufs *b, int n)
{
    b->n = n;
    b->in = gl_buf_alloc(((size_t)n + 1 + PAST_N) * sizeof(float), 0);
    b->sum = gl_buf_alloc(sizeof(float), 0);
    b->partial = gl_buf_alloc((size_t)reduce_partials(n) * sizeof(float), 0);
}

void reduce_bufs_free(reduce_bufs *b)
{
    gl_buf_free(&b->in);
    gl_buf_free(&b->sum);
    gl_buf_free(&b->partial);
}

void reduce_make(reduce_data *d, gl_rng *rng, reduce_input kind, int n, int offset)
{
    size_t room = (size_t)n + 1 + PAST_N, i;
    d->kind = kind;
    d->n = n;
    d->offset = offset;
    d->host = malloc(room * sizeof(float));
    d->sum = d->abs_sum = 0.0;
    d->int_sum = 0;
    if (!d->host)
        gl_fail("out of host memory for n = %d", n);
    if (kind == REDUCE_INTEGER_VALUED || kind == REDUCE_RANDOM_FLOATS) {
        float *x = d->host;
        for (i = 0; i < room; i++)
            x[i] = PAST_N_FLOAT;
        x += offset;
        for (i = 0; i < (size_t)n; i++) {
            x[i] = kind == REDUCE_INTEGER_VALUED
                       ? (float)gl_rng_range(rng, -INTEGER_VALUED_MAX, INTEGER_VALUED_MAX)
                       : gl_rng_float(rng, -1.0f, 1.0f);
            d->sum += x[i]; /* exact for the integer-valued input */
            d->abs_sum += fabs(x[i]);
        }
    } else {
        int *x = d->host;
        for (i = 0; i < room; i++)
            x[i] = PAST_N_INT;
        x += offset;
        if (kind == REDUCE_WRAPPING_INTS)
            gl_fill_int(rng, x, (size_t)n, -(1 << 30), 1 << 30);
        else
            gl_fill_int(rng, x, (size_t)n, -1000, 1000);
        for (i = 0; i < (size_t)n; i++)
            d->int_sum += (unsigned)x[i]; /* wraps modulo 2^32, like the GPU's */
        /* never a sum equal to the poison (-1): an unwritten *sum would pass */
        if (d->int_sum == 0xffffffffu && n > 0) {
            x[0] += 1;
            d->int_sum++;
        }
    }
}

void reduce_data_free(reduce_data *d)
{
    free(d->host);
    d->host = NULL;
}

/* Is got right for the exact sum (floats)? Writes why not. */
static int float_sum_wrong(const char *name, float got, const reduce_data *d, char *why,
                           size_t len)
{
    int exact = d->kind == REDUCE_INTEGER_VALUED;
    double bound = exact ? 0.0 : REDUCE_FLOAT_BOUND * d->abs_sum;
    double diff = (double)got - d->sum, steps = diff / PAST_N_FLOAT;
    unsigned bits;

    memcpy(&bits, &got, sizeof bits);
    if (bits == 0xffffffffu)
        snprintf(why, len, "*sum was never written (still the poison). %s", hint(name));
    else if (isnan(got))
        snprintf(why, len, "*sum is NaN: the sum took in a value nobody wrote (the poison in "
                 "partial[] or in *sum, which the grader fills with NaN before the call). %s",
                 hint(name));
    else if (fabs(diff) <= bound)
        return 0;
    else if (exact)
        snprintf(why, len, "*sum is %.1f, expected exactly %.1f (off by %.1f): on this input "
                 "every order of the additions gives the exact sum, so an element was dropped "
                 "or counted twice%s. %s",
                 (double)got, d->sum, diff,
                 steps == floor(steps) && steps > 0
                     ? ", or the kernel read past n (the elements past n hold 1000 here, and "
                       "it is off by a multiple of 1000)"
                     : "",
                 hint(name));
    else
        snprintf(why, len, "*sum is %.9g, expected %.9g within %.3g (off by %.3g): more than "
                 "rounding; an element dropped, counted twice or read past n (the elements "
                 "past n hold 1000 here)? %s",
                 (double)got, d->sum, bound, diff, hint(name));
    return 1;
}

static void int_sum_wrong(const char *name, unsigned got, const reduce_data *d, char *why,
                          size_t len)
{
    unsigned diff = got - d->int_sum;
    if (got == 0xffffffffu)
        snprintf(why, len, "*sum was never written (still the poison, -1). %s", hint(name));
    else if (got != d->int_sum)
        snprintf(why, len, "*sum is %d, expected %d (off by %d): the int sum is exact, "
                 "wrapping modulo 2^32, in any order; an element dropped, counted twice%s, or "
                 "a sum kept in a float (which rounds large values)? %s",
                 (int)got, (int)d->int_sum, (int)diff,
                 diff % PAST_N_INT == 0 ? " or read past n (the elements past n hold 1000003 "
                                          "here)" : "",
                 hint(name));
}

/* The guards of the three buffers, and `in` unchanged. */
static int buffers_wrong(const reduce_bufs *b, const void *h_in, char *why, size_t len)
{
    gl_guard_report g;
    void *back;
    int changed;
    if (gl_buf_check_guards(&b->sum, &g)) {
        snprintf(why, len, "wrote outside *sum: the result is one element, sum[0]");
        return 1;
    }
    if (gl_buf_check_guards(&b->partial, &g)) {
        snprintf(why, len, "wrote outside partial[0 .. %zu]: block b writes partial[b] only",
                 b->partial.bytes / sizeof(float) - 1);
        return 1;
    }
    if (gl_buf_check_guards(&b->in, &g)) {
        snprintf(why, len, "wrote outside `in`, which is read-only input");
        return 1;
    }
    back = malloc(b->in.bytes);
    if (!back)
        gl_fail("out of host memory for n = %d", b->n);
    gl_buf_download(&b->in, back);
    changed = memcmp(back, h_in, b->in.bytes) != 0;
    free(back);
    if (changed)
        snprintf(why, len, "changed `in`: the input is read-only (add in registers and shared "
                 "memory, or in partial[])");
    return changed;
}

const char *reduce_check(const char *launcher, reduce_bufs *b, const reduce_data *d,
                         unsigned *bits)
{
    static char why[2048];
    int ints = reduce_sums_ints(launcher);
    unsigned got;

    if (b->n != d->n || ints != (d->kind >= REDUCE_SMALL_INTS))
        gl_fail("reduce_check: %s on an input of n = %d (%s) in buffers for n = %d (a bug of "
                "the kit)", launcher, d->n, reduce_input_name(d->kind), b->n);
    why[0] = '\0';
    gl_buf_upload(&b->in, d->host);
    gl_buf_poison(&b->sum);
    gl_buf_poison(&b->partial);
    if (ints)
        reduce_int(launcher, b->sum.ptr, b->partial.ptr, (const int *)b->in.ptr + d->offset,
                   d->n);
    else
        reduce_float(launcher, b->sum.ptr, b->partial.ptr,
                     (const float *)b->in.ptr + d->offset, d->n);
    GL_CHECK_LAUNCH(launcher);
    if (buffers_wrong(b, d->host, why, sizeof why))
        return why;
    gl_buf_download(&b->sum, &got);
    if (bits)
        *bits = got;
    if (ints) {
        int_sum_wrong(launcher, got, d, why, sizeof why);
    } else {
        float f;
        memcpy(&f, &got, sizeof f);
        float_sum_wrong(launcher, f, d, why, sizeof why);
    }
    return why;
}

/* ---- the problem (lab.h) ---- */

/* The floats' mean moves with the seed, by a multiple of 2^-10 up to 1/64 either way: a sum
 * left over from another call is off by a multiple of n / 1024, far beyond the error bound,
 * unless the two means happen to be the same (1 in 33). */
#define MEAN_STEPS 16
#define MEAN_STEP (1.0f / 1024)

static float mean_of(unsigned long long seed)
{
    unsigned long long x = (seed ^ (seed >> 31)) * 0xbf58476d1ce4e5b9ull;
    return (float)((int)((x >> 40) % (2 * MEAN_STEPS + 1)) - MEAN_STEPS) * MEAN_STEP;
}

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const reduce_size *z = ctx;
    float mean = mean_of(seed);
    (void)k;
    if (z->ints)
        gl_device_fill_int(dst, (size_t)z->n, -1000, 1000, seed);
    else
        gl_device_fill_float(dst, (size_t)z->n, -1.0f + mean, 1.0f + mean, seed);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const reduce_size *z = ctx;
    if (!strcmp(launcher, "gl_copy"))
        gl_copy(buf[1], buf[0], (size_t)z->n * sizeof(float));
    else if (reduce_sums_ints(launcher))
        reduce_int(launcher, buf[1], buf[2], buf[0], z->n);
    else
        reduce_float(launcher, buf[1], buf[2], buf[0], z->n);
}

/* The ints' reference: their sum modulo 2^32, as the GPU's wraps. */
static void int_sum(void *ctx, void *const *buf)
{
    unsigned sum = gl_device_sum_words(buf[0], (size_t)((const reduce_size *)ctx)->n);
    GL_CUDA(cudaMemcpy(buf[1], &sum, sizeof sum, cudaMemcpyHostToDevice));
}

static void copy_of(void *ctx, void *const *buf)
{
    gl_device_copy_words_strided(buf[1], 1, buf[0], 1, (size_t)((const reduce_size *)ctx)->n);
}

gl_problem reduce_problem(const char *launcher, void *size)
{
    reduce_size *z = size;
    size_t bytes = (size_t)z->n * sizeof(float);
    int copy = !strcmp(launcher, "gl_copy");
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = copy ? 1 : 2, .ctx = z,
                    .make = problem_make, .call = problem_call, .inputs_read_only = 1,
                    .hint = z->hint, .work = (copy ? 2.0 : 1.0) * (double)bytes,
                    .sets = REDUCE_SETS, .rounds = 5};
    z->ints = reduce_sums_ints(launcher);
    snprintf(z->what, sizeof z->what, "at n = %d", z->n);
    snprintf(z->hint, sizeof z->hint, "every call must add up the whole of its own input "
             "(expected: %s)%s%s", z->ints ? "its int sum, wrapping modulo 2^32"
                                           : "the kit's reduce_interleaved of it",
             *hint(launcher) ? ". " : "", hint(launcher));
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = bytes};
    if (copy) {
        p.reference_fn = copy_of;
        p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes};
        return p;
    }
    if (z->ints)
        p.reference_fn = int_sum;
    else
        p.reference = "reduce_interleaved";
    p.buf[1] = (gl_problem_buf){
        .name = "*sum", .bytes = sizeof(float), .cmp = z->ints ? GL_CMP_WORDS : GL_CMP_FLOAT,
        .atol = z->ints ? 0.0 : REDUCE_FLOAT_BOUND * z->n * (1.0 + MEAN_STEPS * MEAN_STEP)};
    p.buf[2] = (gl_problem_buf){.name = "partial",
                                .bytes = (size_t)reduce_partials(z->n) * sizeof(float),
                                .scratch = 1};
    return p;
}

/* ---- the demo's run to run ---- */

const char *reduce_twice(const char *launcher, reduce_size *z, unsigned long long seed,
                         int exact)
{
    static char said[256];
    gl_problem p = reduce_problem(launcher, z);
    gl_buf b[3];
    void *buf[3];
    float s[2], *in = exact ? malloc(p.buf[0].bytes + 1) : NULL;
    unsigned u[2], x, bits = 0;
    double sum = 0.0;
    char more[64] = "";
    int i;
    if (exact && !in)
        gl_fail("out of host memory for n = %d", z->n);
    for (i = 0; i < 3; i++) {
        b[i] = gl_buf_alloc(p.buf[i].bytes, 0);
        buf[i] = b[i].ptr;
    }
    p.make(p.ctx, 0, buf[0], gl_problem_seed(seed, 0));
    for (i = 0; i < 2; i++) {
        p.call(p.ctx, launcher, buf);
        gl_buf_download(&b[1], &s[i]);
    }
    memcpy(u, s, sizeof u);
    for (x = u[0] ^ u[1]; x; x &= x - 1)
        bits++;
    if (exact) {
        gl_buf_download(&b[0], in);
        for (i = 0; i < z->n; i++)
            sum += in[i];
        snprintf(more, sizeof more, "; the exact sum is %.9g", sum);
    }
    snprintf(said, sizeof said, "%s twice: %.9g and %.9g (%u bits differ%s)", launcher,
             (double)s[0], (double)s[1], bits, more);
    free(in);
    for (i = 0; i < 3; i++)
        gl_buf_free(&b[i]);
    return said;
}
