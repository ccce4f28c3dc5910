/* 07-vectorized-loads.c: the grader's suite for lab 07-vectorized-loads.
 *
 *   correctness  int2 copy, int4 copy and int4 scaled add for n = 0, 1, 3, 5
 *                and 2^20 + 3, and with pointers one int past a 16-byte
 *                boundary (the scalar fallback); the launcher returns at once
 *   technique    ld.global.v2 / .v4 and st.global.v2 / .v4 in the PTX of the
 *                vector kernels (and none in the given scalar copy)
 *   performance  against the lab's own scalar kernels, measured in one run,
 *                and against cudaMemcpy
 *   profile      global load instructions of the int4 copy (Nsight Compute):
 *                one per four ints */
#include "grader.h"
#include "inspect.h"

#include "gpulabs.h"
#include "vectorized_loads.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*copy_fn)(int *out, const int *in, int n);
typedef void (*add_fn)(int *out, const int *a, const int *b, int k, int n);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_INT2_OVER_INT 1.2        /* bandwidth ratios, 2^26 ints */
#define MIN_INT4_OVER_INT 1.3
#define MIN_INT4_PCT_OF_MEMCPY 65.0
#define MIN_ADD4_OVER_ADD 1.25
#define MAX_INT4_LOADS_PER_128 1.1   /* warp-level global loads per 128 ints: 1 for int4 */

#define BIG ((1 << 20) + 3)

/* One launcher, either kind. */
typedef struct {
    const char *name;
    copy_fn copy;
    add_fn add;
} launcher;

static launcher student(const char *name)
{
    launcher l = {name, NULL, NULL};
    if (!strncmp(name, "copy", 4))
        l.copy = (copy_fn)gl_submission_fn(name);
    else
        l.add = (add_fn)gl_submission_fn(name);
    return l;
}

static void call(const launcher *l, int *out, const int *a, const int *b, int k, int n)
{
    if (l->copy)
        l->copy(out, a, n);
    else
        l->add(out, a, b, k, n);
}

static const char *hint(const gl_cmp *c, int n)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO?";
    if (c->unwritten && c->unwritten <= 3 && c->diff[0].index >= (size_t)(n / 4 * 4 - 4))
        return "Only the last elements are missing: the tail (n % 4 elements, or n % 2) is "
               "not copied. Whichever thread takes it must exist for every n: with a "
               "grid-stride loop, thread n / 4 may be beyond the grid";
    if (c->unwritten)
        return "Some elements were never written: does the loop cover n / 4 vectors, and "
               "the tail after them?";
    return "Wrong values: are the vector indices counted in vectors (i), not in ints (4 * i)?";
}

/* Runs l on n elements at out + out_off, in + in_off (ints past a 256-byte
 * boundary) and checks the result, and that nothing outside out[0, n) moved.
 * Returns "" or why not (a static buffer). */
static const char *run_and_check(const launcher *l, int n, int out_off, int in_off, int k)
{
    static char why[2048];
    size_t room = (size_t)n + 8, bytes = room * sizeof(int);
    int *h_a = gl_malloc(bytes), *h_b = gl_malloc(bytes), *h_out = gl_malloc(bytes),
        *h_ref = gl_malloc(bytes);
    gl_buf a = gl_buf_alloc(bytes, 0), b = gl_buf_alloc(bytes, 0), out = gl_buf_alloc(bytes, 0);
    gl_guard_report g;
    gl_cmp cmp;
    gl_rng rng;
    size_t i;

    why[0] = '\0';
    gl_test_rng(&rng);
    gl_fill_int(&rng, h_a, room, -1000000, 1000000);
    gl_fill_int(&rng, h_b, room, -1000000, 1000000);
    for (i = 0; i < room; i++)
        memset(&h_ref[i], GL_POISON_BYTE, sizeof(int));
    for (i = 0; i < (size_t)n; i++)
        h_ref[out_off + i] = l->copy ? h_a[in_off + i] : h_a[in_off + i] + k * h_b[in_off + i];
    gl_buf_upload(&a, h_a);
    gl_buf_upload(&b, h_b);
    gl_buf_poison(&out);
    call(l, (int *)out.ptr + out_off, (const int *)a.ptr + in_off, (const int *)b.ptr + in_off, k,
         n);
    GL_CHECK_LAUNCH(l->name);
    gl_buf_download(&out, h_out);
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, out.bytes, sizeof(int), "out's allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: a vector store past the end? The tail must be written "
                 "one int at a time", d);
    } else {
        for (i = 0; i < room; i++)
            if ((i < (size_t)out_off || i >= (size_t)out_off + n) && h_out[i] != h_ref[i])
                break;
        if (i < room)
            snprintf(why, sizeof why, "wrote out[%ld], outside out[0, %d): the vector loop or "
                     "the tail goes past n", (long)i - out_off, n);
        else if (gl_compare_int(h_ref + out_off, h_out + out_off, (size_t)n, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, "out", NULL, NULL, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d, hint(&cmp, n));
        }
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&out);
    free(h_a);
    free(h_b);
    free(h_out);
    free(h_ref);
    return why;
}

static void check(const char *name, const int *sizes, int nsizes, int out_off, int in_off)
{
    launcher l = student(name);
    int s;
    for (s = 0; s < nsizes; s++) {
        const char *why = run_and_check(&l, sizes[s], out_off, in_off, 7);
        if (*why)
            gl_check_fail("%s with n = %d%s: %s", name, sizes[s],
                          out_off || in_off ? " and pointers off a 16-byte boundary" : "", why);
    }
}

static const int small[] = {0, 1, 3, 5, 6, 7};
static const int big[] = {BIG};

/* out, in (and a, b) one int past a 16-byte boundary, each alone and both:
 * the vector path would fault (misaligned address) or read the wrong ints */
static void check_misaligned(const char *name)
{
    static const int sizes[] = {5, BIG};
    check(name, sizes, 2, 1, 1);
    check(name, sizes, 2, 0, 1);
    check(name, sizes, 2, 1, 0);
    check(name, sizes, 2, 2, 2); /* 8-byte aligned: int2 may vectorise, int4 may not */
}

#define CORRECTNESS(fn)                                                                       \
    GL_TEST(fn##_small_n)                                                                     \
    {                                                                                         \
        check(#fn, small, 6, 0, 0);                                                           \
    }                                                                                         \
    GL_TEST(fn##_large_n)                                                                     \
    {                                                                                         \
        check(#fn, big, 1, 0, 0);                                                             \
    }                                                                                         \
    GL_TEST(fn##_misaligned)                                                                  \
    {                                                                                         \
        check_misaligned(#fn);                                                                \
    }

CORRECTNESS(copy_int2)
CORRECTNESS(copy_int4)
CORRECTNESS(scaled_add_int4)

/* The launcher only enqueues its kernel (gl_expect_queued). */
typedef struct {
    copy_fn fn;
    int *out;
    const int *in, *ref;
    int n;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    q->fn(q->out, q->in, q->n);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    int *h = gl_malloc((size_t)q->n * sizeof(int)), right;
    gl_cmp cmp;
    GL_CUDA(cudaMemcpy(h, q->out, (size_t)q->n * sizeof(int), cudaMemcpyDeviceToHost));
    right = gl_compare_int(q->ref, h, (size_t)q->n, &cmp) == 0;
    free(h);
    return right;
}

GL_TEST(copy_int4_async)
{
    const int n = BIG;
    size_t bytes = (size_t)n * sizeof(int);
    int *h_in = gl_malloc(bytes);
    gl_buf staged = gl_buf_alloc(bytes, 0), in = gl_buf_alloc(bytes, 0),
           out = gl_buf_alloc(bytes, 0);
    queued q = {(copy_fn)gl_submission_fn("copy_int4"), out.ptr, in.ptr, h_in, n};
    gl_queue_buffers b = {in.ptr, staged.ptr, bytes, out.ptr, bytes};
    gl_rng rng;

    gl_test_rng(&rng);
    gl_fill_int(&rng, h_in, (size_t)n, -1000000, 1000000);
    gl_buf_upload(&staged, h_in);
    gl_expect_queued("copy_int4", queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
}

/* ---- technique: read from the PTX, no GPU needed ---- */

static void check_vector_ops(const char *kernel, const char *width, int loads, int task)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    int ld, st;
    ld = gl_ptx_count_with(&e, "ld.global", width);
    st = gl_ptx_count_with(&e, "st.global", width);
    if (ld < loads || st < 1)
        gl_check_fail("%s has %d ld.global%s and %d st.global%s instructions in its PTX: task "
                      "%d reads and writes through %s pointers (reinterpret_cast<const %s *>), so "
                      "that one instruction moves %s bytes",
                      kernel, ld, width, st, width, task, !strcmp(width, ".v2") ? "int2" : "int4",
                      !strcmp(width, ".v2") ? "int2" : "int4", !strcmp(width, ".v2") ? "8" : "16");
    free(ptx);
}

/* The test tells a scalar kernel from a vector one: the given copy has none. */
static void check_baseline_is_scalar(void)
{
    char *ptx = gl_read_file(gl_baseline_ptx());
    gl_ptx_entry e;
    if (!ptx || gl_ptx_entry_find(ptx, "copy_int_kernel", &e) != 0)
        gl_check_fail("grader: the baselines' PTX (%s) is missing: rebuild the kit with make",
                      gl_baseline_ptx());
    if (gl_ptx_count_with(&e, "ld.global", ".v4") + gl_ptx_count_with(&e, "ld.global", ".v2"))
        gl_check_fail("grader: the scalar copy_int_kernel has vector loads in its PTX: this "
                      "compiler vectorises by itself, and the technique test cannot tell");
    free(ptx);
}

GL_TEST(copy_int2_vector_ops)
{
    check_vector_ops("copy_int2_kernel", ".v2", 1, 1);
}

GL_TEST(copy_int4_vector_ops)
{
    check_baseline_is_scalar();
    check_vector_ops("copy_int4_kernel", ".v4", 1, 2);
}

GL_TEST(scaled_add_int4_vector_ops)
{
    check_vector_ops("scaled_add_int4_kernel", ".v4", 2, 3);
}

/* ---- performance: one run, ratios only ---- */

typedef struct {
    launcher l;
    int *out;
    const int *a, *b;
    int n;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    call(&j->l, j->out, j->a, j->b, 3, j->n);
}

typedef struct {
    int n;
    gl_buf a, b, out;
    int *h_a, *h_b, *h_out;
} perf_setup;

static void perf_begin(perf_setup *p)
{
    gl_device_info info;
    size_t bytes;
    gl_rng rng;
    gl_device_require(&info);
    /* 2^26 ints (256 MiB per array), far beyond any L2, unless the GPU is small */
    p->n = info.global_mem_bytes >= ((size_t)4 << 30) ? 1 << 26 : 1 << 24;
    bytes = (size_t)p->n * sizeof(int);
    p->h_a = gl_malloc(bytes);
    p->h_b = gl_malloc(bytes);
    p->h_out = gl_malloc(bytes);
    gl_test_rng(&rng);
    gl_fill_int(&rng, p->h_a, (size_t)p->n, -1000000, 1000000);
    gl_fill_int(&rng, p->h_b, (size_t)p->n, -1000000, 1000000);
    p->a = gl_buf_alloc(bytes, 0);
    p->b = gl_buf_alloc(bytes, 0);
    p->out = gl_buf_alloc(bytes, 0);
    gl_buf_upload(&p->a, p->h_a);
    gl_buf_upload(&p->b, p->h_b);
}

static void perf_end(perf_setup *p)
{
    gl_buf_free(&p->a);
    gl_buf_free(&p->b);
    gl_buf_free(&p->out);
    free(p->h_a);
    free(p->h_b);
    free(p->h_out);
}

/* Times l on the setup's arrays; its output, after the timed runs, must be
 * right (a launcher that works only once, or not at all, is not timed). */
static double gbps(perf_setup *p, launcher l)
{
    job j = {l, p->out.ptr, p->a.ptr, p->b.ptr, p->n};
    double ms, bytes = (l.copy ? 2.0 : 3.0) * p->n * sizeof(int);
    int i;
    gl_buf_poison(&p->out);
    ms = gl_time_ms(run_job, &j, gl_timing_default());
    gl_buf_download(&p->out, p->h_out);
    for (i = 0; i < p->n; i++)
        if (p->h_out[i] != (l.copy ? p->h_a[i] : p->h_a[i] + 3 * p->h_b[i]))
            gl_check_fail("%s is not right at n = %d (out[%d] after the timed runs), so its "
                          "speed is not graded (the correctness tests say more)",
                          l.name, p->n, i);
    return gl_gbps(bytes, ms);
}

static launcher given(const char *name)
{
    launcher l = {name, NULL, NULL};
    if (!strncmp(name, "copy", 4))
        l.copy = (copy_fn)gl_baseline_fn(name);
    else
        l.add = (add_fn)gl_baseline_fn(name);
    return l;
}

static void expect_faster(const char *fast, const char *slow, double min_ratio, const char *why)
{
    perf_setup p;
    double s, f;
    perf_begin(&p);
    s = gbps(&p, given(slow));
    f = gbps(&p, student(fast));
    if (f < min_ratio * s)
        gl_check_fail("at n = %d, %s moves %.0f GB/s, %.2fx the given %s (%.0f GB/s); it should "
                      "be at least %.2fx. %s",
                      p.n, fast, f, f / s, slow, s, min_ratio, why);
    gl_test_note("%s %.0f GB/s = %.2fx %s %.0f GB/s (needs %.2fx)", fast, f, f / s, slow, s,
                 min_ratio);
    perf_end(&p);
}

GL_TEST(int2_vs_int)
{
    expect_faster("copy_int2", "copy_int", MIN_INT2_OVER_INT,
                  "Each thread should move one int2 (8 bytes) per load and per store");
}

GL_TEST(int4_vs_int)
{
    expect_faster("copy_int4", "copy_int", MIN_INT4_OVER_INT,
                  "Each thread should move one int4 (16 bytes) per load and per store: four "
                  "times the bytes in flight for the same number of instructions");
}

GL_TEST(scaled_add_int4_vs_int)
{
    expect_faster("scaled_add_int4", "scaled_add_int", MIN_ADD4_OVER_ADD,
                  "Load a and b as int4, compute the four results, store one int4");
}

GL_TEST(int4_vs_memcpy)
{
    perf_setup p;
    double memcpy_gbps, f;
    perf_begin(&p);
    memcpy_gbps = gl_memcpy_gbps(0);
    f = gbps(&p, student("copy_int4"));
    if (gl_percent(f, memcpy_gbps) < MIN_INT4_PCT_OF_MEMCPY)
        gl_check_fail("at n = %d, copy_int4 moves %.0f GB/s, %.0f%% of cudaMemcpy device to "
                      "device (%.0f GB/s); it should reach %.0f%%",
                      p.n, f, gl_percent(f, memcpy_gbps), memcpy_gbps, MIN_INT4_PCT_OF_MEMCPY);
    gl_test_note("copy_int4 %.0f GB/s = %.1f%% of cudaMemcpy %.0f GB/s (needs %.0f%%)", f,
                 gl_percent(f, memcpy_gbps), memcpy_gbps, MIN_INT4_PCT_OF_MEMCPY);
    perf_end(&p);
}

/* ---- profile: Nsight Compute counters ---- */

GL_TEST(int4_load_instructions)
{
    static const char *const metrics[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                          "smsp__sass_inst_executed_op_global_st.sum"};
    const int n = 1 << 22;
    const char *args[] = {"copy_int4", "4194304", NULL};
    double v[2], per128;
    gl_profile(metrics, 2, v, args);
    per128 = v[0] / (n / 128.0);
    if (per128 > MAX_INT4_LOADS_PER_128)
        gl_check_fail("copy_int4 executed %.0f warp-level global load instructions for %d ints: "
                      "%.2f per 128 ints, where one int4 load per thread makes it 1 (the scalar "
                      "copy takes 4). Stores: %.0f",
                      v[0], n, per128, v[1]);
    gl_test_note("%.0f global load instructions for %d ints: %.3f per 128 (at most %.2f); "
                 "%.0f stores",
                 v[0], n, per128, MAX_INT4_LOADS_PER_128, v[1]);
}

/* Under Nsight Compute: one launcher, once, on n aligned ints; checked. */
static const char *run_once(int argc, char **argv)
{
    long n;
    launcher l;
    if (argc != 2 || gl_parse_long(argv[1], 0, 1L << 28, &n))
        return "usage: --run LAUNCHER N";
    l = student(argv[0]);
    return run_and_check(&l, (int)n, 0, 0, 7);
}

static void add_tests(void)
{
    GL_ADD(copy_int2_small_n, GL_CORRECTNESS, 2, 15, "int2 copy, n = 0, 1, 3, 5, 6, 7");
    GL_ADD(copy_int2_large_n, GL_CORRECTNESS, 2, 15, "int2 copy, n = 2^20 + 3");
    GL_ADD(copy_int2_misaligned, GL_CORRECTNESS, 2, 15, "int2 copy, unaligned pointers");
    GL_ADD(copy_int4_small_n, GL_CORRECTNESS, 2, 15, "int4 copy, n = 0, 1, 3, 5, 6, 7");
    GL_ADD(copy_int4_large_n, GL_CORRECTNESS, 2, 15, "int4 copy, n = 2^20 + 3");
    GL_ADD(copy_int4_misaligned, GL_CORRECTNESS, 2, 15, "int4 copy, unaligned pointers");
    GL_ADD(copy_int4_async, GL_CORRECTNESS, 2, 30, "int4 copy, launcher returns at once");
    GL_ADD(scaled_add_int4_small_n, GL_CORRECTNESS, 2, 15, "int4 scaled add, n = 0 .. 7");
    GL_ADD(scaled_add_int4_large_n, GL_CORRECTNESS, 2, 15, "int4 scaled add, n = 2^20 + 3");
    GL_ADD(scaled_add_int4_misaligned, GL_CORRECTNESS, 2, 15, "int4 scaled add, unaligned");
    GL_ADD(copy_int2_vector_ops, GL_TECHNIQUE, 2, 10, "int2 copy: ld/st.global.v2");
    GL_ADD(copy_int4_vector_ops, GL_TECHNIQUE, 3, 10, "int4 copy: ld/st.global.v4");
    GL_ADD(scaled_add_int4_vector_ops, GL_TECHNIQUE, 3, 10, "int4 scaled add: .v4 loads");
    GL_ADD(int2_vs_int, GL_PERFORMANCE, 3, 120, "int2 copy faster than int");
    GL_ADD(int4_vs_int, GL_PERFORMANCE, 4, 120, "int4 copy faster than int");
    GL_ADD(int4_vs_memcpy, GL_PERFORMANCE, 4, 120, "int4 copy near cudaMemcpy");
    GL_ADD(scaled_add_int4_vs_int, GL_PERFORMANCE, 4, 120, "int4 scaled add faster");
    GL_ADD(int4_load_instructions, GL_PROFILE, 5, 300, "int4 copy: 1 load per 128 ints");
}

const gl_lab GL_LAB = {"07-vectorized-loads", "vectorized_loads.cu", add_tests, run_once};
