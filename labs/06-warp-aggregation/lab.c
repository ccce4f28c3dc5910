/* lab.c: lab 06-warp-aggregation described once (lab.h): the launchers, the reference, and
 * the problem with its input kinds, its two calls in a row and its check with the hints. */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*append_fn)(int *out, int *count, const int *in, int n);

static long long call_append(void *fn, const gl_arg *a)
{
    ((append_fn)fn)((int *)a[0].p, (int *)a[1].p, (const int *)a[2].p, (int)a[3].i);
    return 0;
}

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

void wa_run(const char *name, int *out, int *count, const int *in, int n)
{
    gl_arg a[] = {GL_P(out), GL_P(count), GL_P(in), GL_I(n)};
    gl_exec(name, a);
}

int wa_is_filter(const char *name)
{
    return !strncmp(name, "filter", 6);
}

size_t wa_capacity(const char *name, int n)
{
    return wa_is_filter(name) ? (size_t)n : (size_t)WA_MAX_ITEMS * n;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes + 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
}

/* n + WA_PAD elements of input of that kind for launcher `name`, on the host. */
static void fill_input(gl_rng *rng, const char *name, size_t len, wa_input kind, int *h)
{
    const int m = WA_MAX_ITEMS + 1;
    size_t i;
    if (kind == WA_RANDOM)
        gl_fill_int(rng, h, len, -WA_RANGE, WA_RANGE);
    else if (wa_is_filter(name))
        gl_fill_int(rng, h, len, kind == WA_NONE ? -WA_RANGE : 1, kind == WA_NONE ? 0 : WA_RANGE);
    else
        for (i = 0; i < len; i++)
            h[i] = m * (int)gl_rng_range(rng, 0, WA_RANGE / m) +
                   (kind == WA_NONE ? 0 : WA_MAX_ITEMS);
}

/* The kind of input in words, for launcher `name` ("every element positive"). */
static const char *input_name(const char *name, wa_input kind)
{
    if (kind == WA_RANDOM)
        return "random input";
    if (wa_is_filter(name))
        return kind == WA_NONE ? "no element positive" : "every element positive";
    return kind == WA_NONE ? "no element with items" : "every element with WA_MAX_ITEMS items";
}

size_t wa_reference(const char *name, const int *in, int n, int *ref)
{
    int filter = wa_is_filter(name), i, j;
    size_t c = 0;
    for (i = 0; i < n; i++) {
        if (filter) {
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

typedef enum { COUNT_WRONG, PAST_COUNT, VALUES_WRONG } fault;

/* What usually causes what the check found, in the lab's terms. */
static const char *hint(const char *name, fault p, int got)
{
    if (p == COUNT_WRONG && got == 0)
        return !strcmp(name, "filter_coalesced") ? "Is atomic_inc_coalesced still a TODO?"
                                                  : "Is the kernel still a TODO?";
    if (!strcmp(name, "filter_coalesced"))
        return p == COUNT_WRONG
                   ? "The leader claims a slot for every thread of the group at once: "
                     "atomicAdd(ctr, active.size()), not 1"
                   : "Each thread's slot is the leader's first slot, which active.shfl(first, "
                     "0) hands to every thread of the group, plus its own active.thread_rank()";
    if (wa_is_filter(name))
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

/* A result whose *count was right (expected): nothing in out[expected, room) but the poison,
 * and out[0, expected) the values of ref in any order (both sorted here, in place). Returns 0,
 * or -1 with why (len bytes). */
static int check_values(const char *launcher, int *h_out, size_t room, int *ref,
                        size_t expected, char *why, size_t len)
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
                 i, h_out[i], expected, hint(launcher, PAST_COUNT, 1));
        return -1;
    }
    tmp = xmalloc((expected + 1) * sizeof(int));
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
                 expected, missing, first_missing, d, hint(launcher, VALUES_WRONG, 1));
    }
    return -1;
}

/* Why *count is wrong after call number `call` (1 or 2) of a row on one counter that held -1
 * before the first (a kernel that counts on from there writes out[-1]: a guard zone, which
 * the check finds first and out's words explain). */
static void describe_count(const char *name, int call, int got, size_t expected, char *why,
                           size_t len)
{
    const char *what = wa_is_filter(name) ? "positive elements" : "items";
    if (call == 1 && got == -1)
        snprintf(why, len, "*count is still -1, the value it held before the call: the launcher "
                 "sets *count = 0 on the stream first (cudaMemsetAsync, as given), also when n "
                 "is 0, and its kernel counts the %zu %s from there", expected, what);
    else if (call == 2 && expected > 0 && got == 2 * (int)expected)
        snprintf(why, len, "after a second call on the same counter, *count is %d, twice the "
                 "%zu %s: it counted on from the first call. The launcher sets *count = 0 on "
                 "the stream first (cudaMemsetAsync, as given)", got, expected, what);
    else
        snprintf(why, len, "*count is %d after %s, expected %zu (the %s). %s", got,
                 call == 1 ? "the call" : "a second call in a row", expected, what,
                 hint(name, COUNT_WRONG, got));
}

enum { IN, OUT, COUNT }; /* wa_problem's buffers */

const char *wa_verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const wa_size *z = ctx;
    size_t cap = wa_capacity(z->launcher, z->n), len = (size_t)z->n + WA_PAD, expected;
    int *in = xmalloc(len * sizeof(int)), *out = xmalloc(cap * sizeof(int)),
        *ref = xmalloc(cap * sizeof(int)), count;
    (void)seed;
    why[0] = '\0';
    GL_CUDA(cudaMemcpy(in, buf[IN], len * sizeof(int), cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(out, buf[OUT], cap * sizeof(int), cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(&count, buf[COUNT], sizeof count, cudaMemcpyDeviceToHost));
    expected = wa_reference(z->launcher, in, z->n, ref);
    if (z->twice && z->first_count != (int)expected)
        describe_count(z->launcher, 1, z->first_count, expected, why, sizeof why);
    else if (count != (int)expected)
        describe_count(z->launcher, z->twice ? 2 : 1, count, expected, why, sizeof why);
    else
        check_values(z->launcher, out, cap, ref, expected, why, sizeof why);
    free(in);
    free(out);
    free(ref);
    return why;
}

/* The input: the demo's (given), random on the GPU, or of another kind on the host. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const wa_size *z = ctx;
    size_t len = (size_t)z->n + WA_PAD;
    int *h;
    gl_rng rng;
    (void)k; /* the input, the one buffer made */
    if (z->given) {
        GL_CUDA(cudaMemcpy(dst, z->given, len * sizeof(int), cudaMemcpyHostToDevice));
    } else if (z->input == WA_RANDOM) {
        gl_device_fill_int(dst, len, -WA_RANGE, WA_RANGE, seed);
    } else {
        h = xmalloc(len * sizeof(int));
        gl_rng_init(&rng, seed, "06-warp-aggregation: in");
        fill_input(&rng, z->launcher, len, z->input, h);
        GL_CUDA(cudaMemcpy(dst, h, len * sizeof(int), cudaMemcpyHostToDevice));
        free(h);
    }
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    wa_size *z = ctx;
    wa_run(launcher, buf[OUT], buf[COUNT], buf[IN], z->n);
    if (!z->twice)
        return;
    /* a second call on the same counter, out poisoned again: it appends from *count = 0 too */
    GL_CHECK_LAUNCH(launcher);
    GL_CUDA(cudaMemcpy(&z->first_count, buf[COUNT], sizeof(int), cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemset(buf[OUT], GL_POISON_BYTE, wa_capacity(launcher, z->n) * sizeof(int)));
    wa_run(launcher, buf[OUT], buf[COUNT], buf[IN], z->n);
}

gl_problem wa_problem(const char *launcher, void *size)
{
    wa_size *z = size;
    size_t in = ((size_t)z->n + WA_PAD) * sizeof(int);
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = 2, .ctx = z, .make = problem_make,
                    .call = problem_call, .verify = wa_verify, .inputs_read_only = 1,
                    .work = (double)z->n * sizeof(int), .sets = WA_SETS, .rounds = WA_ROUNDS,
                    .baseline_sets = WA_BASELINE_SETS};
    z->launcher = launcher;
    snprintf(z->what, sizeof z->what, "at n = %d, %s", z->n, input_name(launcher, z->input));
    snprintf(z->outside, sizeof z->outside, "a slot outside out[0, *count)? %s; out[-1] is the "
             "slot of a kernel that counts on from the -1 *count held before the call: the "
             "launcher sets *count = 0 on the stream first (cudaMemsetAsync, as given)",
             hint(launcher, PAST_COUNT, 1));
    p.buf[IN] = (gl_problem_buf){.name = "in", .bytes = in,
                                 .outside = "in is the read-only input"};
    p.buf[OUT] = (gl_problem_buf){.name = "out",
                                  .bytes = wa_capacity(launcher, z->n) * sizeof(int),
                                  .outside = z->outside};
    p.buf[COUNT] = (gl_problem_buf){.name = "count", .bytes = sizeof(int),
                                    .outside = "count points to one int"};
    return p;
}

const char *wa_check(const char *launcher, int n, const int *in, int calls)
{
    wa_size z = {.n = n, .twice = calls == 2, .given = in};
    gl_problem p = wa_problem(launcher, &z);
    return gl_problem_check(launcher, &p, 0);
}
