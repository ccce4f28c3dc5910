/* demo.c: lab 03-bank-conflicts's bank maps and measurements.
 *
 *   make run LAB=03      your bank_conflicts.cu      make demo LAB=03   the reference
 *   build/.../demo [--csv FILE] [ROWS]              (default 2^22 rows of 32)
 *
 * First the bank map of a few access patterns: which bank each lane of a
 * warp hits, the wavefronts your bank_conflict_degree predicts, and the time
 * the given probe kernel takes on that pattern (median of 21 runs). Then the
 * row sums, unpadded (given) and padded (yours), on floats and on doubles:
 * each checked against the CPU, then timed (L2 flushed before each run). */
#include "bank_conflicts.h"
#include "gpulabs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_ITERS 4096

static gl_table *table;
static double memcpy_gbps;
static int wrong;

typedef struct {
    const char *name;
    int words[32];
} pattern;

typedef struct {
    int *sink;
    const int *words;
} probe_job;

static void run_probe(void *arg)
{
    probe_job *j = arg;
    bank_probe(j->sink, j->words, PROBE_ITERS);
}

static void bank_maps(void)
{
    pattern p[6];
    gl_buf words = gl_buf_alloc(32 * sizeof(int), 0), sink = gl_buf_alloc(sizeof(int), 0);
    double base_ms = 0.0;
    int i, l;

    p[0].name = "row of tile[32][32]";
    p[1].name = "column of tile[32][32]";
    p[2].name = "column of tile[32][33]";
    p[3].name = "stride 2";
    p[4].name = "stride 3";
    p[5].name = "broadcast";
    for (l = 0; l < 32; l++) {
        p[0].words[l] = 5 * 32 + l;  /* tile[5][l] */
        p[1].words[l] = l * 32 + 5;  /* tile[l][5] */
        p[2].words[l] = l * 33 + 5;  /* padded: tile[l][5] */
        p[3].words[l] = 2 * l;
        p[4].words[l] = 3 * l;
        p[5].words[l] = 7;           /* every lane the same word */
    }
    printf("Bank of the word each lane reads (lanes 0 to 31), the wavefronts your\n"
           "bank_conflict_degree predicts, and the probe's time (%d reads per lane):\n\n",
           PROBE_ITERS);
    for (i = 0; i < 6; i++) {
        probe_job j = {sink.ptr, words.ptr};
        int predicted = bank_conflict_degree(p[i].words, 32);
        double ms;
        char banks[200];
        size_t w = 0;
        for (l = 0; l < 32; l++)
            w += (size_t)snprintf(banks + w, sizeof banks - w, "%d%s", p[i].words[l] % BC_BANKS,
                                  l < 31 ? " " : "");
        gl_buf_upload(&words, p[i].words);
        run_probe(&j);
        GL_CHECK_LAUNCH("bank_probe");
        ms = gl_time_ms(run_probe, &j, gl_timing_default());
        if (i == 0)
            base_ms = ms;
        printf("  %-24s %s\n", p[i].name, banks);
        gl_table_cell(table, "probe");
        gl_table_cell(table, "%s", p[i].name);
        gl_table_cell(table, "%d", predicted);
        gl_table_cell(table, "%.4f", ms);
        gl_table_cell(table, "-");
        gl_table_cell(table, "%.2f", ms / base_ms);
        gl_table_cell(table, "-");
    }
    printf("\n");
    gl_buf_free(&words);
    gl_buf_free(&sink);
}

/* ---- row sums ---- */

typedef struct {
    void (*f)(float *, const float *, int);
    void (*d)(double *, const double *, int);
    void *out;
    const void *in;
    int rows;
} sums_job;

static void run_sums(void *arg)
{
    sums_job *j = arg;
    if (j->f)
        j->f(j->out, j->in, j->rows);
    else
        j->d(j->out, j->in, j->rows);
}

static void row_sums_table(int rows)
{
    static const struct {
        const char *name;
        void (*f)(float *, const float *, int);
        void (*d)(double *, const double *, int);
    } v[4] = {{"row_sums", row_sums, NULL},
              {"row_sums_padded", row_sums_padded, NULL},
              {"row_sums_double", NULL, row_sums_double},
              {"row_sums_double_padded", NULL, row_sums_double_padded}};
    size_t n = (size_t)rows * BC_TILE, i;
    float *hf = malloc(n * 4), *rf = malloc((size_t)rows * 4), *of = malloc((size_t)rows * 4);
    double *hd = malloc(n * 8), *rd = malloc((size_t)rows * 8), *od = malloc((size_t)rows * 8);
    gl_buf in_f = gl_buf_alloc(n * 4, 0), in_d = gl_buf_alloc(n * 8, 0),
           out = gl_buf_alloc((size_t)rows * 8, 0);
    double ms_unpadded = 0.0;
    gl_rng rng;
    int k, r;

    gl_rng_init(&rng, gl_seed(), "03-bank-conflicts demo");
    gl_fill_float(&rng, hf, n, -1, 1);
    for (i = 0; i < n; i++)
        hd[i] = hf[i] + gl_rng_float(&rng, -1, 1) * 1e-8; /* not just floats widened */
    for (r = 0; r < rows; r++) {
        float sf = 0.0f;
        double sd = 0.0;
        for (k = 0; k < BC_TILE; k++) {
            sf += hf[(size_t)r * BC_TILE + k];
            sd += hd[(size_t)r * BC_TILE + k];
        }
        rf[r] = sf;
        rd[r] = sd;
    }
    gl_buf_upload(&in_f, hf);
    gl_buf_upload(&in_d, hd);
    for (k = 0; k < 4; k++) {
        sums_job j = {v[k].f, v[k].d, out.ptr, v[k].f ? in_f.ptr : in_d.ptr, rows};
        size_t size = v[k].f ? 4 : 8;
        char why[1024] = "";
        gl_cmp c;
        gl_buf_poison(&out);
        run_sums(&j);
        GL_CHECK_LAUNCH(v[k].name);
        if (v[k].f) {
            GL_CUDA(cudaMemcpy(of, out.ptr, (size_t)rows * size, cudaMemcpyDeviceToHost));
            if (gl_compare_float(rf, of, (size_t)rows, 1e-5, 1e-5, &c))
                gl_cmp_describe(&c, "out", NULL, NULL, why, sizeof why);
        } else {
            GL_CUDA(cudaMemcpy(od, out.ptr, (size_t)rows * size, cudaMemcpyDeviceToHost));
            if (gl_compare_double(rd, od, (size_t)rows, 1e-12, 1e-12, &c))
                gl_cmp_describe(&c, "out", NULL, NULL, why, sizeof why);
        }
        gl_table_cell(table, "row sums");
        gl_table_cell(table, "%s", v[k].name);
        gl_table_cell(table, "-");
        if (*why) {
            printf("%s is WRONG: %s\n", v[k].name, why);
            wrong++;
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            if (k % 2 == 0)
                ms_unpadded = 0.0;
            continue;
        } else {
            double ms = gl_time_ms(run_sums, &j, gl_timing_default());
            double gbps = gl_gbps((double)(n + rows) * size, ms);
            if (k % 2 == 0)
                ms_unpadded = ms;
            gl_table_cell(table, "%.4f", ms);
            gl_table_cell(table, "%.0f", gbps);
            if (ms_unpadded > 0.0)
                gl_table_cell(table, "%.2f", ms_unpadded / ms);
            else
                gl_table_cell(table, "-");
            gl_table_cell(table, "ok");
        }
    }
    gl_buf_free(&in_f);
    gl_buf_free(&in_d);
    gl_buf_free(&out);
    free(hf);
    free(rf);
    free(of);
    free(hd);
    free(rd);
    free(od);
}

int main(int argc, char **argv)
{
    static const char *headers[] = {"experiment",      "pattern", "predicted_wavefronts",
                                    "time_ms",         "GB/s",    "speedup_or_slowdown",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    int rows;

    gl_demo_parse(argc, argv, "[--csv FILE] [ROWS]  (default 2^22 rows of 32)", 1, 1,
                  (1L << 31) / BC_TILE - 1, &args);
    rows = args.nvalues ? (int)args.values[0] : 1 << 22;
    gl_demo_begin(&info);
    memcpy_gbps = gl_memcpy_gbps(0);
    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "03-bank-conflicts, row sums of %d rows of %d", rows, BC_TILE);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write)",
                  memcpy_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());
    gl_table_note(table, "columns", "probe rows: slowdown against the row pattern; row sums: "
                  "speed-up of the padded kernel over the unpadded one");
    bank_maps();
    row_sums_table(rows);

    return gl_demo_end(table, &args, wrong, "03");
}
