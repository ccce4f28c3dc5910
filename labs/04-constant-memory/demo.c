/* demo.c: lab 04-constant-memory's comparison table.
 *
 *   make run LAB=04      your constant_memory.cu     make demo LAB=04   the reference
 *   build/.../demo [--csv FILE] [N]                  (default 2^24 outputs)
 *
 * Each variant runs once on poisoned output and is checked against the CPU
 * (every output of the lookups; a sample of the convolutions' outputs, so
 * that the CPU's share stays near 2^25 multiply-adds per row); a right one is
 * then timed (median of 21 runs, L2 flushed before each) and compared with
 * the row named in `against`: speedup = that row's time / this row's time.
 * The run-time-length filters run at several tap counts: where the constant
 * version falls behind is the trap of task 3. */
#include "constant_memory.h"
#include "gpulabs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TAPS 1024 /* the longest filter of the table */

typedef enum { CONV_GLOBAL, CONV_CONSTANT, CONV_RUNTIME, CONV_LONG, LOOKUP_CONSTANT,
               LOOKUP_GLOBAL } op;

typedef struct {
    const char *name;
    op op;
    int ntaps;    /* convolutions; 0 for the lookups */
    int uniform;  /* lookups: one index per warp, or one per lane */
    int against;  /* row to compare with (its own: the reference) */
} variant;

#define NVARIANTS 14
static const variant variants[NVARIANTS] = {
    {"convolve_global", CONV_GLOBAL, CM_TAPS, 0, 0},
    {"convolve_constant", CONV_CONSTANT, CM_TAPS, 0, 0},
    {"convolve_constant_runtime", CONV_RUNTIME, 64, 0, 2},
    {"convolve_long", CONV_LONG, 64, 0, 2},
    {"convolve_constant_runtime", CONV_RUNTIME, 128, 0, 4},
    {"convolve_long", CONV_LONG, 128, 0, 4},
    {"convolve_constant_runtime", CONV_RUNTIME, 256, 0, 6},
    {"convolve_long", CONV_LONG, 256, 0, 6},
    {"convolve_constant_runtime", CONV_RUNTIME, 1024, 0, 8},
    {"convolve_long", CONV_LONG, 1024, 0, 8},
    {"lookup_constant uniform", LOOKUP_CONSTANT, 0, 1, 10},
    {"lookup_constant random", LOOKUP_CONSTANT, 0, 0, 10},
    {"lookup_global uniform", LOOKUP_GLOBAL, 0, 1, 10},
    {"lookup_global random", LOOKUP_GLOBAL, 0, 0, 11},
};

typedef struct {
    const variant *v;
    float *out;
    const float *in, *taps, *table; /* device pointers */
    const int *idx;
    int n;
} job;

static void run(void *arg)
{
    job *j = arg;
    switch (j->v->op) {
    case CONV_GLOBAL:
        convolve_global(j->out, j->in, j->taps, j->n);
        break;
    case CONV_CONSTANT:
        convolve_constant(j->out, j->in, j->n);
        break;
    case CONV_RUNTIME:
        convolve_constant_runtime(j->out, j->in, j->v->ntaps, j->n);
        break;
    case CONV_LONG:
        convolve_long(j->out, j->in, j->taps, j->v->ntaps, j->n);
        break;
    case LOOKUP_CONSTANT:
        lookup_constant(j->out, j->idx, j->n);
        break;
    case LOOKUP_GLOBAL:
        lookup_global(j->out, j->idx, j->table, j->n);
        break;
    }
}

/* The CPU's out[i], in double, and the sum of the magnitudes of its terms. */
static double reference(const variant *v, const float *in, const float *taps, const float *table,
                        const int *idx, size_t i, double *magnitude)
{
    double sum = 0.0, mag = 0.0, t;
    int k;
    for (k = 0; k < (v->ntaps ? v->ntaps : CM_LOOKUPS); k++) {
        t = v->ntaps ? (double)taps[k] * in[i + k] : table[(idx[i] + k) % CM_TABLE];
        sum += t;
        mag += fabs(t);
    }
    *magnitude = mag;
    return sum;
}

typedef struct {
    size_t checked, wrong, unwritten, first;
    double first_ref;
    float first_got;
} tally;

/* Right within 1e-5 of the sum of the terms' magnitudes: FP32 rounding in
 * any order of summation stays far below that, a missing term does not. */
static void check_at(tally *t, size_t i, double ref, double magnitude, float got)
{
    unsigned bits;
    memcpy(&bits, &got, sizeof bits);
    t->checked++;
    if (!isnan(got) && fabs((double)got - ref) <= 1e-5 * magnitude + 1e-30)
        return;
    if (!t->wrong++) {
        t->first = i;
        t->first_ref = ref;
        t->first_got = got;
    }
    t->unwritten += bits == 0xFFFFFFFFu; /* still the poison */
}

/* Checks out against the CPU: outputs 0, stride, 2 stride, ... and the last
 * (stride 1 for the lookups). Returns 0, or 1 with why. */
static int check(const variant *v, const float *out, const float *in, const float *taps,
                 const float *table, const int *idx, int n, char *why, size_t len)
{
    size_t i, stride = 1, work = (size_t)n * (size_t)v->ntaps;
    tally t = {0, 0, 0, 0, 0.0, 0.0f};
    double ref, mag;

    if (work > ((size_t)1 << 25))
        stride = work >> 25;
    for (i = 0; i < (size_t)n; i += stride) {
        ref = reference(v, in, taps, table, idx, i, &mag);
        check_at(&t, i, ref, mag, out[i]);
    }
    if (n > 0 && (size_t)(n - 1) % stride != 0) {
        ref = reference(v, in, taps, table, idx, (size_t)n - 1, &mag);
        check_at(&t, (size_t)n - 1, ref, mag, out[n - 1]);
    }
    if (!t.wrong)
        return 0;
    if (t.unwritten == t.checked)
        snprintf(why, len, "nothing was written to out (still the poison): is the kernel still "
                 "a TODO?");
    else
        snprintf(why, len, "out is wrong at %zu of the %zu outputs checked (%zu never written), "
                 "first out[%zu]: expected %.7g, got %.7g",
                 t.wrong, t.checked, t.unwritten, t.first, t.first_ref, (double)t.first_got);
    return 1;
}

int main(int argc, char **argv)
{
    static const char *headers[] = {"variant", "taps", "time_ms", "Gop/s", "speedup", "against",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in, taps, d_table, idx_uniform, idx_random;
    float *h_in, *h_taps, *h_table, *h_out;
    int *h_uniform, *h_random;
    double ms[NVARIANTS];
    int n, v, wrong = 0, status;
    size_t i, in_len;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 outputs)", 1, 1, 1L << 28, &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 24;
    in_len = (size_t)n + MAX_TAPS - 1;

    gl_demo_begin(&info);
    h_in = malloc(in_len * sizeof(float));
    h_out = malloc((size_t)n * sizeof(float));
    h_uniform = malloc((size_t)n * sizeof(int));
    h_random = malloc((size_t)n * sizeof(int));
    h_taps = malloc(MAX_TAPS * sizeof(float));
    h_table = malloc(CM_TABLE * sizeof(float));
    if (!h_in || !h_out || !h_uniform || !h_random || !h_taps || !h_table) {
        fprintf(stderr, "%s: not enough host memory for n = %d\n", argv[0], n);
        return 1;
    }
    gl_rng_init(&rng, gl_seed(), "04-constant-memory demo");
    gl_fill_float(&rng, h_in, in_len, -1.0f, 1.0f);
    gl_fill_float(&rng, h_taps, MAX_TAPS, -1.0f, 1.0f);
    gl_fill_float(&rng, h_table, CM_TABLE, -1.0f, 1.0f);
    for (i = 0; i < (size_t)n; i++) {
        if (i % 32 == 0) /* uniform: one index for the 32 lanes of a warp */
            h_uniform[i] = (int)gl_rng_range(&rng, 0, CM_TABLE - 1);
        else
            h_uniform[i] = h_uniform[i - 1];
        h_random[i] = (int)gl_rng_range(&rng, 0, CM_TABLE - 1);
    }
    in = gl_buf_alloc(in_len * sizeof(float), 0);
    taps = gl_buf_alloc(MAX_TAPS * sizeof(float), 0);
    d_table = gl_buf_alloc(CM_TABLE * sizeof(float), 0);
    idx_uniform = gl_buf_alloc((size_t)n * sizeof(int), 0);
    idx_random = gl_buf_alloc((size_t)n * sizeof(int), 0);
    gl_buf_upload(&in, h_in);
    gl_buf_upload(&taps, h_taps);
    gl_buf_upload(&d_table, h_table);
    gl_buf_upload(&idx_uniform, h_uniform);
    gl_buf_upload(&idx_random, h_random);
    set_taps(h_taps); /* the first CM_TAPS of them */
    set_table_constant(h_table);
    GL_CHECK_LAUNCH("set_taps, set_table_constant");

    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "04-constant-memory, n = %d outputs, one thread each, blocks of "
                  "%d threads", n, CM_BLOCK);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());
    gl_table_note(table, "ops", "a convolution output is 2 * taps flops (multiply, add); a "
                  "lookup output is %d table reads", CM_LOOKUPS);
    gl_table_note(table, "lookups", "uniform: the 32 lanes of a warp share one index; random: "
                  "each lane its own, in [0, %d)", CM_TABLE);
    gl_table_note(table, "speedup", "time of the row named in `against` / time of this row");

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        const int *idx = var->uniform ? h_uniform : h_random;
        /* each row its own out, with intact guards */
        gl_buf out = gl_buf_alloc((size_t)n * sizeof(float), 0);
        job j = {var, out.ptr, in.ptr, taps.ptr, d_table.ptr,
                 var->uniform ? idx_uniform.ptr : idx_random.ptr, n};
        gl_guard_report guards;
        char why[1024];

        if (var->op == CONV_RUNTIME) {
            set_taps_runtime(h_taps, var->ntaps);
            GL_CHECK_LAUNCH("set_taps_runtime");
        }
        gl_buf_poison(&out);
        run(&j);
        GL_CHECK_LAUNCH(var->name);
        gl_buf_download(&out, h_out);
        if (gl_buf_check_guards(&out, &guards)) {
            gl_guard_describe(&guards, out.bytes, sizeof(float), "out", why, sizeof why);
        } else if (!check(var, h_out, h_in, h_taps, h_table, idx, n, why, sizeof why)) {
            ms[v] = gl_time_ms(run, &j, gl_timing_default());
            gl_buf_free(&out);
            continue;
        }
        gl_buf_free(&out);
        ms[v] = -1.0;
        wrong++;
        if (var->ntaps)
            printf("%s with %d taps is WRONG: %s\n", var->name, var->ntaps, why);
        else
            printf("%s is WRONG: %s\n", var->name, why);
    }

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        int base = var->against;
        double ops = (double)n * (var->ntaps ? 2.0 * var->ntaps : CM_LOOKUPS);
        gl_table_cell(table, "%s", var->name);
        if (var->ntaps)
            gl_table_cell(table, "%d", var->ntaps);
        else
            gl_table_cell(table, "-");
        if (ms[v] < 0.0) {
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
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
            gl_table_cell(table, "%s %d", variants[base].name, variants[base].ntaps);
        else
            gl_table_cell(table, "%s", variants[base].name);
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "04");
    gl_buf_free(&in);
    gl_buf_free(&taps);
    gl_buf_free(&d_table);
    gl_buf_free(&idx_uniform);
    gl_buf_free(&idx_random);
    free(h_in);
    free(h_out);
    free(h_uniform);
    free(h_random);
    free(h_taps);
    free(h_table);
    return status;
}
