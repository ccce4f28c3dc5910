/* demo.c: lab 01-divergence's comparison table.
 *
 *   make run LAB=01      your divergence.cu     make demo LAB=01   the reference
 *   build/.../demo [--csv FILE] [N]             (default 2^24 elements)
 *
 * Each variant runs once on poisoned output and is checked against the CPU;
 * a right one is then timed (median of 21 runs, L2 flushed before each) and
 * compared with the row it improves on (x_baseline: that row's time over
 * this one's). "random" input: each element's class is a coin toss;
 * "partitioned": the same values, the light ones first, then the heavy ones,
 * so whole warps agree. */
#include "gpulabs.h"
#include "divergence.h"

#include <stdio.h>
#include <stdlib.h>

#define NVARIANTS 10

typedef enum { HASH, SAME_CODE, CLASSIFY, BLOCK_SUMS } work;

typedef struct {
    const char *name;
    void (*fn)(unsigned *out, const unsigned *in, int n);
    work what;
    int partitioned; /* input: 0 random, 1 partitioned by class */
    int baseline;    /* the row this one is compared with */
} variant;

typedef struct {
    const variant *v;
    unsigned *out;
    const unsigned *in;
    int n;
} job;

static void run(void *arg)
{
    job *j = arg;
    j->v->fn(j->out, j->in, j->n);
}

/* The CPU's answer for one kind of work. */
static void reference(work what, const unsigned *in, unsigned *ref, int n)
{
    int i, b;
    switch (what) {
    case HASH:
        for (i = 0; i < n; i++)
            ref[i] = i % 2 == 0 ? hash_even(in[i]) : hash_odd(in[i]);
        break;
    case SAME_CODE:
        for (i = 0; i < n; i++)
            ref[i] = hash_with(in[i], i % 2 == 0 ? DIV_MULT_EVEN : DIV_MULT_ODD);
        break;
    case CLASSIFY:
        for (i = 0; i < n; i++)
            ref[i] = classify_one(in[i]);
        break;
    case BLOCK_SUMS:
        for (b = 0; b < div_blocks(n); b++)
            ref[b] = 0;
        for (i = 0; i < n; i++)
            ref[i / DIV_BLOCK] += in[i];
        break;
    }
}

int main(int argc, char **argv)
{
    static const variant variants[NVARIANTS] = {
        {"branch_by_lane", branch_by_lane, HASH, 0, 0},
        {"branch_by_warp", branch_by_warp, HASH, 0, 0},
        {"same_code_by_lane", same_code_by_lane, SAME_CODE, 0, 2},
        {"same_code_by_warp", same_code_by_warp, SAME_CODE, 0, 2},
        {"classify", classify, CLASSIFY, 0, 4},
        {"classify", classify, CLASSIFY, 1, 4},
        {"classify_partitioned", classify_partitioned, CLASSIFY, 0, 4},
        {"classify_partitioned", classify_partitioned, CLASSIFY, 1, 4},
        {"block_sums_interleaved", block_sums_interleaved, BLOCK_SUMS, 0, 8},
        {"block_sums_contiguous", block_sums_contiguous, BLOCK_SUMS, 0, 8},
    };
    static const char *headers[] = {"variant", "input", "time_ms", "Gelem/s", "x_baseline",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in_random, in_grouped, out;
    unsigned *h_random, *h_grouped, *h_ref, *h_out;
    double ms[NVARIANTS];
    int n, v, i, light, wrong = 0, status;
    size_t bytes;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 elements)", 1, 1, 1L << 28,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 24;
    bytes = (size_t)n * sizeof(unsigned);

    gl_demo_begin(&info);
    h_random = malloc(bytes);
    h_grouped = malloc(bytes);
    h_ref = malloc(bytes);
    h_out = malloc(bytes);
    if (!h_random || !h_grouped || !h_ref || !h_out) {
        fprintf(stderr, "%s: not enough host memory for n = %d\n", argv[0], n);
        return 1;
    }
    gl_rng_init(&rng, gl_seed(), "01-divergence demo");
    for (i = 0; i < n; i++)
        h_random[i] = (unsigned)gl_rng_next(&rng);
    /* the same values, light ones first (a stable partition) */
    light = 0;
    for (i = 0; i < n; i++)
        if (!is_heavy(h_random[i]))
            h_grouped[light++] = h_random[i];
    for (i = 0; i < n; i++)
        if (is_heavy(h_random[i]))
            h_grouped[light++] = h_random[i];
    in_random = gl_buf_alloc(bytes, 0);
    in_grouped = gl_buf_alloc(bytes, 0);
    out = gl_buf_alloc(bytes, 0);
    gl_buf_upload(&in_random, h_random);
    gl_buf_upload(&in_grouped, h_grouped);

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "01-divergence, n = %d elements, blocks of %d threads, "
                  "%d rounds of heavy work", n, DIV_BLOCK, DIV_ROUNDS);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        const unsigned *h_in = var->partitioned ? h_grouped : h_random;
        job j = {var, out.ptr, var->partitioned ? in_grouped.ptr : in_random.ptr, n};
        size_t count = var->what == BLOCK_SUMS ? (size_t)div_blocks(n) : (size_t)n;
        gl_guard_report guards;
        gl_cmp cmp;
        char why[1024];

        reference(var->what, h_in, h_ref, n);
        gl_buf_poison(&out);
        run(&j);
        GL_CHECK_LAUNCH(var->name);
        gl_buf_download(&out, h_out);
        if (gl_buf_check_guards(&out, &guards)) {
            gl_guard_describe(&guards, out.bytes, sizeof(unsigned), "out", why, sizeof why);
        } else if (gl_compare_uint(h_ref, h_out, count, &cmp)) {
            gl_cmp_describe(&cmp, var->what == BLOCK_SUMS ? "sums" : "out", NULL, NULL, why,
                            sizeof why);
        } else {
            ms[v] = gl_time_ms(run, &j, gl_timing_default());
            continue;
        }
        ms[v] = -1.0;
        wrong++;
        printf("%s (%s input) is WRONG: %s\n", var->name,
               var->partitioned ? "partitioned" : "random", why);
    }

    for (v = 0; v < NVARIANTS; v++) {
        int base = variants[v].baseline;
        gl_table_cell(table, "%s", variants[v].name);
        gl_table_cell(table, "%s", variants[v].partitioned ? "partitioned" : "random");
        if (ms[v] < 0.0) {
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.1f", n / ms[v] / 1e6);
        if (ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "01");
    gl_buf_free(&in_random);
    gl_buf_free(&in_grouped);
    gl_buf_free(&out);
    free(h_random);
    free(h_grouped);
    free(h_ref);
    free(h_out);
    return status;
}
