/* lab.c: lab 10-reduction described once (lab.h): its launchers and their hints; its problem,
 * timed on inputs made on the GPU, or a call of a row checked on inputs made on the host that
 * tell a wrong sum apart; the demo's run to run. */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GL_INVOKER(call_float, reduce_interleaved, a, a[0].p, a[1].p, a[2].p, (int)a[3].i)
GL_INVOKER(call_int, reduce_grid_stride_int, a, a[0].p, a[1].p, a[2].p, (int)a[3].i)

/* The grid-stride launchers zero *sum with cudaMemsetAsync before their blocks add to it. */
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

/* Random floats are right within FLOAT_BOUND x sum |x_i| of the exact sum: the worst-case
 * rounding of a summation in which no value passes through more than 1024 additions
 * (1024 x 2^-24). */
#define FLOAT_BOUND (1.0 / 16384.0)

/* ---- a checked call of a row (lab.h) ---- */

/* `in` holds PAST_N elements beyond n (and one before, for in + 1), all PAST_N_FLOAT or
 * PAST_N_INT: a kernel that reads past n adds them, and its sum is off by a multiple of that
 * value. */
#define PAST_N 1024
#define PAST_N_FLOAT 1000.0f
#define PAST_N_INT 1000003
#define EXACT_MAX_N (1 << 20) /* integer-valued floats are exact in any order up to this n */

/* Call c of the row's input in words: integer-valued floats on call 1 of floats up to
 * EXACT_MAX_N (*exact), the others random; call 3, and every call with same, at in + *offset
 * = in + 1. */
static const char *input_of(const reduce_size *z, int c, int *exact, int *offset)
{
    *exact = !z->ints && !z->same && c == 1 && z->n <= EXACT_MAX_N;
    *offset = z->same || c == 3;
    if (z->ints)
        return z->wraps ? "random ints in [-2^30, 2^30] (the sum wraps)"
                        : "random ints in [-1000, 1000]";
    return *exact ? "integers in [-16, 16] stored as floats" : "random floats in [-1, 1)";
}

/* Call c's input into dst, made on the host from z->seed (the same for every call with same),
 * its sums, exact and offset into z: the last input made is the one of the call that runs next. */
static void make_input(reduce_size *z, int c, void *dst)
{
    input_of(z, c, &z->exact, &z->offset);
    size_t n = (size_t)z->n, count = n + 1 + PAST_N, at = (size_t)z->offset;
    float *f = gl_host_alloc(count * sizeof(float));
    int *x = (int *)f, lo = z->wraps ? -(1 << 30) : -1000;
    gl_rng rng;
    gl_rng_init(&rng, z->same ? z->seed : gl_problem_seed(z->seed, c), "reduction input");
    z->sum = z->abs_sum = 0.0;
    z->int_sum = 0;
    if (z->ints) {
        for (size_t i = 0; i < count; i++)
            x[i] = PAST_N_INT;
        gl_fill_int(&rng, x + at, n, lo, -lo);
        for (size_t i = at; i < at + n; i++)
            z->int_sum += (unsigned)x[i]; /* wraps modulo 2^32, like the GPU's */
        if (z->int_sum == 0xffffffffu && n > 0) { /* the poison: an unwritten *sum would pass */
            x[at] += 1;
            z->int_sum += 1;
        }
    } else {
        for (size_t i = 0; i < count; i++)
            f[i] = PAST_N_FLOAT;
        for (size_t i = at; i < at + n; i++) {
            f[i] = z->exact ? (float)gl_rng_range(&rng, -16, 16) : gl_rng_float(&rng, -1.0f, 1.0f);
            z->sum += f[i]; /* exact for the integer-valued input */
            z->abs_sum += fabs(f[i]);
        }
    }
    GL_CUDA(cudaMemcpy(dst, f, count * sizeof(float), cudaMemcpyHostToDevice));
    free(f);
}

/* The checked call's *sum against the exact sum of its input, which gl_problem_check has
 * found unchanged; with same, also against the first call's bits. */
static const char *call_verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const reduce_size *z = ctx;
    const char *lesson = hint(z->launcher);
    union { unsigned u; float f; } got; /* *sum's bits, and its float */
    (void)seed;
    GL_CUDA(cudaMemcpy(&got, buf[1], sizeof got, cudaMemcpyDeviceToHost));
    unsigned off = got.u - z->int_sum;
    double diff = (double)got.f - z->sum, bound = z->exact ? 0.0 : FLOAT_BOUND * z->abs_sum;
    why[0] = '\0';
    if (got.u == 0xffffffffu)
        snprintf(why, sizeof why, "*sum was never written (still the poison%s). %s",
                 z->ints ? ", -1" : "", lesson);
    else if (z->ints && off != 0)
        snprintf(why, sizeof why, "*sum is %d, expected %d (off by %d): the int sum is exact, "
                 "wrapping modulo 2^32, in any order; an element dropped, counted twice%s, or "
                 "a sum kept in a float (which rounds large values)? %s",
                 (int)got.u, (int)z->int_sum, (int)off,
                 off % PAST_N_INT == 0 ? " or read past n (the elements past n hold 1000003 "
                                         "here)" : "",
                 lesson);
    else if (!z->ints && isnan(got.f))
        snprintf(why, sizeof why, "*sum is NaN: the sum took in a value nobody wrote (the "
                 "poison in partial[] or in *sum, which the grader fills with NaN before the "
                 "call). %s", lesson);
    else if (!z->ints && fabs(diff) > bound && z->exact)
        snprintf(why, sizeof why, "*sum is %.1f, expected exactly %.1f (off by %.1f): on this "
                 "input every order of the additions gives the exact sum, so an element was "
                 "dropped or counted twice%s. %s",
                 (double)got.f, z->sum, diff,
                 floor(diff / PAST_N_FLOAT) == diff / PAST_N_FLOAT && diff > 0
                     ? ", or the kernel read past n (the elements past n hold 1000 here, and "
                       "it is off by a multiple of 1000)"
                     : "",
                 lesson);
    else if (!z->ints && fabs(diff) > bound)
        snprintf(why, sizeof why, "*sum is %.9g, expected %.9g within %.3g (off by %.3g): more "
                 "than rounding; an element dropped, counted twice or read past n (the elements "
                 "past n hold 1000 here)? %s",
                 (double)got.f, z->sum, bound, diff, lesson);
    if (z->same && z->call > 1 && why[0])
        snprintf(why + strlen(why), sizeof why - strlen(why), ". This is not the first call: "
                 "blocks_done must be back at 0 after each launch (atomicInc with "
                 "gridDim.x - 1 wraps it at the last ticket)");
    else if (z->same && z->call > 1 && memcmp(&got.f, &z->first, sizeof z->first))
        snprintf(why, sizeof why, "*sum is %.9g, and %.9g on call 1, on the same input: the "
                 "order of the additions changed between runs. The last block adds "
                 "partial[0 .. gridDim.x - 1] in a fixed order (thread t takes t, "
                 "t + blockDim.x, ..., then block_sum), and each block's partial comes from "
                 "the same elements in the same order; no float atomicAdd",
                 (double)got.f, (double)z->first);
    return why;
}

/* ---- the problem (lab.h): timed, or a checked call ---- */

/* The floats' mean moves with the seed, by a multiple of 2^-10 up to 1/64 either way: a sum
 * left over from another call is off by a multiple of n / 1024, far beyond the error bound,
 * unless the two means happen to be the same (1 in 33). */
#define MEAN_STEPS 16
#define MEAN_STEP (1.0f / 1024)

/* The input: a checked call's made on the host (make_input), the timed problem's on the GPU. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    reduce_size *z = ctx;
    unsigned long long x = (seed ^ (seed >> 31)) * 0xbf58476d1ce4e5b9ull;
    float mean = (float)((int)((x >> 40) % (2 * MEAN_STEPS + 1)) - MEAN_STEPS) * MEAN_STEP;
    (void)k;
    z->seed = seed;
    if (z->checked)
        make_input(z, z->call, dst);
    else if (z->ints)
        gl_device_fill_int(dst, (size_t)z->n, -1000, 1000, seed);
    else
        gl_device_fill_float(dst, (size_t)z->n, -1.0f + mean, 1.0f + mean, seed);
}

/* Runs launcher (in the demo the linked one; in the grader the student's in its own process,
 * or the kit's own) on n elements of in: floats, or ints for reduce_grid_stride_int. A checked
 * call runs its row: calls 1 .. z->call on the same buffers, each on its own input with *sum
 * and partial poisoned, as the earlier calls' own checks found them; the last is checked. */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    reduce_size *z = ctx;
    if (!strcmp(launcher, "gl_copy")) {
        gl_copy(buf[1], buf[0], (size_t)z->n * sizeof(float));
        return;
    }
    for (int c = z->checked; c <= z->call; c++) { /* c 0: the timed problem's one call */
        if (z->call > 1) { /* a call alone finds them as gl_problem_check made them */
            make_input(z, c, buf[0]);
            GL_CUDA(cudaMemset(buf[1], GL_POISON_BYTE, sizeof(float)));
            GL_CUDA(cudaMemset(buf[2], GL_POISON_BYTE,
                               (size_t)reduce_partials(z->n) * sizeof(float)));
        }
        gl_arg a[] = {GL_P(buf[1]), GL_P(buf[2]), GL_P((float *)buf[0] + z->offset), GL_I(z->n)};
        gl_exec(launcher, a); /* ints: 4 bytes too */
        if (c < z->call)
            GL_CHECK_LAUNCH(launcher);
        if (c == 1 && z->call > 1) /* what the later calls of a row with same must give again */
            GL_CUDA(cudaMemcpy(&z->first, buf[1], sizeof(float), cudaMemcpyDeviceToHost));
    }
}

/* The ints' reference: their sum modulo 2^32, as the GPU's wraps. */
static void int_sum(void *ctx, void *const *buf)
{
    unsigned sum = gl_device_sum_words(buf[0], (size_t)((const reduce_size *)ctx)->n);
    GL_CUDA(cudaMemcpy(buf[1], &sum, sizeof sum, cudaMemcpyHostToDevice));
}

gl_problem reduce_problem(const char *launcher, void *size)
{
    reduce_size *z = size;
    size_t bytes = (size_t)z->n * sizeof(float);
    int copy = !strcmp(launcher, "gl_copy");
    z->ints = !strcmp(launcher, "reduce_grid_stride_int");
    z->checked = z->call > 0 && !copy;
    z->launcher = launcher;
    const char *input = input_of(z, z->call, &z->exact, &z->offset);
    gl_problem p = {
        .what = z->what, .inputs = 1, .outputs = copy ? 1 : 2, .ctx = z, .make = problem_make,
        .call = problem_call, .verify = z->checked ? call_verify : NULL, .inputs_read_only = 1,
        .reference = z->checked || z->ints ? NULL : copy ? "gl_copy" : "reduce_interleaved",
        .reference_fn = z->ints && !z->checked ? int_sum : NULL, .hint = z->hint,
        .work = (copy ? 2.0 : 1.0) * (double)bytes, .sets = REDUCE_SETS, .rounds = 5};
    p.buf[0] = (gl_problem_buf){
        .name = "in", .bytes = bytes + (z->checked ? (1 + PAST_N) * sizeof(float) : 0),
        .outside = "`in` is read-only input (add in registers and shared memory, or in partial[])"};
    p.buf[1] = (gl_problem_buf){
        .name = "*sum", .bytes = sizeof(float), .cmp = z->ints ? GL_CMP_WORDS : GL_CMP_FLOAT,
        .atol = z->ints ? 0.0 : FLOAT_BOUND * z->n * (1.0 + MEAN_STEPS * MEAN_STEP),
        .outside = "the result is one element, sum[0]"};
    p.buf[2] = (gl_problem_buf){.name = "partial",
                                .bytes = (size_t)reduce_partials(z->n) * sizeof(float),
                                .scratch = 1, .outside = "block b writes partial[b] only"};
    if (copy)
        p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes};
    char row[64] = "";
    if (z->same)
        snprintf(row, sizeof row, ", call %d of a row on the same input", z->call);
    snprintf(z->what, sizeof z->what, "at n = %d (random %s)", z->n, z->ints ? "ints" : "floats");
    if (z->checked) /* its own input, where it starts, and its place in the row */
        snprintf(z->what, sizeof z->what, "with n = %d, %s%s%s%s", z->n, input,
                 z->offset ? ", starting at in + 1 (not 16-byte aligned)" : "", row,
                 !z->same && z->call == 2
                     ? " (the second call on the same buffers, with new numbers: the first was "
                       "right. Did the first call leave something behind, or is a sum remembered?)"
                     : "");
    snprintf(z->hint, sizeof z->hint, "every call must add up the whole of its own input "
             "(expected: %s)%s%s", z->ints ? "its int sum, wrapping modulo 2^32"
                                           : "the kit's reduce_interleaved of it",
             *hint(launcher) ? ". " : "", hint(launcher));
    return p;
}

/* ---- the demo's run to run ---- */

const char *reduce_twice(const char *launcher, reduce_size *z, int exact)
{
    static char said[256];
    gl_problem p = reduce_problem(launcher, z);
    gl_buf b[3] = {gl_problem_alloc(&p.buf[0], 0), gl_problem_alloc(&p.buf[1], 0),
                   gl_problem_alloc(&p.buf[2], 0)};
    void *buf[3] = {b[0].ptr, b[1].ptr, b[2].ptr};
    union { float f[2]; unsigned u[2]; } sums; /* the two sums, and their bits */
    unsigned bits = 0;
    char more[64] = "";
    gl_problem_make(&p, 0, buf[0], gl_problem_seed(gl_seed(), 0));
    for (int i = 0; i < 2; i++) {
        p.call(p.ctx, launcher, buf);
        gl_buf_download(&b[1], &sums.f[i]);
    }
    for (unsigned x = sums.u[0] ^ sums.u[1]; x; x &= x - 1)
        bits++;
    if (exact) { /* in double, on the host */
        float *in = gl_host_alloc(p.buf[0].bytes);
        double sum = 0.0;
        gl_buf_download(&b[0], in);
        for (int i = 0; i < z->n; i++)
            sum += in[i];
        snprintf(more, sizeof more, "; the exact sum is %.9g", sum);
        free(in);
    }
    snprintf(said, sizeof said, "%s twice: %.9g and %.9g (%u bits differ%s)", launcher,
             (double)sums.f[0], (double)sums.f[1], bits, more);
    for (int i = 0; i < 3; i++)
        gl_buf_free(&b[i]);
    return said;
}
