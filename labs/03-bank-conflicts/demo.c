/* demo.c: lab 03-bank-conflicts's bank maps and measurements.
 *
 *   make run LAB=03      your bank_conflicts.cu      make demo LAB=03   the reference
 *   build/.../demo [--csv FILE] [ROWS]              (default 2^20 rows of 32)
 *
 * First the bank map of a few access patterns: which bank each lane of a
 * warp hits, the wavefronts your bank_conflict_degree predicts, and the time
 * the given probe kernel takes on that pattern (median of 21 runs). Then the
 * tile Gram matrices, unpadded (given) and padded (yours), on floats and on
 * doubles: each checked as the grader checks it (lab.c), then timed (L2
 * flushed before each run). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

#define PROBE_ITERS 4096

static gl_table *table;
static int wrong;

typedef struct {
    const char *name; /* a tile-Gram launcher, or NULL for the probe */
    void *out;
    const void *in;
    int rows;
} job;

static void run(void *arg)
{
    job *j = arg;
    if (!j->name)
        bc_probe(j->out, j->in, PROBE_ITERS);
    else if (bc_is_double(j->name))
        bc_gram_double(j->name, j->out, j->in, j->rows);
    else
        bc_gram(j->name, j->out, j->in, j->rows);
}

static void bank_maps(void)
{
    static const char *names[6] = {"row of tile[32][32]", "column of tile[32][32]",
                                   "column of tile[32][33]", "stride 2", "stride 3", "broadcast"};
    static const int wavefronts[6] = {1, 32, 1, 2, 1, 1}; /* what each pattern takes */
    int words[6][32], i, l;
    gl_buf d_words = gl_buf_alloc(32 * sizeof(int), 0), sink = gl_buf_alloc(sizeof(int), 0);
    double base_ms = 0.0;

    for (l = 0; l < 32; l++) {
        words[0][l] = 5 * 32 + l; /* tile[5][l] */
        words[1][l] = l * 32 + 5; /* tile[l][5] */
        words[2][l] = l * 33 + 5; /* padded: tile[l][5] */
        words[3][l] = 2 * l;
        words[4][l] = 3 * l;
        words[5][l] = 7; /* every lane the same word */
    }
    printf("Bank of the word each lane reads (lanes 0 to 31), the wavefronts your\n"
           "bank_conflict_degree predicts, and the probe's time (%d reads per lane):\n\n",
           PROBE_ITERS);
    for (i = 0; i < 6; i++) {
        job j = {NULL, sink.ptr, d_words.ptr, 0};
        const char *why = bc_degree_check(names[i], words[i], 32, wavefronts[i]);
        double ms;
        char banks[200];
        size_t w = 0;
        for (l = 0; l < 32; l++)
            w += (size_t)snprintf(banks + w, sizeof banks - w, "%d%s", words[i][l] % BC_BANKS,
                                  l < 31 ? " " : "");
        gl_buf_upload(&d_words, words[i]);
        run(&j);
        GL_CHECK_LAUNCH("bank_probe");
        ms = gl_time_ms(run, &j, gl_timing_default());
        if (i == 0)
            base_ms = ms;
        printf("  %-24s %s\n", names[i], banks);
        if (*why)
            printf("    %s\n", why);
        gl_table_cell(table, "probe");
        gl_table_cell(table, "%s", names[i]);
        gl_table_cell(table, "%d", bc_degree(words[i], 32));
        gl_table_cell(table, "%.4f", ms);
        gl_table_cell(table, "-");
        gl_table_cell(table, "%.2f", ms / base_ms);
        gl_table_cell(table, "-");
    }
    printf("\n");
    gl_buf_free(&d_words);
    gl_buf_free(&sink);
}

static void gram_table(gl_rng *rng, int rows)
{
    static const char *names[4] = {"tile_gram", "tile_gram_padded", "tile_gram_double",
                                   "tile_gram_double_padded"};
    size_t n = (size_t)rows * BC_TILE;
    bc_problem p[2];
    gl_buf d_in[2], out = gl_buf_alloc(n * sizeof(double), 0);
    double ms_unpadded = 0.0;
    int k, dbl;

    for (dbl = 0; dbl < 2; dbl++) {
        bc_gram_make(rng, rows, dbl, &p[dbl]);
        d_in[dbl] = gl_buf_alloc(n * (dbl ? sizeof(double) : sizeof(float)), 0);
        gl_buf_upload(&d_in[dbl], p[dbl].in);
    }
    for (k = 0; k < 4; k++) {
        size_t size = k >= 2 ? sizeof(double) : sizeof(float);
        job j = {names[k], out.ptr, d_in[k >= 2].ptr, rows};
        const char *why = bc_gram_check(names[k], &p[k >= 2]);
        double ms;
        gl_table_cell(table, "tile gram");
        gl_table_cell(table, "%s", names[k]);
        gl_table_cell(table, "-");
        if (*why) {
            printf("%s is WRONG: %s\n", names[k], why);
            wrong++;
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            if (k % 2 == 0)
                ms_unpadded = 0.0;
            continue;
        }
        ms = gl_time_ms(run, &j, gl_timing_default());
        if (k % 2 == 0)
            ms_unpadded = ms;
        gl_table_cell(table, "%.4f", ms);
        gl_table_cell(table, "%.0f", gl_gbps(2.0 * (double)n * size, ms));
        if (ms_unpadded > 0.0)
            gl_table_cell(table, "%.2f", ms_unpadded / ms);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }
    for (dbl = 0; dbl < 2; dbl++) {
        gl_buf_free(&d_in[dbl]);
        bc_gram_free(&p[dbl]);
    }
    gl_buf_free(&out);
}

int main(int argc, char **argv)
{
    static const char *headers[] = {"experiment",      "pattern", "predicted_wavefronts",
                                    "time_ms",         "GB/s",    "speedup_or_slowdown",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    int rows;

    gl_demo_parse(argc, argv, "[--csv FILE] [ROWS]  (default 2^20 rows of 32)", 1, 1,
                  (1L << 31) / BC_TILE - 1, &args);
    rows = args.nvalues ? (int)args.values[0] : 1 << 20;
    gl_demo_begin(&info);
    gl_rng_init(&rng, gl_seed(), "03-bank-conflicts demo");
    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "03-bank-conflicts, tile Gram matrices of %d rows of %d", rows,
                  BC_TILE);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write)",
                  gl_memcpy_gbps(0));
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());
    gl_table_note(table, "columns", "probe rows: slowdown against the row pattern; tile gram: "
                  "GB/s of global memory (in + out), speed-up of the padded kernel over the "
                  "unpadded one");
    bank_maps();
    gram_table(&rng, rows);

    return gl_demo_end(table, &args, wrong, "03");
}
