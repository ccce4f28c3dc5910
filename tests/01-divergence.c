/* 01-divergence.c: the grader's suite for lab 01-divergence.
 *
 *   correctness  the three launchers on tiny, odd and large n, on random
 *                input and on inputs of one class; exact (unsigned integers);
 *                the launcher returns at once
 *   technique    classify_partitioned regroups in shared memory (an array
 *                and a barrier); the contiguous block sum has no tid % (2 s)
 *                (no rem in its PTX) and the given one has, so the test can
 *                tell
 *   performance  against the lab's own given kernels, measured in one run
 *   profile      threads per executed instruction (Nsight Compute): near 32
 *                when the warps agree, near 16 for the lane-parity branch */
#include "grader.h"
#include "inspect.h"

#include "gpulabs.h"
#include "divergence.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*div_fn)(unsigned *out, const unsigned *in, int n);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_WARP_OVER_LANE 1.5           /* time ratios, 2^24 elements */
#define MIN_PARTITIONED_OVER_CLASSIFY 1.2
#define MIN_CONTIGUOUS_OVER_INTERLEAVED 1.3
#define MIN_UNIFORM_THREADS 28.0         /* active threads per executed warp instruction */
#define MAX_LANE_PARITY_THREADS 20.0
#define MIN_PARTITIONED_THREADS 24.0

#define BIG ((1 << 20) + 3)

typedef enum { HASH, CLASSIFY, BLOCK_SUMS } work;

/* The inputs: random (each class a coin toss), or one of the patterns below. */
typedef enum { RANDOM, ALL_HEAVY, ALL_LIGHT, PARTITIONED, ALTERNATING } input;

static const char *input_name(input in)
{
    static const char *names[] = {"random input", "every element heavy", "every element light",
                                  "input partitioned by class", "classes alternating"};
    return names[in];
}

static void make_input(unsigned *h, int n, input kind, gl_rng *rng)
{
    int i, k = 0;
    for (i = 0; i < n; i++) {
        unsigned x = (unsigned)gl_rng_next(rng);
        switch (kind) {
        case RANDOM:
            break;
        case ALL_HEAVY:
            x |= 0x80000000u;
            break;
        case ALL_LIGHT:
            x &= 0x7fffffffu;
            break;
        case ALTERNATING:
            x = i % 2 ? x | 0x80000000u : x & 0x7fffffffu;
            break;
        case PARTITIONED:
            break;
        }
        h[i] = x;
    }
    if (kind == PARTITIONED) { /* light ones first */
        for (i = 0; i < n; i++)
            if (!is_heavy(h[i])) {
                unsigned t = h[k];
                h[k++] = h[i];
                h[i] = t;
            }
    }
}

static size_t outputs(work what, int n)
{
    return what == BLOCK_SUMS ? (size_t)div_blocks(n) : (size_t)n;
}

static void reference(work what, const unsigned *in, unsigned *ref, int n)
{
    int i;
    if (what == BLOCK_SUMS) {
        memset(ref, 0, (size_t)div_blocks(n) * sizeof(unsigned));
        for (i = 0; i < n; i++)
            ref[i / DIV_BLOCK] += in[i];
        return;
    }
    for (i = 0; i < n; i++)
        ref[i] = what == HASH ? (i % 2 == 0 ? hash_even(in[i]) : hash_odd(in[i]))
                              : classify_one(in[i]);
}

static const char *hint(work what, const gl_cmp *c)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO?";
    switch (what) {
    case HASH:
        if (c->unwritten)
            return "Some elements were never written and others twice: the mapping from "
                   "thread to element must take every element exactly once (within each 64 "
                   "elements, lane l of the even warp takes 2 l, of the odd warp 2 l + 1)";
        return "Wrong values: element i gets hash_even when i is even, hash_odd when it is "
               "odd, whichever thread computes it";
    case CLASSIFY:
        if (c->unwritten)
            return "Some elements were never written: does every filed element get a slot, and "
                   "does thread t process slot t both below `heavy` and from DIV_BLOCK - light "
                   "on? Are the counters zeroed, and a __syncthreads() between the steps?";
        return "Wrong values: the heavy work goes to the elements is_heavy() picks, the light "
               "work to the others; the element a thread processes is slot[t], not its own i";
    case BLOCK_SUMS:
        if (c->unwritten)
            return "Some block sums were never written: thread 0 of every block writes "
                   "partial[0]";
        return "Wrong sums: at step s, thread tid adds partial[2 s tid + s] into "
               "partial[2 s tid] when 2 s tid < blockDim.x, and a __syncthreads() follows "
               "every step; elements from n on count as 0";
    }
    return "";
}

/* Runs fn once on n elements of the given input and checks everything about
 * the result. Returns "" or why not (a static buffer). */
static const char *run_and_check(div_fn fn, const char *name, work what, int n, input kind)
{
    static char why[2048];
    size_t room = (size_t)n + 64, bytes = room * sizeof(unsigned), count = outputs(what, n), i;
    unsigned *h_in = gl_malloc(bytes), *h_out = gl_malloc(bytes), *h_ref = gl_malloc(bytes);
    gl_buf in = gl_buf_alloc(bytes, 0), out = gl_buf_alloc(bytes, 0);
    gl_guard_report g;
    gl_cmp cmp;
    gl_rng rng;

    why[0] = '\0';
    gl_test_rng(&rng);
    make_input(h_in, (int)room, kind, &rng);
    reference(what, h_in, h_ref, n);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    fn(out.ptr, in.ptr, n);
    GL_CHECK_LAUNCH(name);
    gl_buf_download(&out, h_out);
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, out.bytes, sizeof(unsigned), "out's allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: is the bounds test (i < n) missing?", d);
    } else {
        for (i = count; i < room; i++)
            if (h_out[i] != 0xffffffffu)
                break;
        if (i < room)
            snprintf(why, sizeof why, "wrote %s[%zu], past the last of its %zu %s: only %s",
                     what == BLOCK_SUMS ? "sums" : "out", i, count,
                     what == BLOCK_SUMS ? "block sums" : "elements",
                     what == BLOCK_SUMS ? "thread 0 of each block writes, at sums[blockIdx.x]"
                                        : "elements i < n are written");
        else if (gl_compare_uint(h_ref, h_out, count, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, what == BLOCK_SUMS ? "sums" : "out", NULL, NULL, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d, hint(what, &cmp));
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_out);
    free(h_ref);
    return why;
}

static void check(const char *name, work what, const int *sizes, int nsizes, input kind)
{
    div_fn fn = (div_fn)gl_submission_fn(name);
    int s;
    for (s = 0; s < nsizes; s++) {
        const char *why = run_and_check(fn, name, what, sizes[s], kind);
        if (*why)
            gl_check_fail("%s with n = %d, %s: %s", name, sizes[s], input_name(kind), why);
    }
}

static const int small[] = {0, 1, 2, 31, 33, 63, 64, 65, 257, 1000};
static const int big[] = {BIG};

GL_TEST(branch_by_warp_small_n)
{
    check("branch_by_warp", HASH, small, 10, RANDOM);
}

GL_TEST(branch_by_warp_large_n)
{
    check("branch_by_warp", HASH, big, 1, RANDOM);
}

GL_TEST(classify_partitioned_small_n)
{
    check("classify_partitioned", CLASSIFY, small, 10, RANDOM);
}

GL_TEST(classify_partitioned_large_n)
{
    check("classify_partitioned", CLASSIFY, big, 1, RANDOM);
}

/* a block of one class fills the slots from one end only */
GL_TEST(classify_partitioned_one_class)
{
    static const int sizes[] = {1, 255, 256, 257, 5000};
    check("classify_partitioned", CLASSIFY, sizes, 5, ALL_HEAVY);
    check("classify_partitioned", CLASSIFY, sizes, 5, ALL_LIGHT);
    check("classify_partitioned", CLASSIFY, sizes, 5, ALTERNATING);
    check("classify_partitioned", CLASSIFY, big, 1, PARTITIONED);
}

GL_TEST(block_sums_contiguous_small_n)
{
    static const int sizes[] = {0, 1, 2, 255, 256, 257, 511, 1000};
    check("block_sums_contiguous", BLOCK_SUMS, sizes, 8, RANDOM);
}

GL_TEST(block_sums_contiguous_large_n)
{
    check("block_sums_contiguous", BLOCK_SUMS, big, 1, RANDOM);
}

/* The launcher only enqueues its kernel (gl_expect_queued). */
typedef struct {
    div_fn fn;
    unsigned *out;
    const unsigned *in, *ref;
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
    unsigned *h = gl_malloc((size_t)q->n * sizeof(unsigned));
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->out, (size_t)q->n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    right = gl_compare_uint(q->ref, h, (size_t)q->n, &cmp) == 0;
    free(h);
    return right;
}

GL_TEST(classify_partitioned_async)
{
    const int n = BIG;
    size_t bytes = (size_t)n * sizeof(unsigned);
    unsigned *h_in = gl_malloc(bytes), *h_ref = gl_malloc(bytes);
    gl_buf staged = gl_buf_alloc(bytes, 0), in = gl_buf_alloc(bytes, 0),
           out = gl_buf_alloc(bytes, 0);
    queued q = {(div_fn)gl_submission_fn("classify_partitioned"), out.ptr, in.ptr, h_ref, n};
    gl_queue_buffers b = {in.ptr, staged.ptr, bytes, out.ptr, bytes};
    gl_rng rng;

    gl_test_rng(&rng);
    make_input(h_in, n, RANDOM, &rng);
    reference(CLASSIFY, h_in, h_ref, n);
    gl_buf_upload(&staged, h_in);
    gl_expect_queued("classify_partitioned", queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_ref);
}

/* ---- technique: read from the PTX, no GPU needed ---- */

GL_TEST(classify_partitioned_regroups)
{
    gl_ptx_entry e;
    char *ptx;
    long bytes = gl_kernel_shared_bytes(
        "classify_partitioned_kernel",
        "task 2 files the block's element indices in a __shared__ array (slot[DIV_BLOCK]), "
        "in the order they will be processed");
    if (bytes < DIV_BLOCK)
        gl_check_fail("classify_partitioned_kernel's largest __shared__ array has %ld bytes: "
                      "too small to hold the indices of the block's %d elements",
                      bytes, DIV_BLOCK);
    ptx = gl_kernel_ptx("classify_partitioned_kernel", &e);
    if (gl_ptx_barriers(&e) < 2)
        gl_check_fail("classify_partitioned_kernel has %d barriers (bar.sync) in its PTX: it "
                      "needs one after zeroing the counters and one after filing the elements, "
                      "before any thread reads a slot another thread wrote",
                      gl_ptx_barriers(&e));
    free(ptx);
}

GL_TEST(block_sums_contiguous_no_modulo)
{
    gl_ptx_entry e;
    char *ptx = gl_read_file(gl_baseline_ptx());
    if (!ptx || gl_ptx_entry_find(ptx, "block_sums_interleaved_kernel", &e) != 0)
        gl_check_fail("grader: the baselines' PTX (%s) is missing: rebuild the kit with make",
                      gl_baseline_ptx());
    if (gl_ptx_count(&e, "rem") == 0)
        gl_check_fail("grader: the given block_sums_interleaved_kernel has no rem in its PTX: "
                      "this compiler turns tid %% (2 * s) into something else, and the test "
                      "cannot tell the two kernels apart");
    free(ptx);
    ptx = gl_kernel_ptx("block_sums_contiguous_kernel", &e);
    if (gl_ptx_count(&e, "rem") > 0)
        gl_check_fail("block_sums_contiguous_kernel computes a remainder (%d rem in its PTX): "
                      "task 3 picks the active threads by index = 2 * s * tid < blockDim.x, "
                      "not by tid %% (2 * s) == 0",
                      gl_ptx_count(&e, "rem"));
    if (gl_ptx_barriers(&e) < 2)
        gl_check_fail("block_sums_contiguous_kernel has %d barriers in its PTX: one after the "
                      "load, and one after every step of the tree",
                      gl_ptx_barriers(&e));
    if (gl_ptx_count(&e, "ld.shared") == 0 || gl_ptx_count(&e, "st.shared") == 0)
        gl_check_fail("block_sums_contiguous_kernel does not add in shared memory (%d "
                      "ld.shared, %d st.shared): the tree works on the __shared__ partial sums",
                      gl_ptx_count(&e, "ld.shared"), gl_ptx_count(&e, "st.shared"));
    free(ptx);
}

/* ---- performance: one run, ratios only ---- */

typedef struct {
    div_fn fn;
    unsigned *out;
    const unsigned *in;
    int n;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    j->fn(j->out, j->in, j->n);
}

/* The time of fn on n elements of the input, whose output after the timed
 * runs must be right (a launcher that works only once is not timed). */
static double time_ms(div_fn fn, const char *name, work what, int n, input kind)
{
    size_t bytes = (size_t)n * sizeof(unsigned), count = outputs(what, n);
    unsigned *h_in = gl_malloc(bytes), *h_out = gl_malloc(bytes), *h_ref = gl_malloc(bytes);
    gl_buf in = gl_buf_alloc(bytes, 0), out = gl_buf_alloc(bytes, 0);
    job j = {fn, out.ptr, in.ptr, n};
    gl_cmp cmp;
    gl_rng rng;
    double ms;

    gl_test_rng(&rng);
    make_input(h_in, n, kind, &rng);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    ms = gl_time_ms(run_job, &j, gl_timing_default());
    gl_buf_download(&out, h_out);
    reference(what, h_in, h_ref, n);
    if (gl_compare_uint(h_ref, h_out, count, &cmp))
        gl_check_fail("%s is not right at n = %d on %s (after the timed runs), so its speed is "
                      "not graded (the correctness tests say more)",
                      name, n, input_name(kind));
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_out);
    free(h_ref);
    return ms;
}

static void expect_faster(const char *fast, const char *slow, work what, double min_ratio,
                          const char *why)
{
    const int n = 1 << 24;
    gl_device_info info;
    double s, f;
    gl_device_require(&info);
    s = time_ms((div_fn)gl_baseline_fn(slow), slow, what, n, RANDOM);
    f = time_ms((div_fn)gl_submission_fn(fast), fast, what, n, RANDOM);
    if (s < min_ratio * f)
        gl_check_fail("at n = %d (random input), %s takes %.3f ms, %.2fx faster than the given "
                      "%s (%.3f ms); it should be at least %.2fx. %s",
                      n, fast, f, s / f, slow, s, min_ratio, why);
    gl_test_note("%s %.3f ms = %.2fx faster than %s %.3f ms (needs %.2fx)", fast, f, s / f, slow,
                 s, min_ratio);
}

GL_TEST(warp_vs_lane)
{
    expect_faster("branch_by_warp", "branch_by_lane", HASH, MIN_WARP_OVER_LANE,
                  "Every warp should take one branch: then it runs one of the two loops, not "
                  "both");
}

GL_TEST(partitioned_vs_classify)
{
    expect_faster("classify_partitioned", "classify", CLASSIFY, MIN_PARTITIONED_OVER_CLASSIFY,
                  "After regrouping, the warps below the block's boundary should take only the "
                  "heavy path and the warps above it only the light one");
}

GL_TEST(contiguous_vs_interleaved)
{
    expect_faster("block_sums_contiguous", "block_sums_interleaved", BLOCK_SUMS,
                  MIN_CONTIGUOUS_OVER_INTERLEAVED,
                  "At each step the active threads should be 0, 1, 2, ...: whole warps finish "
                  "early instead of every warp staying busy for a few lanes");
}

/* ---- profile: Nsight Compute counters ---- */

static const char *const thread_metrics[] = {"smsp__thread_inst_executed.sum",
                                             "smsp__inst_executed.sum"};

/* Active threads per executed warp instruction of one launcher's kernels. */
static double threads_per_instruction(const char *launcher, const char *n, const char *input)
{
    const char *args[] = {launcher, n, input, NULL};
    double v[2];
    gl_profile(thread_metrics, 2, v, args);
    if (v[1] <= 0)
        gl_check_fail("grader: Nsight Compute counted no instructions for %s", launcher);
    return v[0] / v[1];
}

GL_TEST(branch_by_warp_threads_per_instruction)
{
    double lane = threads_per_instruction("given:branch_by_lane", "1048576", "random");
    double warp = threads_per_instruction("branch_by_warp", "1048576", "random");
    if (lane > MAX_LANE_PARITY_THREADS)
        gl_check_fail("grader: the given lane-parity kernel runs %.1f threads per instruction, "
                      "where divergence makes it about 16: the counter does not show "
                      "divergence on this GPU",
                      lane);
    if (warp < MIN_UNIFORM_THREADS)
        gl_check_fail("branch_by_warp runs %.1f active threads per executed warp instruction, "
                      "about as many as the lane-parity kernel (%.1f): its warps still diverge. "
                      "When every lane of a warp takes the same branch, it is near 32",
                      warp, lane);
    gl_test_note("threads per instruction: branch_by_warp %.1f (needs %.0f), given "
                 "branch_by_lane %.1f",
                 warp, MIN_UNIFORM_THREADS, lane);
}

GL_TEST(classify_partitioned_threads_per_instruction)
{
    double plain = threads_per_instruction("given:classify", "1048576", "random");
    double part = threads_per_instruction("classify_partitioned", "1048576", "random");
    if (part < MIN_PARTITIONED_THREADS)
        gl_check_fail("classify_partitioned runs %.1f active threads per executed warp "
                      "instruction on random input (the given classify: %.1f): its warps "
                      "still mix heavy and light elements. After regrouping, only the warp at "
                      "the boundary of each block mixes them, so it is near 32",
                      part, plain);
    gl_test_note("threads per instruction on random input: classify_partitioned %.1f (needs "
                 "%.0f), given classify %.1f",
                 part, MIN_PARTITIONED_THREADS, plain);
}

/* Under Nsight Compute: one launcher ("given:NAME" for the lab's own), once,
 * on n elements of the input ("random" or "partitioned"); checked. */
static const char *run_once(int argc, char **argv)
{
    static const char *names[] = {"branch_by_lane", "branch_by_warp", "classify",
                                  "classify_partitioned", "block_sums_interleaved",
                                  "block_sums_contiguous"};
    static const work works[] = {HASH, HASH, CLASSIFY, CLASSIFY, BLOCK_SUMS, BLOCK_SUMS};
    const char *name;
    int k;
    long n;

    if (argc != 3 || gl_parse_long(argv[1], 0, 1L << 26, &n) ||
        (strcmp(argv[2], "random") && strcmp(argv[2], "partitioned")))
        return "usage: --run [given:]LAUNCHER N random|partitioned";
    name = gl_launcher_name(argv[0]);
    for (k = 0; k < 6; k++)
        if (!strcmp(name, names[k]))
            break;
    if (k == 6)
        return "usage: --run [given:]LAUNCHER N random|partitioned (no such launcher)";
    return run_and_check((div_fn)gl_launcher_fn(argv[0]), name, works[k], (int)n, strcmp(argv[2], "random") ? PARTITIONED : RANDOM);
}

static void add_tests(void)
{
    GL_ADD(branch_by_warp_small_n, GL_CORRECTNESS, 2, 15, "uniform branch, n = 0 .. 1000");
    GL_ADD(branch_by_warp_large_n, GL_CORRECTNESS, 2, 15, "uniform branch, n = 2^20 + 3");
    GL_ADD(classify_partitioned_small_n, GL_CORRECTNESS, 2, 15, "regrouped, n = 0 .. 1000");
    GL_ADD(classify_partitioned_large_n, GL_CORRECTNESS, 2, 15, "regrouped, n = 2^20 + 3");
    GL_ADD(classify_partitioned_one_class, GL_CORRECTNESS, 2, 15,
           "regrouped, one class, alternating, sorted");
    GL_ADD(classify_partitioned_async, GL_CORRECTNESS, 2, 30, "regrouped, launcher returns at once");
    GL_ADD(block_sums_contiguous_small_n, GL_CORRECTNESS, 2, 15, "contiguous sums, n = 0 .. 1000");
    GL_ADD(block_sums_contiguous_large_n, GL_CORRECTNESS, 2, 15, "contiguous sums, n = 2^20 + 3");
    GL_ADD(classify_partitioned_regroups, GL_TECHNIQUE, 3, 10,
           "regrouped: shared slots, barriers");
    GL_ADD(block_sums_contiguous_no_modulo, GL_TECHNIQUE, 3, 10,
           "contiguous sums: no tid % (2 s)");
    GL_ADD(warp_vs_lane, GL_PERFORMANCE, 4, 120, "uniform branch faster than lane parity");
    GL_ADD(partitioned_vs_classify, GL_PERFORMANCE, 4, 120, "regrouped faster on random input");
    GL_ADD(contiguous_vs_interleaved, GL_PERFORMANCE, 4, 120, "contiguous sums faster");
    GL_ADD(branch_by_warp_threads_per_instruction, GL_PROFILE, 5, 300,
           "uniform branch: ~32 threads per instruction");
    GL_ADD(classify_partitioned_threads_per_instruction, GL_PROFILE, 5, 300,
           "regrouped: ~32 threads per instruction");
}

const gl_lab GL_LAB = {"01-divergence", "divergence.cu", add_tests, run_once};
