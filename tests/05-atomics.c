/* 05-atomics.c: the grader's suite for lab 05-atomics.
 *
 *   correctness  every launcher, exact, on tiny, odd and large n (a multiple of 32 and of the
 *                block or not) and one drawn from the seed: the histograms also on equal bytes
 *                and skewed values, the maximum on negative and tied input, first or last and
 *                twice on one result, the sum three calls in a row on one counter (back at 0
 *                after each); the launchers return at once (the work is on the GPU)
 *   technique    from the PTX: shared atomics (atom.shared) into a zeroed histogram between two
 *                barriers and a global merge (the given kernels have no shared atomics, so the
 *                test can tell); an atomicCAS; the partial, a fence, then the atomicInc ticket
 *   performance  against the lab's own global-atomic kernels, timed by the judge on fresh inputs
 *   profile      Nsight Compute: the byte histogram's global atomics, at most one per bin per block
 * Every call is on the lab's problems (lab.c; in words: problem, at the end), from the test's
 * seed, checked against the reference, the guard zones and the read-only inputs (GL_RIGHT). */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define BIG "1048579" /* 2^20 + 3 */
#define PERF_BINS 1000   /* not a power of two */
#define HOT_PERF 0.9     /* the timed skewed problem's share in the last bin (timed, below), */
#define HOT_RUN 8192     /* in runs of this many values */

/* ---- correctness: the words after n name the input (at_input; problem, below) ---- */
static const char *const input_words[] = {"random", "negative", "first", "last", "ties", "equal"};

GL_RIGHT(histogram_shared_small_n, 2, 15, "privatised, n = 0 .. 4096", .run = "histogram_shared",
         .cases = "0, 1, 2, 32, 96, 255, 256, 1000, 4096")
GL_RIGHT(histogram_shared_large_n, 2, 15, "privatised, n = 2^20 (+ 3)",
         .run = "histogram_shared", .cases = BIG ", 1048576")
/* every count in one bin: the most contention there is */
GL_RIGHT(histogram_shared_one_value, 2, 15, "privatised, every byte equal",
         .run = "histogram_shared", .cases = "1000 equal, " BIG " equal")
GL_RIGHT(histogram_shared_random, 1, 15, "privatised, n drawn from the seed",
         .run = "histogram_shared 1..3000000")

/* histogram_bins N NBINS PERCENT (of the values in the last bin), on 1, 7, 96, AT_BINS (256),
 * PERF_BINS (1000) and AT_MAX_BINS (4096) bins; n = 0: the bins are zeroed all the same */
GL_RIGHT(histogram_bins_uniform, 2, 15, "any bin count, uniform values", .run = "histogram_bins",
         .cases = "0 1000 0, 1 1000 0, 100003 1 0, 100003 7 0, 100003 96 0, 100003 256 0, "
                  "100003 1000 0, 100003 4096 0, " BIG " 1000 0, " BIG " 4096 0")
GL_RIGHT(histogram_bins_skewed, 2, 15, "any bin count, 99% in one bin", .run = "histogram_bins",
         .cases = BIG " 1 99, " BIG " 7 99, " BIG " 96 99, " BIG " 256 99, " BIG " 1000 99, "
                  BIG " 4096 99")
/* uniform, or 99% in the last bin */
GL_RIGHT(histogram_bins_random, 1, 15, "any bin count, n and nbins drawn from the seed",
         .run = "histogram_bins 1..3000000 1..4096 0..1*99")

GL_RIGHT(max_float_sizes, 2, 15, "float maximum, n = 0 .. 2^20 + 3", .run = "max_float",
         .cases = "0, 1, 2, 32, 33, 256, 257, 1000, " BIG)
GL_RIGHT(max_float_negative, 2, 15, "float maximum, all negative", .run = "max_float",
         .cases = "1 negative, 33 negative, 1000 negative, " BIG " negative")
GL_RIGHT(max_float_position, 2, 15, "float maximum first, last, tied", .run = "max_float",
         .cases = "1 first, 33 first, 1000 first, " BIG " first, 1 last, 33 last, 1000 last, "
                  BIG " last, 1 ties, 33 ties, 1000 ties, " BIG " ties")
/* n drawn from the seed, then the input's kind by its number (AT_RANDOM .. AT_TIES) */
GL_RIGHT(max_float_random, 1, 15, "float maximum, n drawn from the seed",
         .run = "max_float 1..3000000 0..4")
/* Two calls on one result: a large maximum, then a smaller one. The second must not see the
 * first's: it finds *result as the first left it (5000), once the first is right. */
GL_RIGHT(max_float_twice, 2, 15, "float maximum, two calls, one result", .run = "max_float",
         .cases = BIG " last, " BIG " negative again")

/* around a block and AT_SUM_BLOCKS * AT_BLOCK (262144): one element per thread of the grid */
GL_RIGHT(sum_last_block_sizes, 2, 15, "last-block sum, n = 0 .. 2^20 + 3",
         .run = "sum_last_block", .cases = "0, 1, 2, 255, 256, 257, 1000, 262144, 262145, " BIG)
GL_RIGHT(sum_last_block_random, 1, 15, "last-block sum, n drawn from the seed",
         .run = "sum_last_block 1..3000000")
/* three calls in a row on one counter, zeroed once before the first: each finds it as the
 * call before left it, at 0 once that call is right (its check sees the counter) */
GL_RIGHT(sum_last_block_repeated, 2, 15, "last-block sum, three calls", .run = "sum_last_block",
         .cases = BIG ", 1000, " BIG)

/* ---- the launchers only enqueue their work, on n = 2^20 + 3 (task 2: 1000 uniform bins) ---- */
GL_QUEUED(histogram_shared_async, 2, "privatised, launcher returns at once",
          .run = "histogram_shared " BIG)
GL_QUEUED(histogram_bins_async, 1, "any bin count, launcher returns at once",
          .run = "histogram_bins " BIG " 1000")
GL_QUEUED(max_float_async, 1, "float maximum, launcher returns at once", .run = "max_float " BIG)
GL_QUEUED(sum_last_block_async, 1, "last-block sum, launcher returns at once",
          .run = "sum_last_block " BIG)

/* ---- technique: read from the PTX, no GPU needed ---- */

/* The kernels the launcher really ran, by their source names: _Z23histogram_shared_kernelPjPKhi
 * and histogram_shared_kernel(unsigned int*, ...) become histogram_shared_kernel. */
static int atomics_kernels(const char *launcher, const char *named, char (*names)[224], int max)
{
    int n = gl_technique_kernels(launcher, named, names, max);
    for (int i = 0; i < n; i++) {
        char *s = names[i], *end;
        long len;
        if (!strncmp(s, "_Z", 2) && isdigit((unsigned char)s[2]) &&
            (len = strtol(s + 2, &end, 10)) > 0 && len <= (long)strlen(end))
            memmove(s, end, (size_t)len), s[len] = '\0';
        else if ((end = strchr(s, '(')))
            *end = '\0';
    }
    return n;
}
#define FOR_EACH_KERNEL(launcher, named, k)                                                   \
    GL_FOR_EACH_KERNEL_OF(atomics_kernels, launcher, named, k)

/* atomics (atom: the old value is used; red: it is not) on shared memory */
static int shared_atomics(const gl_ptx_entry *e)
{
    return gl_ptx_count_with(e, "atom", ".shared") + gl_ptx_count_with(e, "red", ".shared");
}

/* every other atomic: global (or generic, which may be global) */
static int global_atomics(const gl_ptx_entry *e)
{
    return gl_ptx_count(e, "atom") + gl_ptx_count(e, "red") - shared_atomics(e);
}

/* The given kernel adds in global memory only: the test can tell them apart. */
static void check_baseline_global(const char *kernel)
{
    const gl_ptx_entry *e = gl_given_entry(kernel);
    gl_given_tells_apart(shared_atomics(e) == 0 && global_atomics(e) > 0, kernel,
                         "has shared atomics, or no global one,");
}

/* The three steps of a privatised histogram, in the kernel's PTX; task 1's histogram in full. */
static void check_privatised(const char *kernel, int task)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    if (shared_atomics(e) == 0)
        gl_check_fail("%s has no atomic on shared memory (atom.shared) in its PTX: task %d counts "
                      "into the block's own histogram in __shared__ memory, with atomicAdd, so "
                      "that only the block's threads contend for a bin", kernel, task);
    if (gl_ptx_count(e, "st.shared") == 0)
        gl_check_fail("%s never stores to shared memory (no st.shared in its PTX): the block's "
                      "histogram is not zeroed, and shared memory starts with whatever the last "
                      "block on that multiprocessor left there", kernel);
    gl_expect_barriers(e, kernel, 2,
                       "it needs one after zeroing the histogram (no thread counts into a bin not "
                       "yet zeroed) and one before the merge (every count is in before it is "
                       "read)");
    if (global_atomics(e) == 0)
        gl_check_fail("%s has no atomic on global memory in its PTX: the merge adds each bin to "
                      "bins[b] with atomicAdd, since the other blocks add to the same bins (a "
                      "store would overwrite their counts)", kernel);
    if (task != 1) /* task 2's histogram is extern __shared__, as large as nbins */
        return;
    long bytes = gl_kernel_shared_bytes(kernel, "Task 1 counts into a block histogram, "
                                                "__shared__ unsigned hist[AT_BINS]");
    if (bytes < AT_BINS * (long)sizeof(unsigned))
        gl_check_fail("%s's largest __shared__ array has %ld bytes: the block's histogram needs "
                      "one unsigned per bin, %d bytes",
                      kernel, bytes, AT_BINS * (int)sizeof(unsigned));
}

GL_TEST(histogram_shared_privatised, GL_TECHNIQUE, 3, 10, "privatised: shared atomics, merge")
{
    check_baseline_global("histogram_global_kernel");
    FOR_EACH_KERNEL("histogram_shared", "histogram_shared_kernel", k) check_privatised(k, 1);
}

GL_TEST(histogram_bins_privatised, GL_TECHNIQUE, 3, 10, "any bin count: privatised")
{
    check_baseline_global("histogram_bins_global_kernel");
    FOR_EACH_KERNEL("histogram_bins", "histogram_bins_kernel", k) check_privatised(k, 2);
}

static void check_cas(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int int_max = gl_ptx_count_with(e, "atom", ".max") + gl_ptx_count_with(e, "red", ".max");
    if (gl_ptx_count_with(e, "atom", ".cas") == 0)
        gl_check_fail("%s has no atomicCAS (atom.cas) in its PTX: no atomic does a float "
                      "maximum, so task 3 builds one, atomic_max_float, from an atomicCAS loop "
                      "on the float's bits%s", kernel,
                      int_max ? " (atomicMax on the int bits is wrong for negative floats)" : "");
}

GL_TEST(atomic_max_float_cas, GL_TECHNIQUE, 3, 10, "float maximum: atomicCAS")
{
    FOR_EACH_KERNEL("max_float", "max_float_kernel", k) check_cas(k);
}

/* ---- the last block's ticket: the write of the partial, the fence, then the atomicInc ----
 * A fence out of place leaves a race that shows only rarely: no run can be relied on to catch it,
 * the PTX can (partials: the kernel's fourth parameter, as in the starting file). */

static void check_ticket(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    gl_last_block lb;
    gl_expect_last_block(e, kernel, GL_TICKET_INC, 3, "partials[blockIdx.x]",
                         "A fence orders only what its own thread did before it, and "
                         "__threadfence() (membar.gl) for every block, __threadfence_block() for "
                         "its own only: else the last block may add a stale partial, not yet "
                         "visible to it (a race that shows only rarely: no test run can be relied "
                         "on to catch it). On one thread, on every path: partials[blockIdx.x] = "
                         "...; __threadfence(); then atomicInc(counter, gridDim.x - 1), which "
                         "also wraps the counter back to 0 at the last ticket");
    gl_ptx_last_block(e, GL_TICKET_INC, 3, &lb); /* in order: what the note shows */
    gl_test_note("%s: `%s`, then `%s`, then `%s`", kernel, lb.store.text, lb.fence.text,
                 lb.ticket.text);
}

GL_TEST(sum_last_block_ticket, GL_TECHNIQUE, 3, 10, "last block: partial, fence, then atomicInc")
{
    FOR_EACH_KERNEL("sum_last_block", "sum_last_block_kernel", k) check_ticket(k);
}

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ---- */

GL_FASTER(shared_vs_global_uniform, 4, "privatised faster, random bytes",
          .launcher = "histogram_shared", .than = "histogram_global",
          .factor = 14, /* 2^26 random bytes (H100: 74x, 21x at 1/4 SMs) */
          .hint = "Each block counts into its own __shared__ histogram and merges it with one "
                  "global atomicAdd per bin")

GL_FASTER(bins_vs_global_skewed, 4, "any bin count faster, 90% in one bin",
          .launcher = "histogram_bins", .than = "histogram_bins_global", .on = "skewed",
          .factor = 20, /* 1000 bins, 90% hot (H200: 199x) */
          .hint = "Count in the block's dynamic shared histogram (extern __shared__), merge once "
                  "per bin per block")

GL_FASTER(bins_vs_global_uniform, 4, "any bin count faster, uniform",
          .launcher = "histogram_bins", .than = "histogram_bins_global", .on = "uniform",
          .factor = 3.8, /* 1000 bins, uniform (H100: 15x, 5.8x at 1/4 SMs) */
          .hint = "Count in the block's dynamic shared histogram (extern __shared__), merge once "
                  "per bin per block")

/* ---- profile: Nsight Compute counters ---- */

/* atom, red, blocks */
static void atomics_detail(const double *v, char *out, size_t len)
{
    snprintf(out, len, "%.0f warp-level global atomic instructions (%.0f atom, %.0f red) for "
             "2^24 bytes in %.0f blocks; the given histogram_global executes one per 32 bytes, "
             "524288", v[0] + v[1], v[0], v[1], v[2]);
}

/* per block of each kernel that did the work (a kernel of many empty blocks cannot make
 * another's atomics look few), and per bin */
static const gl_counter global_atomics_per_bin = {
    "warp-level global atomic instructions per bin per block",
    (const char *const[]){"smsp__sass_inst_executed_op_global_atom.sum",
                          "smsp__sass_inst_executed_op_global_red.sum", "launch__grid_size"},
    3, 3u, 4u, atomics_detail};

/* well inside what the reference shows (README.md's numbers): a verdict must not flip */
GL_COUNTER(histogram_shared_global_atomics, 5, "privatised: one global atomic per bin per block",
           .counter = &global_atomics_per_bin, .run = "histogram_shared 16777216",
           .per = AT_BINS, .at_most = 1.1,
           .hint = "More than one per bin per block: are the bytes still counted in global "
                   "memory? Count in shared memory, and touch the global bins only in the merge")

/* The problem of a correctness test, a profile run or a queued claim, in words: histogram_bins
 * N [NBINS [PERCENT]] (PERCENT of the values in the last bin; 100 bins, uniform if not given),
 * any other LAUNCHER N [INPUT] [again] (INPUT one of input_words, or its number; again:
 * max_float finds *result at 5000, at_size.again); a probe's: n = 1000, 100 bins, random. */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static at_size z;
    long n = 1000, nbins = 100, percent = 0, input = AT_RANDOM;
    int bins = strstr(launcher, "bins") != NULL;
    if (argc > 3 || (argc > 0 && gl_parse_long(argv[0], 0, 1L << 28, &n)) ||
        (bins ? (argc > 1 && gl_parse_long(argv[1], 1, AT_MAX_BINS, &nbins)) ||
                    (argc > 2 && gl_parse_long(argv[2], 0, 100, &percent))
              : argc > 2 && strcmp(argv[2], "again")))
        return -1;
    while (!bins && argc > 1 && input <= AT_EQUAL && strcmp(argv[1], input_words[input]))
        input++;
    if (input > AT_EQUAL && gl_parse_long(argv[1], AT_RANDOM, AT_EQUAL, &input))
        return -1;
    z = (at_size){.n = (int)n, .input = (at_input)input, .nbins = (int)nbins,
                  .hot_bin = (int)nbins - 1, .chunk = 1, .hot = percent / 100.0,
                  .again = !bins && argc > 2};
    *p = atomics_problem(launcher, &z);
    return 0;
}

/* The timed problems, uniform (the usual) or skewed (HOT_PERF in the last bin, in runs of
 * HOT_RUN): README.md's 2^26 bytes or 2^24 values, halved until AT_SETS + 1 fit the pool. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static at_size z;
    int bytes = !strstr(launcher, "bins"), mib = gl_pool_mib() - 64;
    size_t size = bytes ? 1 : sizeof(int), room = (size_t)(mib > 0 ? mib : 0) << 20;
    int skewed = on && !strcmp(on, "skewed");
    if (on && *on && !skewed && strcmp(on, "uniform"))
        return -1;
    z = (at_size){.n = bytes ? 1 << 26 : 1 << 24, .nbins = PERF_BINS, .hot = skewed ? HOT_PERF : 0,
                  .hot_bin = PERF_BINS - 1, .chunk = HOT_RUN};
    while (z.n > (1 << 20) && (AT_SETS + 1) * (size_t)z.n * size > room)
        z.n /= 2;
    *p = atomics_problem(launcher, &z);
    return 0;
}

/* the largest test: AT_SETS inputs of 64 MiB (2^26 bytes, 2^24 values), one made again; bins */
const gl_lab GL_LAB = {.name = "05-atomics", .file = "atomics.cu", .problem = problem,
                       .timed = timed, .pool_mib = (AT_SETS + 1) * 64 + 64};
