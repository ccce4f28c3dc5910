/* lab.c: lab 06-warp-aggregation described once (lab.h): the launchers, and the problem with
 * its input kinds, its two calls in a row and its check with the hints. */
#include "lab.h"

#include "gl_any_order.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GL_INVOKER(call_append, filter_atomic, a, a[0].p, a[1].p, a[2].p, (int)a[3].i)

/* Every launcher sets *count = 0 with cudaMemsetAsync before its kernel;
 * for n = 0 that is all it does. */
#define APPENDS (GL_MAY_MEMSET | GL_NO_KERNEL_OK)

const gl_launcher LAB_LAUNCHERS[] = {
    {"filter_atomic", "pppi", call_append, GL_GIVEN | APPENDS},
    {"filter_coalesced", "pppi", call_append, APPENDS},
    {"filter_intrinsics", "pppi", call_append, APPENDS},
    {"emit_atomic", "pppi", call_append, GL_GIVEN | APPENDS},
    {"emit_warp", "pppi", call_append, APPENDS},
    {"emit_block", "pppi", call_append, APPENDS},
    {NULL, NULL, NULL, 0},
};

static void run(const char *name, int *out, int *count, const int *in, int n)
{
    gl_arg a[] = {GL_P(out), GL_P(count), GL_P(in), GL_I(n)};
    gl_exec(name, a);
}

static int is_filter(const char *name)
{
    return !strncmp(name, "filter", 6);
}

/* The ints out has room for. */
static size_t capacity(const char *name, int n)
{
    return is_filter(name) ? (size_t)n : (size_t)WA_MAX_ITEMS * n;
}

/* What usually causes a wrong *count [0] or wrong values [1], in the lab's terms. */
static const char *const *hints(const char *name)
{
    static const char *const h[4][2] = {
        {"The leader claims a slot for every thread of the group at once: atomicAdd(ctr, "
         "active.size()), not 1", /* filter_coalesced */
         "Each thread's slot is the leader's first slot, which active.shfl(first, 0) hands to "
         "every thread of the group, plus its own active.thread_rank()"},
        {"The leader claims one slot for every active lane at once: atomicAdd(count, "
         "__popc(active)), not 1", /* the other filters */
         "A lane's rank is the number of ACTIVE lanes below it, __popc(active & ((1u << lane) - "
         "1)), not its lane number; and every lane adds the leader's first slot, broadcast with "
         "__shfl_sync(active, first, leader)"},
        {"Lane 31's inclusive sum is the warp's total, and lane 31 makes the one atomicAdd. "
         "Every lane must reach the shuffles: no return before them for i >= n (a lane past n "
         "has k = 0), or the last warp loses its lane 31", /* emit_warp */
         "A lane's items start at the warp's first slot (lane 31's atomicAdd result, broadcast "
         "with __shfl_sync(FULL_MASK, first, 31)) plus sum - k, the items of the lanes below "
         "it; sum alone is one lane's worth too far"},
        {"Thread 0 claims the sum of all WA_WARPS warp totals with one atomicAdd per block, after "
         "a __syncthreads() that follows the warps' writes of their totals; every thread must "
         "reach the barriers and shuffles (no return for i >= n before them)", /* the others */
         "A thread's items start at block_first + warp_first[warp] (the totals of the warps "
         "before its own) + sum - k, both read after the second __syncthreads()"}};
    int coalesced = !strcmp(name, "filter_coalesced");
    return h[coalesced ? 0 : is_filter(name) ? 1 : !strcmp(name, "emit_warp") ? 2 : 3];
}

enum { IN, OUT, COUNT }; /* wa_problem's buffers */
static char why[2048];   /* the check's verdict */

/* Why *count is wrong after call number `call` (1 or 2) of a row on one counter that held -1
 * before the first (a kernel that counts on from there writes out[-1]: a guard zone, which
 * the check finds first and out's words explain). */
static void describe_count(const char *name, int call, int got, int expected)
{
    const char *what = is_filter(name) ? "positive elements" : "items";
    if (call == 1 && got == -1)
        snprintf(why, sizeof why, "*count is still -1, the value it held before the call: the "
                 "launcher sets *count = 0 on the stream first (cudaMemsetAsync, as given), also "
                 "when n is 0, and its kernel counts the %d %s from there", expected, what);
    else if (call == 2 && expected > 0 && got == 2 * expected)
        snprintf(why, sizeof why, "after a second call on the same counter, *count is %d, twice "
                 "the %d %s: it counted on from the first call. The launcher sets *count = 0 on "
                 "the stream first (cudaMemsetAsync, as given)", got, expected, what);
    else
        snprintf(why, sizeof why, "*count is %d after %s, expected %d (the %s). %s", got,
                 call == 1 ? "the call" : "a second call in a row", expected, what,
                 got ? hints(name)[0]
                 : strcmp(name, "filter_coalesced") ? "Is the kernel still a TODO?"
                                                    : "Is atomic_inc_coalesced still a TODO?");
}

/* The problem's check (lab.h) of a call's outputs (buf: in, out, count, on the GPU), the
 * expected values poisoned past their end: out[0, *count) sorted only where nothing is written
 * past it, and where not right, the whole of out compared again to say why. "" if right. */
static const char *verify(void *ctx, void *const *buf, unsigned long long seed)
{
    const wa_size *z = ctx;
    const char *given = is_filter(z->launcher) ? "filter_atomic" : "emit_atomic";
    size_t room = capacity(z->launcher, z->n);
    gl_buf want = gl_buf_alloc(room * sizeof(int), 0), want_count = gl_buf_alloc(sizeof(int), 0);
    int expected = -1, count;
    (void)seed;
    why[0] = '\0';
    GL_CUDA(cudaMemset(want.ptr, GL_POISON_BYTE, room * sizeof(int)));
    if (z->expect && !is_filter(z->launcher))
        expected = z->expect(want.ptr, buf[IN], z->n);
    if (expected < 0) {
        run(given, want.ptr, want_count.ptr, buf[IN], z->n);
        GL_CHECK_LAUNCH(given);
        gl_buf_download(&want_count, &expected);
    }
    GL_CUDA(cudaMemcpy(&count, buf[COUNT], sizeof count, cudaMemcpyDeviceToHost));
    if (z->twice && z->first_count != expected)
        describe_count(z->launcher, 1, z->first_count, expected);
    else if (count != expected)
        describe_count(z->launcher, z->twice ? 2 : 1, count, expected);
    else if ((gl_device_count_not((int *)buf[OUT] + count, (room - count) * sizeof(int),
                                  GL_POISON_BYTE) ||
              gl_device_diff_any_order(want.ptr, buf[OUT], (size_t)count)) &&
             gl_any_order_check(want.ptr, buf[OUT], room, "out", why, sizeof why))
        snprintf(why + strlen(why), sizeof why - strlen(why), ". %s", hints(z->launcher)[1]);
    gl_buf_free(&want);
    gl_buf_free(&want_count);
    return why;
}

/* The input: random on the GPU, or of another kind on the host. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const wa_size *z = ctx;
    const int m = WA_MAX_ITEMS + 1, none = z->input == WA_NONE;
    size_t len = (size_t)z->n + WA_PAD, i;
    int *h;
    gl_rng rng;
    (void)k; /* the input, the one buffer made */
    if (z->input == WA_RANDOM) {
        gl_device_fill_int(dst, len, -WA_RANGE, WA_RANGE, seed);
        return;
    }
    h = gl_host_alloc(len * sizeof(int));
    gl_rng_init(&rng, seed, "06-warp-aggregation: in");
    if (is_filter(z->launcher)) /* no element positive, or every one */
        gl_fill_int(&rng, h, len, none ? -WA_RANGE : 1, none ? 0 : WA_RANGE);
    else /* multiples of m have no items; WA_MAX_ITEMS more, WA_MAX_ITEMS items */
        for (i = 0; i < len; i++)
            h[i] = m * (int)gl_rng_range(&rng, 0, WA_RANGE / m) + (none ? 0 : WA_MAX_ITEMS);
    GL_CUDA(cudaMemcpy(dst, h, len * sizeof(int), cudaMemcpyHostToDevice));
    free(h);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    wa_size *z = ctx;
    run(launcher, buf[OUT], buf[COUNT], buf[IN], z->n);
    if (!z->twice)
        return;
    /* a second call on the same counter, out poisoned again: it appends from *count = 0 too */
    GL_CHECK_LAUNCH(launcher);
    GL_CUDA(cudaMemcpy(&z->first_count, buf[COUNT], sizeof(int), cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemset(buf[OUT], GL_POISON_BYTE, capacity(launcher, z->n) * sizeof(int)));
    run(launcher, buf[OUT], buf[COUNT], buf[IN], z->n);
}

gl_problem wa_problem(const char *launcher, void *size)
{
    /* the kind of input in words, for an emitter [0] or a filter [1] (wa_size.input's order) */
    static const char *const input_name[2][3] = {
        {"random input", "no element with items", "every element with WA_MAX_ITEMS items"},
        {"random input", "no element positive", "every element positive"}};
    wa_size *z = size;
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = 2, .ctx = z, .make = problem_make,
                    .call = problem_call, .verify = verify, .inputs_read_only = 1,
                    .work = (double)z->n * sizeof(int), .sets = WA_SETS, .rounds = 3,
                    .baseline_sets = 4};
    z->launcher = launcher;
    snprintf(z->what, sizeof z->what, "at n = %d, %s", z->n,
             input_name[is_filter(launcher)][z->input]);
    snprintf(z->outside, sizeof z->outside, "a slot outside out[0, *count)? %s; out[-1] is the "
             "slot of a kernel that counts on from the -1 *count held before the call: the "
             "launcher sets *count = 0 on the stream first (cudaMemsetAsync, as given)",
             hints(launcher)[1]);
    p.buf[IN] = (gl_problem_buf){.name = "in", .bytes = ((size_t)z->n + WA_PAD) * sizeof(int),
                                 .outside = "in is the read-only input"};
    p.buf[OUT] = (gl_problem_buf){.name = "out", .bytes = capacity(launcher, z->n) * sizeof(int),
                                  .outside = z->outside};
    p.buf[COUNT] = (gl_problem_buf){.name = "count", .bytes = sizeof(int),
                                    .outside = "count points to one int"};
    return p;
}
