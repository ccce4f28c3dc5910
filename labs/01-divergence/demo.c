/* demo.c: lab 01-divergence's comparison table.
 *
 *   make run LAB=01      your divergence.cu     make demo LAB=01   the reference
 *   build/.../demo [--csv FILE] [N]             (default 2^24 elements)
 *
 * Each variant runs once and is checked as the grader checks it (lab.c); a
 * right one is then timed (median of 21 runs, L2 flushed before each) and
 * compared with the row it improves on (x_baseline: that row's time over
 * this one's). "random" input: each element's class is a coin toss;
 * "partitioned": the same values, the light ones first, then the heavy ones,
 * so whole warps agree. Gelem/s: input elements per second; for the block
 * products that is also gf_mul's per second (a block's 256 elements take 255). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVARIANTS 10

typedef struct {
    const char *name;
    unsigned *out;
    const unsigned *in;
    int n;
} job;

static void run(void *arg)
{
    job *j = arg;
    div_run(j->name, j->out, j->in, j->n);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int partitioned; /* input: 0 random, 1 partitioned by class */
        int baseline;    /* the row this one is compared with */
    } variants[NVARIANTS] = {
        {"branch_by_lane", 0, 0},         {"branch_by_warp", 0, 0},
        {"same_code_by_lane", 0, 2},      {"same_code_by_warp", 0, 2},
        {"classify", 0, 4},               {"classify", 1, 4},
        {"classify_partitioned", 0, 4},   {"classify_partitioned", 1, 4},
        {"block_products_interleaved", 0, 8},
        {"block_products_contiguous", 0, 8},
    };
    static const char *headers[] = {"variant", "input", "time_ms", "Gelem/s", "x_baseline",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in[2], out;
    unsigned *h_in[2];
    double ms[NVARIANTS];
    int n, v, c, k, wrong = 0, status;
    size_t bytes;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 elements)", 1, 1, 1L << 28,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 24;
    bytes = ((size_t)n + DIV_ROOM) * sizeof(unsigned);

    gl_demo_begin(&info);
    gl_rng_init(&rng, gl_seed(), "01-divergence demo");
    h_in[0] = div_make(&rng, n, DIV_RANDOM);
    h_in[1] = malloc(bytes);
    if (!h_in[1]) {
        fprintf(stderr, "%s: not enough host memory for n = %d\n", argv[0], n);
        return 1;
    }
    memcpy(h_in[1], h_in[0], bytes);
    div_partition(h_in[1], n); /* the same values, light ones first */
    for (k = 0; k < 2; k++) {
        in[k] = gl_buf_alloc(bytes, 0);
        gl_buf_upload(&in[k], h_in[k]);
    }
    out = gl_buf_alloc(bytes, 0);

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "01-divergence, n = %d elements, blocks of %d threads, "
                  "%d rounds of heavy work, block products in GF(2^32)",
                  n, DIV_BLOCK, DIV_ROUNDS);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) { /* a row's baseline row comes before it */
        int part = variants[v].partitioned, base = variants[v].baseline;
        job j = {variants[v].name, out.ptr, in[part].ptr, n};
        const char *why = div_check(j.name, n, h_in[part]);
        gl_table_cell(table, "%s", j.name);
        gl_table_cell(table, "%s", part ? "partitioned" : "random");
        ms[v] = -1.0; /* wrong: not timed */
        if (*why) {
            wrong++;
            printf("%s (%s input) is WRONG: %s\n", j.name, part ? "partitioned" : "random", why);
            for (c = 0; c < 3; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        ms[v] = gl_time_ms(run, &j, gl_timing_default());
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.1f", n / ms[v] / 1e6);
        if (ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "01");
    for (k = 0; k < 2; k++) {
        gl_buf_free(&in[k]);
        free(h_in[k]);
    }
    gl_buf_free(&out);
    return status;
}
