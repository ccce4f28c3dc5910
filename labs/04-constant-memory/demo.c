/* demo.c: lab 04-constant-memory's comparison table.
 *
 *   make run LAB=04      your constant_memory.cu     make demo LAB=04   the reference
 *   build/.../demo [--csv FILE] [N]                  (default 2^24 outputs)
 *
 * Each variant runs once and is checked as the grader checks it (lab.c; a
 * sample of the polynomials' and the convolutions' outputs, so that the
 * CPU's share stays near 2^25 multiply-adds per row); a right one is then
 * timed (median of 21 runs, L2 flushed before each) and compared with the row
 * named in `against`: speedup = that row's time / this row's time. The
 * run-time-length filters run at several tap counts: where the constant
 * version falls behind is the trap of task 3. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_TAPS 1024 /* the longest filter of the table */

typedef struct {
    const char *launcher, *label;
    int ntaps;   /* convolutions; 0 for the polynomials and the lookups */
    int uniform; /* lookups: one index per warp, or one per lane */
    int against; /* row to compare with (its own: the reference) */
} variant;

#define NVARIANTS 14
static const variant variants[NVARIANTS] = {
    {"poly_global", "poly_global", 0, 0, 0},
    {"poly_constant", "poly_constant", 0, 0, 0},
    {"convolve_constant_runtime", "convolve_constant_runtime", 64, 0, 2},
    {"convolve_long", "convolve_long", 64, 0, 2},
    {"convolve_constant_runtime", "convolve_constant_runtime", 128, 0, 4},
    {"convolve_long", "convolve_long", 128, 0, 4},
    {"convolve_constant_runtime", "convolve_constant_runtime", 256, 0, 6},
    {"convolve_long", "convolve_long", 256, 0, 6},
    {"convolve_constant_runtime", "convolve_constant_runtime", 1024, 0, 8},
    {"convolve_long", "convolve_long", 1024, 0, 8},
    {"lookup_constant", "lookup_constant uniform", 0, 1, 10},
    {"lookup_constant", "lookup_constant random", 0, 0, 10},
    {"lookup_global", "lookup_global uniform", 0, 1, 10},
    {"lookup_global", "lookup_global random", 0, 0, 11},
};

typedef struct {
    const variant *v;
    float *out;
    const float *x, *coeffs, *in, *taps, *table; /* device pointers */
    const int *idx;
    int n;
} job;

static void run(void *arg)
{
    job *j = arg;
    if (cm_is_poly(j->v->launcher))
        cm_poly(j->v->launcher, j->out, j->x, j->coeffs, j->n);
    else if (j->v->ntaps)
        cm_convolve(j->v->launcher, j->out, j->in, j->taps, j->v->ntaps, j->n);
    else
        cm_lookup(j->v->launcher, j->out, j->idx, j->table, j->n);
}

int main(int argc, char **argv)
{
    static const char *headers[] = {"variant", "taps", "time_ms", "Gop/s", "speedup", "against",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf x, coeffs, in, taps, out, d_table[2], idx[2];
    float *h_x, *h_coeffs, *h_in, *h_taps, *h_table[2];
    int *h_idx[2];
    double ms[NVARIANTS];
    int n, v, c, u, wrong = 0, status;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 outputs)", 1, 1, 1L << 28, &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 24;

    gl_demo_begin(&info);
    gl_rng_init(&rng, gl_seed(), "04-constant-memory demo");
    cm_poly_make(&rng, n, &h_x, &h_coeffs);
    x = gl_buf_alloc((size_t)n * sizeof(float), 0);
    coeffs = gl_buf_alloc(CM_COEFFS * sizeof(float), 0);
    gl_buf_upload(&x, h_x);
    gl_buf_upload(&coeffs, h_coeffs);
    cm_conv_make(&rng, n, MAX_TAPS, &h_in, &h_taps); /* a filter uses the first ntaps taps */
    in = gl_buf_alloc(((size_t)n + MAX_TAPS - 1) * sizeof(float), 0);
    taps = gl_buf_alloc(MAX_TAPS * sizeof(float), 0);
    out = gl_buf_alloc((size_t)n * sizeof(float), 0);
    gl_buf_upload(&in, h_in);
    gl_buf_upload(&taps, h_taps);
    for (u = 0; u < 2; u++) { /* [0]: random indices, [1]: uniform */
        cm_lookup_make(&rng, n, u, &h_idx[u], &h_table[u]);
        idx[u] = gl_buf_alloc((size_t)n * sizeof(int), 0);
        d_table[u] = gl_buf_alloc(CM_TABLE * sizeof(float), 0);
        gl_buf_upload(&idx[u], h_idx[u]);
        gl_buf_upload(&d_table[u], h_table[u]);
    }

    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "04-constant-memory, n = %d outputs, one thread each, blocks of "
                  "%d threads", n, CM_BLOCK);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());
    gl_table_note(table, "ops", "a polynomial output is 2 * %d flops (Horner: a multiply-add "
                  "per coefficient); a convolution output is 2 * taps flops (multiply, add); a "
                  "lookup output is %d table reads", CM_COEFFS, CM_LOOKUPS);
    gl_table_note(table, "lookups", "uniform: the 32 lanes of a warp share one index; random: "
                  "each lane its own, in [0, %d)", CM_TABLE);
    gl_table_note(table, "speedup", "time of the row named in `against` / time of this row");

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        job j = {var, out.ptr, x.ptr, coeffs.ptr, in.ptr, taps.ptr,
                 d_table[var->uniform].ptr, idx[var->uniform].ptr, n};
        /* the check also sets the constant data the timed runs read */
        const char *why =
            cm_is_poly(var->launcher) ? cm_poly_check(var->launcher, n, h_x, NULL, h_coeffs, 1)
            : var->ntaps ? cm_conv_check(var->launcher, n, var->ntaps, h_in, h_taps, 1)
                         : cm_lookup_check(var->launcher, n, h_idx[var->uniform],
                                           h_table[var->uniform]);
        ms[v] = -1.0; /* wrong: not timed */
        if (!*why) {
            ms[v] = gl_time_ms(run, &j, gl_timing_default());
            continue;
        }
        wrong++;
        if (var->ntaps)
            printf("%s with %d taps is WRONG: %s\n", var->label, var->ntaps, why);
        else
            printf("%s is WRONG: %s\n", var->label, why);
    }

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        int base = var->against;
        double ops = (double)n * (cm_is_poly(var->launcher) ? 2.0 * CM_COEFFS
                                  : var->ntaps              ? 2.0 * var->ntaps
                                                            : CM_LOOKUPS);
        gl_table_cell(table, "%s", var->label);
        if (var->ntaps)
            gl_table_cell(table, "%d", var->ntaps);
        else
            gl_table_cell(table, "-");
        if (ms[v] < 0.0) {
            for (c = 0; c < 4; c++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.0f", ops / (ms[v] * 1e-3) / 1e9);
        if (ms[base] <= 0.0)
            gl_table_cell(table, "-");
        else if (ms[base] / ms[v] >= 10.0)
            gl_table_cell(table, "%.1f", ms[base] / ms[v]);
        else if (ms[base] / ms[v] >= 0.1)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else /* e.g. 0.0056: 180x slower */
            gl_table_cell(table, "%.2g", ms[base] / ms[v]);
        if (base == v)
            gl_table_cell(table, "-");
        else if (variants[base].ntaps)
            gl_table_cell(table, "%s %d", variants[base].label, variants[base].ntaps);
        else
            gl_table_cell(table, "%s", variants[base].label);
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "04");
    gl_buf_free(&x);
    gl_buf_free(&coeffs);
    gl_buf_free(&in);
    gl_buf_free(&taps);
    gl_buf_free(&out);
    for (u = 0; u < 2; u++) {
        gl_buf_free(&idx[u]);
        gl_buf_free(&d_table[u]);
        free(h_idx[u]);
        free(h_table[u]);
    }
    free(h_x);
    free(h_coeffs);
    free(h_in);
    free(h_taps);
    return status;
}
