/* demo.c: lab 06-warp-aggregation's comparison table.
 *
 *   make run LAB=06      your warp_aggregation.cu     make demo LAB=06   the reference
 *   build/.../demo [--csv FILE] [N]                   (default 2^24 elements)
 *
 * Each variant runs once on poisoned output and is checked against the CPU
 * (*count, nothing written past it, and out[0, *count) holding the right
 * values in any order); a right one is then timed (median of 21 runs, L2
 * flushed before each) and compared with the row it improves on
 * (x_baseline: that row's time over this one's). The input: random values
 * in [-10^8, 10^8], so about half of them are positive (the filters keep
 * those) and each element emits 0 .. WA_MAX_ITEMS items alike (the
 * emitters). */
#include "gpulabs.h"
#include "warp_aggregation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVARIANTS 6
#define RANGE 100000000

typedef enum { FILTER, EMIT } work;

typedef struct {
    const char *name;
    void (*fn)(int *out, int *count, const int *in, int n);
    work what;
    int baseline; /* the row this one is compared with */
} variant;

typedef struct {
    const variant *v;
    int *out, *count;
    const int *in;
    int n;
} job;

static void run(void *arg)
{
    job *j = arg;
    j->v->fn(j->out, j->count, j->in, j->n);
}

/* The values the CPU appends, in element order; returns how many. */
static size_t reference(work what, const int *in, int n, int *ref)
{
    size_t c = 0;
    int i, j;
    for (i = 0; i < n; i++) {
        if (what == FILTER) {
            if (in[i] > 0)
                ref[c++] = in[i];
        } else {
            for (j = 0; j < items_of(in[i]); j++)
                ref[c++] = item_value(in[i], j);
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

/* Checks one result: *count (got), out (room ints), against the sorted
 * reference. Returns 0, or -1 with why. */
static int check(int got, int *h_out, size_t room, const int *sorted_ref, size_t expected,
                 int *tmp, char *why, size_t len)
{
    size_t i, wrong = 0, unwritten = 0;
    if (got != (int)expected) {
        snprintf(why, len, "*count is %d, expected %zu", got, expected);
        return -1;
    }
    for (i = expected; i < room; i++)
        if (h_out[i] != -1) {
            snprintf(why, len, "wrote out[%zu], past the %zu values of *count", i, expected);
            return -1;
        }
    sort_ints(h_out, tmp, expected);
    for (i = 0; i < expected; i++)
        if (h_out[i] != sorted_ref[i]) {
            wrong++;
            unwritten += h_out[i] == -1;
        }
    if (wrong) {
        snprintf(why, len, "out[0, %zu) does not hold the right values, in any order: %zu of "
                 "them differ once sorted, %zu slots never written (still -1)",
                 expected, wrong, unwritten);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const variant variants[NVARIANTS] = {
        {"filter_atomic", filter_atomic, FILTER, 0},
        {"filter_coalesced", filter_coalesced, FILTER, 0},
        {"filter_intrinsics", filter_intrinsics, FILTER, 0},
        {"emit_atomic", emit_atomic, EMIT, 3},
        {"emit_warp", emit_warp, EMIT, 3},
        {"emit_block", emit_block, EMIT, 4},
    };
    static const char *headers[] = {"variant", "items", "time_ms", "Gelem/s", "Gitems/s",
                                    "x_baseline", "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in, out, cnt;
    int *h_in, *h_out, *h_ref[2], *tmp;
    size_t expected[2], room;
    double ms[NVARIANTS];
    int n, v, wrong = 0, status;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 elements)", 1, 1, 1L << 26,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 24;
    room = (size_t)WA_MAX_ITEMS * n + 64;

    gl_demo_begin(&info);
    h_in = malloc((size_t)n * sizeof(int));
    h_out = malloc(room * sizeof(int));
    tmp = malloc(room * sizeof(int));
    h_ref[FILTER] = malloc((size_t)n * sizeof(int));
    h_ref[EMIT] = malloc((size_t)WA_MAX_ITEMS * n * sizeof(int));
    if (!h_in || !h_out || !tmp || !h_ref[FILTER] || !h_ref[EMIT]) {
        fprintf(stderr, "%s: not enough host memory for n = %d\n", argv[0], n);
        return 1;
    }
    gl_rng_init(&rng, gl_seed(), "06-warp-aggregation demo");
    gl_fill_int(&rng, h_in, (size_t)n, -RANGE, RANGE);
    expected[FILTER] = reference(FILTER, h_in, n, h_ref[FILTER]);
    expected[EMIT] = reference(EMIT, h_in, n, h_ref[EMIT]);
    sort_ints(h_ref[FILTER], tmp, expected[FILTER]);
    sort_ints(h_ref[EMIT], tmp, expected[EMIT]);
    in = gl_buf_alloc((size_t)n * sizeof(int), 0);
    out = gl_buf_alloc(room * sizeof(int), 0);
    cnt = gl_buf_alloc(sizeof(int), 0);
    gl_buf_upload(&in, h_in);

    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "06-warp-aggregation, n = %d elements, blocks of %d threads, "
                  "0 .. %d items per element", n, WA_BLOCK, WA_MAX_ITEMS);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        job j = {var, out.ptr, cnt.ptr, in.ptr, n};
        gl_guard_report guards;
        char why[1024];
        int got = 0;

        gl_buf_poison(&out);
        gl_buf_poison(&cnt);
        run(&j);
        GL_CHECK_LAUNCH(var->name);
        gl_buf_download(&cnt, &got);
        gl_buf_download(&out, h_out);
        if (gl_buf_check_guards(&out, &guards)) {
            gl_guard_describe(&guards, out.bytes, sizeof(int), "out", why, sizeof why);
        } else if (check(got, h_out, room, h_ref[var->what], expected[var->what], tmp, why,
                         sizeof why) == 0) {
            ms[v] = gl_time_ms(run, &j, gl_timing_default());
            continue;
        }
        ms[v] = -1.0;
        wrong++;
        printf("%s is WRONG: %s\n", var->name, why);
    }

    for (v = 0; v < NVARIANTS; v++) {
        int base = variants[v].baseline;
        size_t items = expected[variants[v].what];
        gl_table_cell(table, "%s", variants[v].name);
        gl_table_cell(table, "%zu", items);
        if (ms[v] < 0.0) {
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.1f", n / ms[v] / 1e6);
        gl_table_cell(table, "%.1f", (double)items / ms[v] / 1e6);
        if (ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "06");
    gl_buf_free(&in);
    gl_buf_free(&out);
    gl_buf_free(&cnt);
    free(h_in);
    free(h_out);
    free(tmp);
    free(h_ref[FILTER]);
    free(h_ref[EMIT]);
    return status;
}
