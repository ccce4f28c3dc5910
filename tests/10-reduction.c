/* 10-reduction.c: the grader's suite for lab 10-reduction.
 *
 *   correctness  every launcher on tiny, odd and large n: exact on floats
 *                that are small integers (every partial sum is an integer
 *                below 2^24, so every order of the additions gives the exact
 *                sum) and within an error bound on random floats; ints
 *                exact, also when the sum wraps past 2^31; *sum and partial
 *                poisoned, guard zones around sum, partial and in, `in`
 *                unchanged, the elements past n set to a value that a read
 *                past n would add; the grid-stride kernels also at in + 1;
 *                reduce_last_block gives the same bits every run and the
 *                next call is still right (the counter resets); the
 *                launchers return at once
 *   technique    the sequential tree has no tid % (2 s) (no rem in its PTX;
 *                the given interleaved one has, so the test can tell) and a
 *                barrier per step; the shuffle and grid-stride kernels use
 *                shfl.sync.down; the grid-stride kernels add with a global
 *                atomic; the last-block kernel has a fence and atomicInc
 *   performance  against the lab's own interleaved kernel, and against the
 *                copy bandwidth measured in the same run (no absolute times)
 *
 * No profile tests: the counters that tell the rungs apart (threads per
 * instruction, shared wavefronts) are dominated by the loads and the rem's
 * own instructions; the timings say it better. */
#include "grader.h"
#include "inspect.h"

#include "gpulabs.h"
#include "reduction.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*float_fn)(float *sum, float *partial, const float *in, int n);
typedef void (*int_fn)(int *sum, int *partial, const int *in, int n);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define PERF_N (1 << 26) /* elements of the performance tests: 256 MiB, far beyond the L2 */
#define MIN_SEQUENTIAL_OVER_INTERLEAVED 1.5 /* time ratio; H200: 2.00 */
#define MIN_SHUFFLE_OVER_SEQUENTIAL 1.6 /* time ratio; H200: 2.53 */
#define MIN_GRID_STRIDE_PCT_OF_COPY 80.0 /* read GB/s over the copy's; H200: 93.9 */
#define MIN_GRID_STRIDE_INT_PCT_OF_COPY 80.0 /* H200: 94.6 */
#define MIN_LAST_BLOCK_PCT_OF_COPY 80.0 /* H200: 89.7 */

/* Random floats are right within 2^-14 x sum |x_i| of the exact sum: the
 * worst-case rounding of a summation in which no value passes through more
 * than 1024 additions (1024 x 2^-24). The tree kernels are far inside it;
 * on inputs of mixed signs the real error of every kernel is orders of
 * magnitude below it, while a dropped, doubled or stray element is not. */
#define FLOAT_BOUND_FACTOR (1.0 / 16384.0)

/* Small integers stored as floats, in [-16, 16]: with n <= 2^20 every
 * partial sum, in any order, is an integer of magnitude <= 16 n <= 2^24,
 * which a float holds exactly, so the GPU's sum must equal the exact one. */
#define INTEGER_VALUED_MAX 16
#define INTEGER_VALUED_MAX_N (1 << 20)

/* The input holds PAST_N elements beyond n (and one before, for in + 1),
 * all set to PAST_N_FLOAT or PAST_N_INT: a kernel that reads past n adds
 * them, and its sum is off by a multiple of that value. */
#define PAST_N 1024
#define PAST_N_FLOAT 1000.0f
#define PAST_N_INT 1000003

#define BIG ((1 << 20) + 3)
#define HUGE_N ((1 << 22) + 1)

typedef enum { INTEGER_VALUED, RANDOM_FLOATS, SMALL_INTS, WRAPPING_INTS } input;

static const char *input_name(input kind)
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
    return "Task 5: each block writes its sum to partial[blockIdx.x], then __threadfence(), "
           "then atomicInc(&blocks_done, gridDim.x - 1); the block that draws gridDim.x - 1 "
           "adds partial[0 .. gridDim.x - 1] and writes *sum";
}

static size_t room_for(int n, int offset)
{
    return (size_t)offset + (size_t)n + PAST_N;
}

/* in[0 .. n-1] of kind, at h[offset]; the elements around them are the
 * past-n value. */
static void make_floats(float *h, int n, int offset, input kind, gl_rng *rng)
{
    size_t room = room_for(n, offset), i;
    for (i = 0; i < room; i++)
        h[i] = PAST_N_FLOAT;
    for (i = 0; i < (size_t)n; i++)
        h[offset + i] = kind == INTEGER_VALUED
                            ? (float)gl_rng_range(rng, -INTEGER_VALUED_MAX, INTEGER_VALUED_MAX)
                            : gl_rng_float(rng, -1.0f, 1.0f);
}

static void make_ints(int *h, int n, int offset, input kind, gl_rng *rng)
{
    size_t room = room_for(n, offset), i;
    unsigned sum = 0;
    for (i = 0; i < room; i++)
        h[i] = PAST_N_INT;
    if (kind == WRAPPING_INTS)
        gl_fill_int(rng, h + offset, (size_t)n, -(1 << 30), 1 << 30);
    else
        gl_fill_int(rng, h + offset, (size_t)n, -1000, 1000);
    for (i = 0; i < (size_t)n; i++)
        sum += (unsigned)h[offset + i];
    /* never a sum equal to the poison (-1): an unwritten *sum would pass */
    if (sum == 0xffffffffu && n > 0)
        h[offset] += 1;
}

/* The float reference: the exact sum in double (exact for the
 * integer-valued input), and the bound. */
static void float_reference(const float *x, int n, double *sum, double *abs_sum)
{
    int i;
    *sum = 0.0;
    *abs_sum = 0.0;
    for (i = 0; i < n; i++) {
        *sum += x[i];
        *abs_sum += fabs(x[i]);
    }
}

static unsigned int_reference(const int *x, int n)
{
    unsigned s = 0;
    int i;
    for (i = 0; i < n; i++)
        s += (unsigned)x[i]; /* wraps modulo 2^32, like the GPU's */
    return s;
}

static unsigned float_bits(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Is got right for the exact sum ref (sum |x| = abs_sum)? Writes why not. */
static int float_sum_wrong(float got, double ref, double abs_sum, input kind, const char *name,
                           char *why, size_t len)
{
    double bound = kind == INTEGER_VALUED ? 0.0 : FLOAT_BOUND_FACTOR * abs_sum;
    double diff = (double)got - ref, steps;

    if (float_bits(got) == 0xffffffffu) {
        snprintf(why, len, "*sum was never written (still the poison). %s", hint(name));
        return 1;
    }
    if (isnan(got)) {
        snprintf(why, len, "*sum is NaN: the sum took in a value nobody wrote (the poison in "
                 "partial[] or in *sum, which the grader fills with NaN before the call). %s",
                 hint(name));
        return 1;
    }
    if (fabs(diff) <= bound)
        return 0;
    steps = diff / PAST_N_FLOAT;
    if (kind == INTEGER_VALUED)
        snprintf(why, len, "*sum is %.1f, expected exactly %.1f (off by %.1f): on this input "
                 "every order of the additions gives the exact sum, so an element was dropped "
                 "or counted twice%s. %s",
                 (double)got, ref, diff,
                 steps == floor(steps) && steps > 0
                     ? ", or the kernel read past n (the elements past n hold 1000 here, and "
                       "it is off by a multiple of 1000)"
                     : "",
                 hint(name));
    else
        snprintf(why, len, "*sum is %.9g, expected %.9g within %.3g (off by %.3g): more than "
                 "rounding; an element dropped, counted twice or read past n (the elements "
                 "past n hold 1000 here)? %s",
                 (double)got, ref, bound, diff, hint(name));
    return 1;
}

/* Checks the guards of the three buffers and that `in` is unchanged. */
static int buffers_wrong(const gl_buf *sum, const gl_buf *partial, const gl_buf *in,
                         const void *h_in, char *why, size_t len)
{
    gl_guard_report g;
    void *back;
    int changed;
    if (gl_buf_check_guards(sum, &g)) {
        snprintf(why, len, "wrote outside *sum: the result is one element, sum[0]");
        return 1;
    }
    if (gl_buf_check_guards(partial, &g)) {
        snprintf(why, len, "wrote outside partial[0 .. %zu]: block b writes partial[b] only",
                 partial->bytes / sizeof(float) - 1);
        return 1;
    }
    if (gl_buf_check_guards(in, &g)) {
        snprintf(why, len, "wrote outside `in`, which is read-only input");
        return 1;
    }
    back = gl_malloc(in->bytes);
    gl_buf_download(in, back);
    changed = memcmp(back, h_in, in->bytes) != 0;
    free(back);
    if (changed) {
        snprintf(why, len, "changed `in`: the input is read-only (add in registers and shared "
                 "memory, or in partial[])");
        return 1;
    }
    return 0;
}

/* Runs fn once on n elements of kind, starting at in + offset; checks
 * everything about the result. Returns "" or why not (a static buffer).
 * *bits (if not NULL) gets the sum's bits. */
static const char *run_float(float_fn fn, const char *name, int n, input kind, int offset,
                             unsigned *bits)
{
    static char why[2048];
    size_t room = room_for(n, offset);
    float *h_in = gl_malloc(room * sizeof(float)), got;
    gl_buf in = gl_buf_alloc(room * sizeof(float), 0), sum = gl_buf_alloc(sizeof(float), 0),
           partial = gl_buf_alloc((size_t)reduce_partials(n) * sizeof(float), 0);
    double ref, abs_sum;
    gl_rng rng;

    why[0] = '\0';
    gl_test_rng(&rng);
    make_floats(h_in, n, offset, kind, &rng);
    float_reference(h_in + offset, n, &ref, &abs_sum);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&sum);
    gl_buf_poison(&partial);
    fn(sum.ptr, partial.ptr, (const float *)in.ptr + offset, n);
    GL_CHECK_LAUNCH(name);
    if (!buffers_wrong(&sum, &partial, &in, h_in, why, sizeof why)) {
        gl_buf_download(&sum, &got);
        if (bits)
            *bits = float_bits(got);
        float_sum_wrong(got, ref, abs_sum, kind, name, why, sizeof why);
    }
    gl_buf_free(&in);
    gl_buf_free(&sum);
    gl_buf_free(&partial);
    free(h_in);
    return why;
}

static const char *run_int(int_fn fn, const char *name, int n, input kind, int offset)
{
    static char why[2048];
    size_t room = room_for(n, offset);
    int *h_in = gl_malloc(room * sizeof(int)), got;
    gl_buf in = gl_buf_alloc(room * sizeof(int), 0), sum = gl_buf_alloc(sizeof(int), 0),
           partial = gl_buf_alloc((size_t)reduce_partials(n) * sizeof(int), 0);
    unsigned ref;
    gl_rng rng;

    why[0] = '\0';
    gl_test_rng(&rng);
    make_ints(h_in, n, offset, kind, &rng);
    ref = int_reference(h_in + offset, n);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&sum);
    gl_buf_poison(&partial);
    fn(sum.ptr, partial.ptr, (const int *)in.ptr + offset, n);
    GL_CHECK_LAUNCH(name);
    if (!buffers_wrong(&sum, &partial, &in, h_in, why, sizeof why)) {
        gl_buf_download(&sum, &got);
        if ((unsigned)got == 0xffffffffu)
            snprintf(why, sizeof why, "*sum was never written (still the poison, -1). %s",
                     hint(name));
        else if ((unsigned)got != ref) {
            unsigned diff = (unsigned)got - ref;
            snprintf(why, sizeof why, "*sum is %d, expected %d (off by %d): the int sum is "
                     "exact, wrapping modulo 2^32, in any order; an element dropped, counted "
                     "twice%s, or a sum kept in a float (which rounds large values)? %s",
                     got, (int)ref, (int)diff,
                     diff % PAST_N_INT == 0 ? " or read past n (the elements past n hold "
                                              "1000003 here)" : "",
                     hint(name));
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&sum);
    gl_buf_free(&partial);
    free(h_in);
    return why;
}

static const int small[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 511, 512, 513, 1000, 4097, 65537};
#define NSMALL ((int)(sizeof small / sizeof small[0]))

/* Each n of sizes on integer-valued floats (exact; only up to 2^20) and on
 * random floats, the latter at in + offset. */
static void check_float(const char *name, const int *sizes, int nsizes, int offset)
{
    float_fn fn = (float_fn)gl_submission_fn(name);
    int s;
    for (s = 0; s < nsizes; s++) {
        const char *why;
        if (sizes[s] <= INTEGER_VALUED_MAX_N) {
            why = run_float(fn, name, sizes[s], INTEGER_VALUED, 0, NULL);
            if (*why)
                gl_check_fail("%s with n = %d, %s: %s", name, sizes[s],
                              input_name(INTEGER_VALUED), why);
        }
        why = run_float(fn, name, sizes[s], RANDOM_FLOATS, offset, NULL);
        if (*why)
            gl_check_fail("%s with n = %d, %s%s: %s", name, sizes[s], input_name(RANDOM_FLOATS),
                          offset ? ", starting at in + 1 (not 16-byte aligned)" : "", why);
    }
}

static void check_int(const int *sizes, int nsizes, input kind)
{
    int_fn fn = (int_fn)gl_submission_fn("reduce_grid_stride_int");
    int s;
    for (s = 0; s < nsizes; s++) {
        const char *why = run_int(fn, "reduce_grid_stride_int", sizes[s], kind, 0);
        if (*why)
            gl_check_fail("reduce_grid_stride_int with n = %d, %s: %s", sizes[s],
                          input_name(kind), why);
        why = run_int(fn, "reduce_grid_stride_int", sizes[s], kind, 1);
        if (*why)
            gl_check_fail("reduce_grid_stride_int with n = %d, %s, starting at in + 1: %s",
                          sizes[s], input_name(kind), why);
    }
}

static const int large[] = {BIG, HUGE_N};

GL_TEST(sequential_small_n)
{
    check_float("reduce_sequential", small, NSMALL, 0);
}

GL_TEST(sequential_large_n)
{
    check_float("reduce_sequential", large, 2, 0);
}

GL_TEST(first_add_small_n)
{
    check_float("reduce_first_add", small, NSMALL, 0);
}

GL_TEST(first_add_large_n)
{
    check_float("reduce_first_add", large, 2, 0);
}

GL_TEST(shuffle_small_n)
{
    check_float("reduce_shuffle", small, NSMALL, 0);
}

GL_TEST(shuffle_large_n)
{
    check_float("reduce_shuffle", large, 2, 0);
}

GL_TEST(grid_stride_small_n)
{
    check_float("reduce_grid_stride", small, NSMALL, 1);
}

GL_TEST(grid_stride_large_n)
{
    check_float("reduce_grid_stride", large, 2, 1);
}

GL_TEST(grid_stride_int_small_n)
{
    check_int(small, NSMALL, SMALL_INTS);
}

GL_TEST(grid_stride_int_large_n)
{
    check_int(large, 2, SMALL_INTS);
}

GL_TEST(grid_stride_int_wraps)
{
    static const int sizes[] = {2, 1000, 100003};
    check_int(sizes, 3, WRAPPING_INTS);
}

GL_TEST(last_block_small_n)
{
    check_float("reduce_last_block", small, NSMALL, 1);
}

GL_TEST(last_block_large_n)
{
    check_float("reduce_last_block", large, 2, 1);
}

/* Three calls in a row on the same input: each right, all the same bits
 * (a fixed order of the additions), and each after the previous one left
 * the counter where the next call needs it. */
GL_TEST(last_block_repeated)
{
    float_fn fn = (float_fn)gl_submission_fn("reduce_last_block");
    unsigned bits[3];
    int call;
    for (call = 0; call < 3; call++) {
        const char *why = run_float(fn, "reduce_last_block", HUGE_N, RANDOM_FLOATS, 1,
                                    &bits[call]);
        if (*why)
            gl_check_fail("reduce_last_block, call %d of 3 in a row with n = %d, %s: %s%s",
                          call + 1, HUGE_N, input_name(RANDOM_FLOATS), why,
                          call > 0 ? " This is not the first call: blocks_done must be back "
                                     "at 0 after each launch (atomicInc with gridDim.x - 1 "
                                     "wraps it at the last ticket)" : "");
        if (call > 0 && bits[call] != bits[0]) {
            float a, b;
            memcpy(&a, &bits[0], sizeof a);
            memcpy(&b, &bits[call], sizeof b);
            gl_check_fail("reduce_last_block gave %.9g on call 1 and %.9g on call %d, on the "
                          "same input: the order of the additions changed between runs. The "
                          "last block adds partial[0 .. gridDim.x - 1] in a fixed order (thread "
                          "t takes t, t + blockDim.x, ..., then block_sum), and each block's "
                          "partial comes from the same elements in the same order; no float "
                          "atomicAdd",
                          (double)a, (double)b, call + 1);
        }
    }
}

/* The launcher only enqueues its work (gl_expect_queued). */
typedef struct {
    float_fn fn;
    float *sum, *partial;
    const float *in;
    int n;
    double ref, abs_sum;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    q->fn(q->sum, q->partial, q->in, q->n);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    char why[1024];
    float got;
    GL_CUDA(cudaMemcpy(&got, q->sum, sizeof got, cudaMemcpyDeviceToHost));
    return !float_sum_wrong(got, q->ref, q->abs_sum, RANDOM_FLOATS, "", why, sizeof why);
}

static void check_async(const char *name)
{
    const int n = BIG;
    size_t bytes = (size_t)n * sizeof(float);
    float *h_in = gl_malloc(bytes);
    gl_buf staged = gl_buf_alloc(bytes, 0), in = gl_buf_alloc(bytes, 0),
           sum = gl_buf_alloc(sizeof(float), 0),
           partial = gl_buf_alloc((size_t)reduce_partials(n) * sizeof(float), 0);
    queued q = {(float_fn)gl_submission_fn(name), sum.ptr, partial.ptr, in.ptr, n, 0.0, 0.0};
    gl_queue_buffers b = {in.ptr, staged.ptr, bytes, sum.ptr, sizeof(float)};
    gl_rng rng;
    int i;

    gl_test_rng(&rng);
    for (i = 0; i < n; i++)
        h_in[i] = gl_rng_float(&rng, -1.0f, 1.0f);
    float_reference(h_in, n, &q.ref, &q.abs_sum);
    gl_buf_upload(&staged, h_in);
    gl_expect_queued(name, queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&sum);
    gl_buf_free(&partial);
    free(h_in);
}

GL_TEST(grid_stride_async)
{
    check_async("reduce_grid_stride");
}

GL_TEST(last_block_async)
{
    check_async("reduce_last_block");
}

/* ---- technique: read from the PTX, no GPU needed ---- */

static int shuffles_down(const gl_ptx_entry *e)
{
    return gl_ptx_count_with(e, "shfl", ".down");
}

GL_TEST(sequential_tree)
{
    gl_ptx_entry e;
    char *ptx = gl_read_file(gl_baseline_ptx());
    if (!ptx || gl_ptx_entry_find(ptx, "reduce_interleaved_kernel", &e) != 0)
        gl_check_fail("grader: the baselines' PTX (%s) is missing: rebuild the kit with make",
                      gl_baseline_ptx());
    if (gl_ptx_count(&e, "rem") == 0)
        gl_check_fail("grader: the given reduce_interleaved_kernel has no rem in its PTX: this "
                      "compiler turns tid %% (2 * s) into something else, and the test cannot "
                      "tell the two kernels apart");
    free(ptx);
    ptx = gl_kernel_ptx("reduce_sequential_kernel", &e);
    if (gl_ptx_count(&e, "rem") > 0)
        gl_check_fail("reduce_sequential_kernel computes a remainder (%d rem in its PTX): task "
                      "1 picks the active threads by tid < s, not by tid %% (2 * s) == 0",
                      gl_ptx_count(&e, "rem"));
    if (gl_ptx_count(&e, "ld.shared") == 0 || gl_ptx_count(&e, "st.shared") == 0)
        gl_check_fail("reduce_sequential_kernel does not add in shared memory (%d ld.shared, "
                      "%d st.shared): the tree works on the __shared__ sdata[]",
                      gl_ptx_count(&e, "ld.shared"), gl_ptx_count(&e, "st.shared"));
    if (gl_ptx_barriers(&e) < 2)
        gl_check_fail("reduce_sequential_kernel has %d barrier(s) in its PTX: it needs one after "
                      "the load and one after every step of the tree (a missing one passes "
                      "most runs and fails some: the next step reads what other warps wrote)",
                      gl_ptx_barriers(&e));
    free(ptx);
}

GL_TEST(shuffle_last_warp)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx("reduce_shuffle_kernel", &e);
    if (shuffles_down(&e) == 0)
        gl_check_fail("reduce_shuffle_kernel has no shuffle (shfl.sync.down) in its PTX: task 3 "
                      "finishes the last warp's steps in registers with __shfl_down_sync"
                      "%s",
                      gl_ptx_barriers(&e) > 2 || gl_ptx_count(&e, "ld.volatile") > 0
                          ? " (an unrolled last warp in shared memory, without barriers, relies "
                            "on lockstep execution that Volta and later GPUs do not promise)"
                          : "");
    if (gl_ptx_barriers(&e) < 2)
        gl_check_fail("reduce_shuffle_kernel has %d barrier(s) in its PTX: one after the load "
                      "and one after every step of the tree in shared memory",
                      gl_ptx_barriers(&e));
    if (gl_ptx_count(&e, "ld.shared") == 0)
        gl_check_fail("reduce_shuffle_kernel reads no shared memory: task 3 keeps task 2's tree "
                      "down to 64 sums and shuffles only in the last warp");
    free(ptx);
}

static void check_grid_stride_kernel(const char *kernel)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    int adds = gl_ptx_count_with(&e, "atom", ".add") + gl_ptx_count_with(&e, "red", ".add");
    if (shuffles_down(&e) == 0)
        gl_check_fail("%s has no shuffle (shfl.sync.down) in its PTX: task 4's block_sum adds "
                      "within each warp with __shfl_down_sync (warp_sum)",
                      kernel);
    if (adds == 0)
        gl_check_fail("%s has no atomic add in its PTX: each block adds its sum to *sum with "
                      "atomicAdd (one launch, no partials)",
                      kernel);
    free(ptx);
}

GL_TEST(grid_stride_shuffle_atomic)
{
    check_grid_stride_kernel("reduce_grid_stride_kernel");
    check_grid_stride_kernel("reduce_grid_stride_int_kernel");
}

GL_TEST(last_block_ticket)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx("reduce_last_block_kernel", &e);
    int fences = gl_ptx_count(&e, "membar") + gl_ptx_count(&e, "fence");
    if (gl_ptx_count_with(&e, "atom", ".inc") == 0)
        gl_check_fail("reduce_last_block_kernel has no atomicInc (atom.inc) in its PTX: each "
                      "block draws a ticket with atomicInc(&blocks_done, gridDim.x - 1), which "
                      "also wraps the counter back to 0 at the last ticket");
    if (fences == 0)
        gl_check_fail("reduce_last_block_kernel has no memory fence (membar or fence) in its "
                      "PTX: without __threadfence() between writing the partial and drawing "
                      "the ticket, the last block may draw its ticket before another block's "
                      "partial is visible to it, and add a stale one");
    if (gl_ptx_count_with(&e, "atom", ".add") + gl_ptx_count_with(&e, "red", ".add") > 0)
        gl_check_fail("reduce_last_block_kernel adds with atomicAdd: task 5 combines the blocks "
                      "by the last block alone, in a fixed order, so that the float sum is the "
                      "same bits every run");
    if (shuffles_down(&e) == 0)
        gl_check_fail("reduce_last_block_kernel has no shuffle (shfl.sync.down): it uses task "
                      "4's block_sum");
    free(ptx);
}

/* ---- performance: one run, ratios only ---- */

typedef struct {
    float_fn ffn;
    int_fn ifn;
    void *sum, *partial;
    const void *in;
    int n;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    if (j->ffn)
        j->ffn(j->sum, j->partial, j->in, j->n);
    else
        j->ifn(j->sum, j->partial, j->in, j->n);
}

/* The inputs of the performance tests, on the GPU: PERF_N random floats or
 * ints, with their references. */
typedef struct {
    int n;
    gl_buf in, sum, partial;
    double ref, abs_sum;
    unsigned int_ref;
    int ints;
} perf;

static void perf_begin(perf *p, int ints)
{
    size_t bytes = (size_t)PERF_N * sizeof(float);
    void *h = gl_malloc(bytes);
    gl_device_info info;
    gl_rng rng;
    gl_device_require(&info);
    p->n = PERF_N;
    p->ints = ints;
    gl_test_rng(&rng);
    if (ints) {
        gl_fill_int(&rng, h, (size_t)p->n, -1000, 1000);
        p->int_ref = int_reference(h, p->n);
    } else {
        gl_fill_float(&rng, h, (size_t)p->n, -1.0f, 1.0f);
        float_reference(h, p->n, &p->ref, &p->abs_sum);
    }
    p->in = gl_buf_alloc(bytes, 0);
    p->sum = gl_buf_alloc(sizeof(float), 0);
    p->partial = gl_buf_alloc((size_t)reduce_partials(p->n) * sizeof(float), 0);
    gl_buf_upload(&p->in, h);
    free(h);
}

static void perf_end(perf *p)
{
    gl_buf_free(&p->in);
    gl_buf_free(&p->sum);
    gl_buf_free(&p->partial);
}

/* The time of one launcher, whose sum after the timed runs must be right
 * (a launcher that works only once is not timed). */
static double time_ms(perf *p, const char *name, float_fn ffn, int_fn ifn)
{
    job j = {ffn, ifn, p->sum.ptr, p->partial.ptr, p->in.ptr, p->n};
    char why[1024];
    double ms;
    int wrong;
    gl_buf_poison(&p->sum);
    ms = gl_time_ms(run_job, &j, gl_timing_default());
    if (p->ints) {
        unsigned got;
        gl_buf_download(&p->sum, &got);
        wrong = got != p->int_ref;
    } else {
        float got;
        gl_buf_download(&p->sum, &got);
        wrong = float_sum_wrong(got, p->ref, p->abs_sum, RANDOM_FLOATS, name, why, sizeof why);
    }
    if (wrong)
        gl_check_fail("%s is not right at n = %d (after the timed runs), so its speed is not "
                      "graded (the correctness tests say more)",
                      name, p->n);
    return ms;
}

static void expect_faster(const char *fast, const char *slow, int slow_is_given, double min_ratio,
                          const char *why)
{
    perf p;
    double s, f;
    perf_begin(&p, 0);
    s = time_ms(&p, slow, slow_is_given ? (float_fn)gl_baseline_fn(slow)
                                        : (float_fn)gl_submission_fn(slow), NULL);
    f = time_ms(&p, fast, (float_fn)gl_submission_fn(fast), NULL);
    if (s < min_ratio * f)
        gl_check_fail("at n = %d (random floats), %s takes %.3f ms, %.2fx faster than %s%s "
                      "(%.3f ms); it should be at least %.2fx. %s",
                      p.n, fast, f, s / f, slow_is_given ? "the given " : "your ", slow, s,
                      min_ratio, why);
    gl_test_note("%s %.3f ms = %.2fx faster than %s %.3f ms (needs %.2fx)", fast, f, s / f, slow,
                 s, min_ratio);
    perf_end(&p);
}

GL_TEST(sequential_vs_interleaved)
{
    expect_faster("reduce_sequential", "reduce_interleaved", 1, MIN_SEQUENTIAL_OVER_INTERLEAVED,
                  "With tid < s the active threads are contiguous: whole warps finish early, "
                  "no warp diverges until s < 32, and there is no tid % (2 s) to compute");
}

GL_TEST(shuffle_vs_sequential)
{
    expect_faster("reduce_shuffle", "reduce_sequential", 0, MIN_SHUFFLE_OVER_SEQUENTIAL,
                  "Task 3 starts half as many blocks (two elements per thread, added as they "
                  "load) and finishes the last five steps in one warp with shuffles, without "
                  "barriers");
}

/* The read bandwidth of one grid-stride launcher against the copy's. */
static void expect_near_copy(const char *name, int ints, double min_pct)
{
    perf p;
    double copy, ms, gbps;
    perf_begin(&p, ints);
    /* the same bytes as the input; the copy counts them read and written */
    copy = gl_memcpy_gbps((size_t)p.n * sizeof(float));
    ms = ints ? time_ms(&p, name, NULL, (int_fn)gl_submission_fn(name))
              : time_ms(&p, name, (float_fn)gl_submission_fn(name), NULL);
    gbps = gl_gbps((double)p.n * sizeof(float), ms);
    if (gl_percent(gbps, copy) < min_pct)
        gl_check_fail("at n = %d, %s reads %.0f GB/s, %.1f%% of the copy bandwidth (cudaMemcpy "
                      "device to device of the same bytes: %.0f GB/s, read + written); it should "
                      "reach %.0f%%. A fixed grid of a few blocks per SM, four loads in flight "
                      "per thread (four accumulators), and one atomic%s per block",
                      p.n, name, gbps, gl_percent(gbps, copy), copy, min_pct,
                      strcmp(name, "reduce_last_block") ? "" : " (here: one ticket)");
    gl_test_note("%s reads %.0f GB/s = %.1f%% of the copy's %.0f GB/s (needs %.0f%%)", name,
                 gbps, gl_percent(gbps, copy), copy, min_pct);
    perf_end(&p);
}

GL_TEST(grid_stride_pct_of_copy)
{
    expect_near_copy("reduce_grid_stride", 0, MIN_GRID_STRIDE_PCT_OF_COPY);
}

GL_TEST(grid_stride_int_pct_of_copy)
{
    expect_near_copy("reduce_grid_stride_int", 1, MIN_GRID_STRIDE_INT_PCT_OF_COPY);
}

GL_TEST(last_block_pct_of_copy)
{
    expect_near_copy("reduce_last_block", 0, MIN_LAST_BLOCK_PCT_OF_COPY);
}

/* Under Nsight Compute: one float launcher ("given:NAME" for the lab's
 * own), once, on n random floats; checked. (No profile test uses it yet.) */
static const char *run_once(int argc, char **argv)
{
    static const char *names[] = {"reduce_interleaved", "reduce_sequential", "reduce_first_add",
                                  "reduce_shuffle", "reduce_grid_stride", "reduce_last_block"};
    const char *name;
    int k;
    long n;

    if (argc != 2 || gl_parse_long(argv[1], 0, 1L << 28, &n))
        return "usage: --run [given:]LAUNCHER N";
    name = gl_launcher_name(argv[0]);
    for (k = 0; k < 6; k++)
        if (!strcmp(name, names[k]))
            break;
    if (k == 6)
        return "usage: --run [given:]LAUNCHER N (no such float launcher)";
    return run_float((float_fn)gl_launcher_fn(argv[0]), name, (int)n, RANDOM_FLOATS, 0, NULL);
}

static void add_tests(void)
{
    GL_ADD(sequential_small_n, GL_CORRECTNESS, 2, 15, "sequential, n = 0 .. 65537");
    GL_ADD(sequential_large_n, GL_CORRECTNESS, 2, 15, "sequential, n = 2^20 + 3, 2^22 + 1");
    GL_ADD(first_add_small_n, GL_CORRECTNESS, 2, 15, "first add, n = 0 .. 65537");
    GL_ADD(first_add_large_n, GL_CORRECTNESS, 2, 15, "first add, n = 2^20 + 3, 2^22 + 1");
    GL_ADD(shuffle_small_n, GL_CORRECTNESS, 2, 15, "shuffle, n = 0 .. 65537");
    GL_ADD(shuffle_large_n, GL_CORRECTNESS, 2, 15, "shuffle, n = 2^20 + 3, 2^22 + 1");
    GL_ADD(grid_stride_small_n, GL_CORRECTNESS, 2, 15, "grid-stride, n = 0 .. 65537, in + 1");
    GL_ADD(grid_stride_large_n, GL_CORRECTNESS, 2, 15,
           "grid-stride, n = 2^20 + 3, 2^22 + 1, in + 1");
    GL_ADD(grid_stride_int_small_n, GL_CORRECTNESS, 2, 15, "grid-stride int, n = 0 .. 65537");
    GL_ADD(grid_stride_int_large_n, GL_CORRECTNESS, 2, 15,
           "grid-stride int, n = 2^20 + 3, 2^22 + 1");
    GL_ADD(grid_stride_int_wraps, GL_CORRECTNESS, 2, 15, "grid-stride int, a sum that wraps");
    GL_ADD(last_block_small_n, GL_CORRECTNESS, 2, 15, "last block, n = 0 .. 65537, in + 1");
    GL_ADD(last_block_large_n, GL_CORRECTNESS, 2, 15,
           "last block, n = 2^20 + 3, 2^22 + 1, in + 1");
    GL_ADD(last_block_repeated, GL_CORRECTNESS, 2, 15,
           "last block: 3 calls in a row, same bits");
    GL_ADD(grid_stride_async, GL_CORRECTNESS, 2, 30, "grid-stride, launcher returns at once");
    GL_ADD(last_block_async, GL_CORRECTNESS, 2, 30, "last block, launcher returns at once");
    GL_ADD(sequential_tree, GL_TECHNIQUE, 3, 10, "sequential: no tid % (2 s), a barrier per step");
    GL_ADD(shuffle_last_warp, GL_TECHNIQUE, 3, 10, "shuffle: shfl.sync.down in the last warp");
    GL_ADD(grid_stride_shuffle_atomic, GL_TECHNIQUE, 3, 10,
           "grid-stride: shuffles and one atomic add per block");
    GL_ADD(last_block_ticket, GL_TECHNIQUE, 3, 10, "last block: fence, atomicInc, no atomicAdd");
    GL_ADD(sequential_vs_interleaved, GL_PERFORMANCE, 4, 120, "sequential faster than interleaved");
    GL_ADD(shuffle_vs_sequential, GL_PERFORMANCE, 4, 120, "shuffle faster than sequential");
    GL_ADD(grid_stride_pct_of_copy, GL_PERFORMANCE, 4, 120, "grid-stride near the copy bandwidth");
    GL_ADD(grid_stride_int_pct_of_copy, GL_PERFORMANCE, 4, 120,
           "grid-stride int near the copy bandwidth");
    GL_ADD(last_block_pct_of_copy, GL_PERFORMANCE, 4, 120, "last block near the copy bandwidth");
}

const gl_lab GL_LAB = {"10-reduction", "reduction.cu", add_tests, run_once};
