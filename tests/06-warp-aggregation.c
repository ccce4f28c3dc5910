/* 06-warp-aggregation.c: the grader's suite for lab 06-warp-aggregation.
 *
 *   correctness  the four launchers on tiny, odd and large n, on random
 *                input and on inputs that keep nothing or everything; the
 *                values compared as a multiset (which slot a thread gets is
 *                a race), with *count and nothing written past it; two calls
 *                in a row on one counter; emit_warp returns at once
 *   technique    the filters elect a leader and broadcast its slot
 *                (activemask or vote.ballot, popc and shfl.sync in the PTX,
 *                which the given filter has none of); emit_warp scans with
 *                shfl.sync.up around one atomic; emit_block keeps the warps'
 *                totals in shared memory, between two barriers
 *   performance  emit_warp and emit_block against the given emit_atomic,
 *                measured in one run (none for the filters: the compiler
 *                already aggregates the given one, README.md shows it)
 *   profile      atomic operations the SMs send to L2 (Nsight Compute): one
 *                per lane with items for emit_atomic, one per warp for
 *                emit_warp, one per block for emit_block */
#include "grader.h"
#include "inspect.h"

#include "gpulabs.h"
#include "warp_aggregation.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*wa_fn)(int *out, int *count, const int *in, int n);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_WARP_OVER_ATOMIC 8.0   /* time ratios, 2^24 elements (H200: 22.6x) */
#define MIN_BLOCK_OVER_ATOMIC 20.0 /* (H200: 78x) */
#define MAX_WARP_ATOMICS_PER_WARP 1.1    /* atomic operations sent to L2: 1 per warp */
#define MAX_BLOCK_ATOMICS_PER_BLOCK 1.1  /* 1 per block */
#define MIN_GIVEN_ATOMICS_PER_WARP 8.0   /* the given emit_atomic: one per lane with items
                                            (H200: 25.6) */
#define MAX_ATOMICS_IN_PTX 2             /* atomic instructions in an aggregated kernel's PTX */

#define BIG ((1 << 20) + 3)
#define RANGE 100000000 /* inputs in [-RANGE, RANGE]: no item value wraps or equals -1 */

typedef enum { FILTER, EMIT } work;

/* The inputs: random (about half positive; item counts 0 .. 4 alike), or
 * none kept / all kept (every element positive; WA_MAX_ITEMS items each). */
typedef enum { RANDOM, NONE, ALL } input;

static work work_of(const char *name)
{
    return !strncmp(name, "filter", 6) ? FILTER : EMIT;
}

static const char *input_name(work what, input kind)
{
    if (kind == RANDOM)
        return "random input";
    if (what == FILTER)
        return kind == NONE ? "no element positive" : "every element positive";
    return kind == NONE ? "no element with items" : "every element with WA_MAX_ITEMS items";
}

static void make_input(int *h, size_t n, work what, input kind, gl_rng *rng)
{
    size_t i;
    const int m = WA_MAX_ITEMS + 1;
    if (kind == RANDOM) {
        gl_fill_int(rng, h, n, -RANGE, RANGE);
    } else if (what == FILTER) {
        gl_fill_int(rng, h, n, kind == NONE ? -RANGE : 1, kind == NONE ? 0 : RANGE);
    } else {
        for (i = 0; i < n; i++)
            h[i] = m * (int)gl_rng_range(rng, 0, RANGE / m) + (kind == NONE ? 0 : WA_MAX_ITEMS);
    }
}

/* The room out needs: n values for a filter, WA_MAX_ITEMS * n for an emitter. */
static size_t capacity(work what, int n)
{
    return what == FILTER ? (size_t)n : (size_t)WA_MAX_ITEMS * n;
}

/* The values the CPU appends, in element order (ref may be NULL: count only). */
static size_t reference(work what, const int *in, int n, int *ref)
{
    size_t c = 0;
    int i, j;
    for (i = 0; i < n; i++) {
        if (what == FILTER) {
            if (in[i] > 0) {
                if (ref)
                    ref[c] = in[i];
                c++;
            }
        } else {
            for (j = 0; j < items_of(in[i]); j++) {
                if (ref)
                    ref[c] = item_value(in[i], j);
                c++;
            }
        }
    }
    return c;
}

/* Sorts v[0, n) by LSD radix, a byte at a time, the sign bit flipped so that
 * negative values come first; tmp has room for n. */
static void sort_ints(int *v, int *tmp, size_t n)
{
    size_t count[256], i, sum;
    int shift, b;
    for (shift = 0; shift < 32; shift += 8) {
        memset(count, 0, sizeof count);
        for (i = 0; i < n; i++)
            count[(((unsigned)v[i] ^ 0x80000000u) >> shift) & 255]++;
        for (sum = 0, b = 0; b < 256; b++) {
            size_t t = count[b];
            count[b] = sum;
            sum += t;
        }
        for (i = 0; i < n; i++)
            tmp[count[(((unsigned)v[i] ^ 0x80000000u) >> shift) & 255]++] = v[i];
        memcpy(v, tmp, n * sizeof *v);
    }
}

typedef enum { COUNT_WRONG, PAST_COUNT, VALUES_WRONG } problem;

static const char *hint(const char *name, problem p, int got)
{
    int filter = work_of(name) == FILTER;
    if (p == COUNT_WRONG && got == 0)
        return !strcmp(name, "filter_coalesced") ? "Is atomic_inc_coalesced still a TODO?"
                                                  : "Is the kernel still a TODO?";
    if (!strcmp(name, "filter_coalesced"))
        return p == COUNT_WRONG
                   ? "The leader claims a slot for every thread of the group at once: "
                     "atomicAdd(ctr, active.size()), not 1"
                   : "Each thread's slot is the leader's first slot, which active.shfl(first, "
                     "0) hands to every thread of the group, plus its own active.thread_rank()";
    if (filter)
        return p == COUNT_WRONG
                   ? "The leader claims one slot for every active lane at once: "
                     "atomicAdd(count, __popc(active)), not 1"
                   : "A lane's rank is the number of ACTIVE lanes below it, "
                     "__popc(active & ((1u << lane) - 1)), not its lane number; and every lane "
                     "adds the leader's first slot, broadcast with __shfl_sync(active, first, "
                     "leader)";
    if (!strcmp(name, "emit_warp"))
        return p == COUNT_WRONG
                   ? "Lane 31's inclusive sum is the warp's total, and lane 31 makes the one "
                     "atomicAdd. Every lane must reach the shuffles: no return before them for "
                     "i >= n (a lane past n has k = 0), or the last warp loses its lane 31"
                   : "A lane's items start at the warp's first slot (lane 31's atomicAdd result, "
                     "broadcast with __shfl_sync(FULL_MASK, first, 31)) plus sum - k, the items "
                     "of the lanes below it; sum alone is one lane's worth too far";
    return p == COUNT_WRONG
               ? "Thread 0 claims the sum of all WA_WARPS warp totals with one atomicAdd per "
                 "block, after a __syncthreads() that follows the warps' writes of their "
                 "totals; every thread must reach the barriers and shuffles (no return for "
                 "i >= n before them)"
               : "A thread's items start at block_first + warp_first[warp] (the totals of the "
                 "warps before its own) + sum - k, both read after the second __syncthreads()";
}

/* Checks out (room ints, downloaded) against the reference's expected values
 * (ref, sorted here), *count being right: nothing past the count, and the
 * right values in out[0, count) in any order. Returns 0 or writes why. */
static int check_values(const char *name, int *h_out, size_t room, int *ref, size_t expected,
                        char *why, size_t len)
{
    size_t i, a = 0, b = 0, missing = 0, extra = 0, unwritten = 0;
    int first_missing = 0, first_extra = 0;
    int *tmp;

    for (i = expected; i < room; i++)
        if (h_out[i] != -1)
            break;
    if (i < room) {
        snprintf(why, len, "wrote out[%zu] = %d, past the %zu values of *count: nothing is "
                 "written from out[*count] on. %s",
                 i, h_out[i], expected, hint(name, PAST_COUNT, 1));
        return -1;
    }
    tmp = gl_malloc((expected + 1) * sizeof(int));
    sort_ints(ref, tmp, expected);
    sort_ints(h_out, tmp, expected);
    free(tmp);
    while (a < expected || b < expected) {
        if (b == expected || (a < expected && ref[a] < h_out[b])) {
            if (!missing++)
                first_missing = ref[a];
            a++;
        } else if (a == expected || h_out[b] < ref[a]) {
            if (h_out[b] == -1)
                unwritten++;
            else if (!extra++)
                first_extra = h_out[b];
            b++;
        } else {
            a++;
            b++;
        }
    }
    if (!missing)
        return 0;
    {
        char d[512] = "";
        size_t used = 0;
        if (extra)
            used += (size_t)snprintf(d, sizeof d, "; %zu slots hold a value twice or one no "
                                     "element gives (e.g. %d)", extra, first_extra);
        if (unwritten && used < sizeof d)
            snprintf(d + used, sizeof d - used, "; %zu slots of out[0, *count) were never "
                     "written (still -1)", unwritten);
        snprintf(why, len, "out[0, %zu) does not hold the right values, in any order: %zu of "
                 "them are missing (e.g. %d)%s. %s",
                 expected, missing, first_missing, d, hint(name, VALUES_WRONG, 1));
    }
    return -1;
}

/* Why *count is wrong after call number `call` (1 or 2) of a row on one
 * counter that held -1 before the first; wrote_before_out: out[-1] was
 * written (what a kernel that counts on from -1 does). */
static void describe_count(const char *name, int call, int got, size_t expected,
                           int wrote_before_out, char *why, size_t len)
{
    const char *what = work_of(name) == FILTER ? "positive elements" : "items";
    if (call == 1 && got == -1)
        snprintf(why, len, "*count is still -1, the value it held before the call: the launcher "
                 "sets *count = 0 on the stream first (cudaMemsetAsync, as given), also when n "
                 "is 0, and its kernel counts the %zu %s from there", expected, what);
    else if (call == 1 && expected > 0 && got == (int)expected - 1 && wrote_before_out)
        snprintf(why, len, "*count is %d, one less than the %zu %s, and out[-1] was written: it "
                 "counted on from the -1 it held before the call. The launcher sets *count = 0 "
                 "on the stream first (cudaMemsetAsync, as given)", got, expected, what);
    else if (call == 2 && expected > 0 && got == 2 * (int)expected)
        snprintf(why, len, "after a second call on the same counter, *count is %d, twice the "
                 "%zu %s: it counted on from the first call. The launcher sets *count = 0 on "
                 "the stream first (cudaMemsetAsync, as given)", got, expected, what);
    else
        snprintf(why, len, "*count is %d after %s, expected %zu (the %s). %s", got,
                 call == 1 ? "the call" : "a second call in a row", expected, what,
                 hint(name, COUNT_WRONG, got));
}

/* Runs fn `calls` times in a row (1 or 2) on n elements of the input, on one
 * counter that holds -1 before the first call, with out poisoned before
 * each, and checks everything about the result. Returns "" or why not (a
 * static buffer). */
static const char *run_and_check(wa_fn fn, const char *name, int n, input kind, int calls)
{
    static char why[2048];
    work what = work_of(name);
    size_t cap = capacity(what, n), room = cap + 64, in_room = (size_t)n + 64, expected;
    int *h_in = gl_malloc(in_room * sizeof(int)), *h_out = gl_malloc(room * sizeof(int)), *ref;
    gl_buf in = gl_buf_alloc(in_room * sizeof(int), 0), out = gl_buf_alloc(room * sizeof(int), 0),
           cnt = gl_buf_alloc(sizeof(int), 0);
    gl_guard_report g;
    gl_rng rng;
    int got = 0, call;

    why[0] = '\0';
    gl_test_rng(&rng);
    make_input(h_in, in_room, what, kind, &rng);
    expected = reference(what, h_in, n, NULL);
    ref = gl_malloc((expected + 1) * sizeof(int));
    reference(what, h_in, n, ref);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&cnt);
    for (call = 1; call <= calls && !why[0]; call++) {
        gl_buf_poison(&out);
        fn(out.ptr, cnt.ptr, in.ptr, n);
        GL_CHECK_LAUNCH(name);
        gl_buf_download(&cnt, &got);
        if (got != (int)expected) {
            int before = gl_buf_check_guards(&out, &g) && g.before > 0;
            describe_count(name, call, got, expected, before, why, sizeof why);
        }
    }
    if (!why[0]) {
        gl_buf_download(&out, h_out);
        if (gl_buf_check_guards(&out, &g)) {
            char d[512];
            gl_guard_describe(&g, out.bytes, sizeof(int), "out's allocation", d, sizeof d);
            snprintf(why, sizeof why, "%s: a slot outside out[0, *count)? %s", d,
                     hint(name, PAST_COUNT, 1));
        } else if (gl_buf_check_guards(&cnt, &g)) {
            char d[512];
            gl_guard_describe(&g, cnt.bytes, sizeof(int), "count's allocation", d, sizeof d);
            snprintf(why, sizeof why, "%s: count points to one int", d);
        } else {
            check_values(name, h_out, room, ref, expected, why, sizeof why);
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    gl_buf_free(&cnt);
    free(h_in);
    free(h_out);
    free(ref);
    return why;
}

static void check(const char *name, const int *sizes, int nsizes, input kind)
{
    wa_fn fn = (wa_fn)gl_submission_fn(name);
    int s;
    for (s = 0; s < nsizes; s++) {
        const char *why = run_and_check(fn, name, sizes[s], kind, 2);
        if (*why)
            gl_check_fail("%s with n = %d, %s: %s", name, sizes[s],
                          input_name(work_of(name), kind), why);
    }
}

static const int small[] = {0, 1, 31, 33, 1000};
static const int odd[] = {33, 1000};
static const int big[] = {BIG};

static void check_small(const char *name)
{
    check(name, small, 5, RANDOM);
    check(name, odd, 2, NONE);
    check(name, odd, 2, ALL);
}

static void check_large(const char *name)
{
    check(name, big, 1, RANDOM);
    check(name, big, 1, ALL);
}

GL_TEST(filter_coalesced_small_n)
{
    check_small("filter_coalesced");
}

GL_TEST(filter_coalesced_large_n)
{
    check_large("filter_coalesced");
}

GL_TEST(filter_intrinsics_small_n)
{
    check_small("filter_intrinsics");
}

GL_TEST(filter_intrinsics_large_n)
{
    check_large("filter_intrinsics");
}

GL_TEST(emit_warp_small_n)
{
    check_small("emit_warp");
}

GL_TEST(emit_warp_large_n)
{
    check_large("emit_warp");
}

GL_TEST(emit_block_small_n)
{
    check_small("emit_block");
}

GL_TEST(emit_block_large_n)
{
    check_large("emit_block");
}

/* The launcher only enqueues its work (gl_expect_queued). */
typedef struct {
    wa_fn fn;
    int *out, *count;
    const int *in;
    int *ref;
    size_t expected, room;
    int n;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    q->fn(q->out, q->count, q->in, q->n);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    int *h = gl_malloc(q->room * sizeof(int)), got = 0, right;
    char why[2048];
    GL_CUDA(cudaMemcpy(&got, q->count, sizeof(int), cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(h, q->out, q->room * sizeof(int), cudaMemcpyDeviceToHost));
    right = got == (int)q->expected &&
            check_values("emit_warp", h, q->room, q->ref, q->expected, why, sizeof why) == 0;
    free(h);
    return right;
}

GL_TEST(emit_warp_async)
{
    const int n = BIG;
    size_t in_bytes = (size_t)n * sizeof(int), room = capacity(EMIT, n) + 64;
    int *h_in = gl_malloc(in_bytes);
    gl_buf staged = gl_buf_alloc(in_bytes, 0), in = gl_buf_alloc(in_bytes, 0),
           out = gl_buf_alloc(room * sizeof(int), 0), cnt = gl_buf_alloc(sizeof(int), 0);
    queued q = {(wa_fn)gl_submission_fn("emit_warp"), out.ptr, cnt.ptr, in.ptr, NULL, 0, room, n};
    gl_queue_buffers b = {in.ptr, staged.ptr, in_bytes, out.ptr, room * sizeof(int)};
    gl_rng rng;

    gl_test_rng(&rng);
    make_input(h_in, (size_t)n, EMIT, RANDOM, &rng);
    q.expected = reference(EMIT, h_in, n, NULL);
    q.ref = gl_malloc((q.expected + 1) * sizeof(int));
    reference(EMIT, h_in, n, q.ref);
    gl_buf_upload(&staged, h_in);
    gl_expect_queued("emit_warp", queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&out);
    gl_buf_free(&cnt);
    free(h_in);
    free(q.ref);
}

/* ---- technique: read from the PTX, no GPU needed ---- */

/* Atomic instructions on global (or generic) memory: atom and red. */
static int atomics(const gl_ptx_entry *e)
{
    return gl_ptx_count(e, "atom") + gl_ptx_count(e, "red") - gl_ptx_count(e, "atom.shared") -
           gl_ptx_count(e, "red.shared");
}

/* The lanes that need a slot, found by __activemask or __ballot_sync. */
static int elections(const gl_ptx_entry *e)
{
    return gl_ptx_count(e, "activemask") + gl_ptx_count_with(e, "vote", ".ballot");
}

/* The given kernel, from the baselines' PTX (so a test can show it tells the
 * two apart). Free the returned text. */
static char *given_ptx(const char *kernel, gl_ptx_entry *e)
{
    char *ptx = gl_read_file(gl_baseline_ptx());
    if (!ptx || gl_ptx_entry_find(ptx, kernel, e) != 0)
        gl_check_fail("grader: the baselines' PTX (%s) is missing: rebuild the kit with make",
                      gl_baseline_ptx());
    return ptx;
}

static void expect_aggregated_filter(const char *kernel, const char *how)
{
    gl_ptx_entry e;
    char *ptx = given_ptx("filter_atomic_kernel", &e);
    if (elections(&e) || gl_ptx_count(&e, "shfl.sync"))
        gl_check_fail("grader: the given filter_atomic_kernel already has activemask or "
                      "shfl.sync in its PTX: this compiler aggregates before the PTX, and the "
                      "test cannot tell the two kernels apart");
    free(ptx);
    ptx = gl_kernel_ptx(kernel, &e);
    if (elections(&e) == 0)
        gl_check_fail("%s has no activemask or vote.ballot in its PTX: the warp never finds out "
                      "which of its lanes need a slot. %s",
                      kernel, how);
    if (gl_ptx_count(&e, "popc") == 0)
        gl_check_fail("%s has no popc in its PTX: the number of slots the warp needs, and a "
                      "lane's rank among the lanes that need one, are population counts of the "
                      "active mask. %s",
                      kernel, how);
    if (gl_ptx_count(&e, "shfl.sync") == 0)
        gl_check_fail("%s has no shfl.sync in its PTX: the leader's first slot reaches the "
                      "other lanes by a shuffle. %s",
                      kernel, how);
    if (atomics(&e) > MAX_ATOMICS_IN_PTX)
        gl_check_fail("%s has %d atomic instructions in its PTX: the leader makes one",
                      kernel, atomics(&e));
    free(ptx);
}

GL_TEST(filter_coalesced_elects_a_leader)
{
    expect_aggregated_filter("filter_coalesced_kernel",
                             "atomic_inc_coalesced uses cg::coalesced_threads(): its size(), "
                             "thread_rank() and shfl() are these instructions");
}

GL_TEST(filter_intrinsics_elects_a_leader)
{
    expect_aggregated_filter("filter_intrinsics_kernel",
                             "Task 1 uses __activemask(), __popc(), __ffs() and __shfl_sync()");
}

GL_TEST(emit_warp_scans)
{
    gl_ptx_entry e;
    char *ptx = given_ptx("emit_atomic_kernel", &e);
    if (gl_ptx_count(&e, "shfl.sync"))
        gl_check_fail("grader: the given emit_atomic_kernel has shfl.sync in its PTX: the test "
                      "cannot tell the two kernels apart");
    free(ptx);
    ptx = gl_kernel_ptx("emit_warp_kernel", &e);
    if (gl_ptx_count(&e, "shfl.sync.up") == 0)
        gl_check_fail("emit_warp_kernel has no shfl.sync.up in its PTX: the scan of the lanes' "
                      "item counts is __shfl_up_sync(FULL_MASK, sum, d), for d = 1, 2, 4, 8, 16");
    if (atomics(&e) == 0)
        gl_check_fail("emit_warp_kernel has no atomic instruction in its PTX: the warp's slots "
                      "are claimed with one atomicAdd(count, total)");
    if (atomics(&e) > MAX_ATOMICS_IN_PTX)
        gl_check_fail("emit_warp_kernel has %d atomic instructions in its PTX: lane 31 makes "
                      "one, for the whole warp",
                      atomics(&e));
    free(ptx);
}

GL_TEST(emit_block_shares_totals)
{
    gl_ptx_entry e;
    char *ptx;
    long bytes = gl_kernel_shared_bytes("emit_block_kernel",
                                        "Task 3 keeps each warp's total in a __shared__ array "
                                        "(warp_first[WA_WARPS])");
    if (bytes < (long)(WA_WARPS * sizeof(int)))
        gl_check_fail("emit_block_kernel's largest __shared__ array has %ld bytes: too small "
                      "for the totals of the block's %d warps",
                      bytes, WA_WARPS);
    ptx = gl_kernel_ptx("emit_block_kernel", &e);
    if (gl_ptx_barriers(&e) < 2)
        gl_check_fail("emit_block_kernel has %d barriers (bar.sync) in its PTX: it needs one "
                      "after the warps write their totals, before thread 0 reads them, and one "
                      "after thread 0 writes the offsets and the block's first slot, before the "
                      "other threads read them",
                      gl_ptx_barriers(&e));
    if (atomics(&e) == 0)
        gl_check_fail("emit_block_kernel has no atomic instruction in its PTX: the block's "
                      "slots are claimed with one atomicAdd(count, total)");
    if (atomics(&e) > MAX_ATOMICS_IN_PTX)
        gl_check_fail("emit_block_kernel has %d atomic instructions in its PTX: thread 0 makes "
                      "one, for the whole block",
                      atomics(&e));
    free(ptx);
}

/* ---- performance: one run, ratios only ---- */

typedef struct {
    wa_fn fn;
    int *out, *count;
    const int *in;
    int n;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    j->fn(j->out, j->count, j->in, j->n);
}

/* The time of fn on n elements of random input, whose result after the
 * timed runs must be right (a launcher that works only once is not timed). */
static double time_ms(wa_fn fn, const char *name, int n)
{
    work what = work_of(name);
    size_t room = capacity(what, n) + 64, expected;
    int *h_in = gl_malloc((size_t)n * sizeof(int)), *h_out = gl_malloc(room * sizeof(int)), *ref;
    gl_buf in = gl_buf_alloc((size_t)n * sizeof(int), 0), out = gl_buf_alloc(room * sizeof(int), 0),
           cnt = gl_buf_alloc(sizeof(int), 0);
    job j = {fn, out.ptr, cnt.ptr, in.ptr, n};
    char why[2048];
    gl_rng rng;
    double ms;
    int got = 0;

    gl_test_rng(&rng);
    make_input(h_in, (size_t)n, what, RANDOM, &rng);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    ms = gl_time_ms(run_job, &j, gl_timing_default());
    gl_buf_download(&cnt, &got);
    gl_buf_download(&out, h_out);
    expected = reference(what, h_in, n, NULL);
    ref = gl_malloc((expected + 1) * sizeof(int));
    reference(what, h_in, n, ref);
    if (got != (int)expected ||
        check_values(name, h_out, room, ref, expected, why, sizeof why) != 0)
        gl_check_fail("%s is not right at n = %d on random input (after the timed runs), so its "
                      "speed is not graded (the correctness tests say more)",
                      name, n);
    gl_buf_free(&in);
    gl_buf_free(&out);
    gl_buf_free(&cnt);
    free(h_in);
    free(h_out);
    free(ref);
    return ms;
}

static void expect_faster(const char *fast, const char *slow, double min_ratio, const char *why)
{
    const int n = 1 << 24;
    gl_device_info info;
    double s, f;
    gl_device_require(&info);
    s = time_ms((wa_fn)gl_baseline_fn(slow), slow, n);
    f = time_ms((wa_fn)gl_submission_fn(fast), fast, n);
    if (s < min_ratio * f)
        gl_check_fail("at n = %d (random input), %s takes %.3f ms, %.2fx faster than the given "
                      "%s (%.3f ms); it should be at least %.2fx. %s",
                      n, fast, f, s / f, slow, s, min_ratio, why);
    gl_test_note("%s %.3f ms = %.2fx faster than %s %.3f ms (needs %.2fx)", fast, f, s / f, slow,
                 s, min_ratio);
}

GL_TEST(emit_warp_vs_atomic)
{
    expect_faster("emit_warp", "emit_atomic", MIN_WARP_OVER_ATOMIC,
                  "Each warp should make one atomicAdd, from lane 31, for the items of all its "
                  "lanes: then the counter sees 32 times fewer atomics");
}

GL_TEST(emit_block_vs_atomic)
{
    expect_faster("emit_block", "emit_atomic", MIN_BLOCK_OVER_ATOMIC,
                  "Each block should make one atomicAdd, from thread 0, for the items of all "
                  "its threads");
}

/* ---- profile: Nsight Compute counters ---- */

/* The atomic operations the SMs send to L2 (one 32-byte sector for each
 * lane that executes an atomic instruction), and the atomic instructions
 * (one for a warp, however many of its lanes execute it). */
static const char *const atomic_metrics[] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "smsp__sass_inst_executed_op_global_atom.sum",
    "smsp__sass_inst_executed_op_global_red.sum",
};

#define PROFILE_N (1 << 20)

/* Per warp of one launcher's kernel, on PROFILE_N elements of random input. */
static void atomics_per_warp(const char *launcher, double *operations, double *instructions)
{
    char n[32];
    const char *args[] = {launcher, n, NULL};
    double v[4], warps = (double)wa_blocks(PROFILE_N) * WA_WARPS;
    snprintf(n, sizeof n, "%d", PROFILE_N);
    gl_profile(atomic_metrics, 4, v, args);
    *operations = (v[0] + v[1]) / warps;
    *instructions = (v[2] + v[3]) / warps;
}

GL_TEST(emit_warp_atomics_per_warp)
{
    double given_ops, given_inst, ops, inst;
    atomics_per_warp("given:emit_atomic", &given_ops, &given_inst);
    atomics_per_warp("emit_warp", &ops, &inst);
    if (given_ops < MIN_GIVEN_ATOMICS_PER_WARP)
        gl_check_fail("grader: the given emit_atomic sends %.1f atomic operations per warp to "
                      "L2, where each of its lanes with items sends one (about 25): this "
                      "counter does not count the lanes' atomics on this GPU",
                      given_ops);
    if (ops > MAX_WARP_ATOMICS_PER_WARP)
        gl_check_fail("emit_warp sends %.2f atomic operations per warp to L2 (%.2f atomic "
                      "instructions per warp), where the given emit_atomic sends %.1f: its "
                      "lanes still make their own atomics. Only lane 31 makes one, for the "
                      "warp's total",
                      ops, inst, given_ops);
    gl_test_note("atomic operations per warp: emit_warp %.2f (needs at most %.1f), given "
                 "emit_atomic %.1f; atomic instructions per warp %.2f and %.2f",
                 ops, MAX_WARP_ATOMICS_PER_WARP, given_ops, inst, given_inst);
}

GL_TEST(emit_block_atomics_per_block)
{
    double ops, inst;
    atomics_per_warp("emit_block", &ops, &inst);
    if (ops * WA_WARPS > MAX_BLOCK_ATOMICS_PER_BLOCK)
        gl_check_fail("emit_block sends %.2f atomic operations per block of %d warps to L2 "
                      "(%.2f per warp): thread 0 makes one, for the block's total",
                      ops * WA_WARPS, WA_WARPS, ops);
    gl_test_note("atomic operations per block: emit_block %.2f (needs at most %.1f); %.3f per "
                 "warp",
                 ops * WA_WARPS, MAX_BLOCK_ATOMICS_PER_BLOCK, ops);
}

/* Under Nsight Compute: one launcher ("given:NAME" for the lab's own), once,
 * on n elements of random input; checked. */
static const char *run_once(int argc, char **argv)
{
    static const char *names[] = {"filter_atomic", "filter_coalesced", "filter_intrinsics",
                                  "emit_atomic",   "emit_warp",        "emit_block"};
    const char *name;
    int k;
    long n;

    if (argc != 2 || gl_parse_long(argv[1], 0, 1L << 26, &n))
        return "usage: --run [given:]LAUNCHER N";
    name = gl_launcher_name(argv[0]);
    for (k = 0; k < 6; k++)
        if (!strcmp(name, names[k]))
            break;
    if (k == 6)
        return "usage: --run [given:]LAUNCHER N (no such launcher)";
    return run_and_check((wa_fn)gl_launcher_fn(argv[0]), name, (int)n, RANDOM, 1);
}

static void add_tests(void)
{
    GL_ADD(filter_coalesced_small_n, GL_CORRECTNESS, 2, 15, "coalesced filter, n = 0 .. 1000");
    GL_ADD(filter_coalesced_large_n, GL_CORRECTNESS, 2, 15, "coalesced filter, n = 2^20 + 3");
    GL_ADD(filter_intrinsics_small_n, GL_CORRECTNESS, 2, 15, "intrinsics filter, n = 0 .. 1000");
    GL_ADD(filter_intrinsics_large_n, GL_CORRECTNESS, 2, 15, "intrinsics filter, n = 2^20 + 3");
    GL_ADD(emit_warp_small_n, GL_CORRECTNESS, 2, 15, "warp emitter, n = 0 .. 1000");
    GL_ADD(emit_warp_large_n, GL_CORRECTNESS, 2, 15, "warp emitter, n = 2^20 + 3");
    GL_ADD(emit_block_small_n, GL_CORRECTNESS, 2, 15, "block emitter, n = 0 .. 1000");
    GL_ADD(emit_block_large_n, GL_CORRECTNESS, 2, 15, "block emitter, n = 2^20 + 3");
    GL_ADD(emit_warp_async, GL_CORRECTNESS, 2, 30, "warp emitter, launcher returns at once");
    GL_ADD(filter_coalesced_elects_a_leader, GL_TECHNIQUE, 2, 10,
           "coalesced filter: activemask, popc, shfl");
    GL_ADD(filter_intrinsics_elects_a_leader, GL_TECHNIQUE, 2, 10,
           "intrinsics filter: activemask, popc, shfl");
    GL_ADD(emit_warp_scans, GL_TECHNIQUE, 3, 10, "warp emitter: shfl.sync.up scan, one atomic");
    GL_ADD(emit_block_shares_totals, GL_TECHNIQUE, 3, 10,
           "block emitter: shared totals, two barriers");
    GL_ADD(emit_warp_vs_atomic, GL_PERFORMANCE, 5, 120, "warp emitter faster than per-thread");
    GL_ADD(emit_block_vs_atomic, GL_PERFORMANCE, 5, 120, "block emitter faster than per-thread");
    GL_ADD(emit_warp_atomics_per_warp, GL_PROFILE, 5, 300, "warp emitter: 1 atomic per warp");
    GL_ADD(emit_block_atomics_per_block, GL_PROFILE, 5, 300, "block emitter: 1 atomic per block");
}

const gl_lab GL_LAB = {"06-warp-aggregation", "warp_aggregation.cu", add_tests, run_once};
