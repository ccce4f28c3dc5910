/* demo.c: lab 05-atomics's comparison table.
 *
 *   make run LAB=05      your atomics.cu     make demo LAB=05   the reference
 *   build/.../demo [--csv FILE] [BYTES [N]]  (default 2^26 bytes, N = 2^24 elements)
 *
 * Each variant runs once on poisoned output and is checked against the CPU;
 * a right one is then timed (median of 21 runs, L2 flushed before each) and
 * compared with the row it improves on (x_baseline: that row's time over
 * this one's). GB/s: input bytes read per second. Inputs: "uniform bytes"
 * (random), "equal bytes" (one value: every count in one bin); task 2's
 * "hot p": 1000 bins, a fraction p of the values in one bin, the rest
 * uniform; "random floats" in [-1000, 1000), "random unsigned" ints. */
#include "gpulabs.h"
#include "atomics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVARIANTS 16
#define SWEEP_BINS 1000 /* not a power of two */

typedef enum { BYTES, VALUES, MAX, SUM } work;

typedef struct {
    const char *name;
    void (*bytes_fn)(unsigned *bins, const unsigned char *data, int n);
    void (*values_fn)(unsigned *bins, const int *values, int n, int nbins);
    work what;
    double hot;   /* BYTES: 1 = every byte equal; VALUES: the hot bin's fraction */
    int baseline; /* the row this one is compared with; -1: none */
} variant;

typedef struct {
    const variant *v;
    void *out;
    const void *in;
    int n;
    unsigned *partials, *counter;
} job;

static void run(void *arg)
{
    job *j = arg;
    switch (j->v->what) {
    case BYTES:
        j->v->bytes_fn(j->out, j->in, j->n);
        break;
    case VALUES:
        j->v->values_fn(j->out, j->in, j->n, SWEEP_BINS);
        break;
    case MAX:
        max_float(j->out, j->in, j->n);
        break;
    case SUM:
        sum_last_block(j->out, j->in, j->n, j->partials, j->counter);
        break;
    }
}

/* The input of a variant, in h (room for n elements of its kind). */
static void make_input(const variant *v, void *h, int n, gl_rng *rng)
{
    int i;
    switch (v->what) {
    case BYTES:
        gl_fill_bytes(rng, h, (size_t)n);
        if (v->hot > 0 && n > 0)
            memset(h, ((unsigned char *)h)[0], (size_t)n);
        break;
    case VALUES:
        for (i = 0; i < n; i++)
            ((int *)h)[i] = (double)(gl_rng_next(rng) >> 11) * 0x1p-53 < v->hot
                                ? SWEEP_BINS / 2
                                : (int)gl_rng_range(rng, 0, SWEEP_BINS - 1);
        break;
    case MAX:
        gl_fill_float(rng, h, (size_t)n, -1000.0f, 1000.0f);
        break;
    case SUM:
        for (i = 0; i < n; i++)
            ((unsigned *)h)[i] = (unsigned)gl_rng_next(rng);
        break;
    }
}

/* The CPU's answer: bins, the maximum or the sum, in ref; returns its word count. */
static size_t reference(const variant *v, const void *h, int n, unsigned *ref)
{
    int i;
    switch (v->what) {
    case BYTES:
        memset(ref, 0, AT_BINS * sizeof(unsigned));
        for (i = 0; i < n; i++)
            ref[((const unsigned char *)h)[i]]++;
        return AT_BINS;
    case VALUES:
        memset(ref, 0, SWEEP_BINS * sizeof(unsigned));
        for (i = 0; i < n; i++)
            ref[((const int *)h)[i]]++;
        return SWEEP_BINS;
    case MAX: {
        float m = -INFINITY;
        for (i = 0; i < n; i++)
            if (((const float *)h)[i] > m)
                m = ((const float *)h)[i];
        memcpy(ref, &m, sizeof m);
        return 1;
    }
    case SUM:
        ref[0] = 0;
        for (i = 0; i < n; i++)
            ref[0] += ((const unsigned *)h)[i];
        return 1;
    }
    return 0;
}

static const char *input_name(const variant *v, char *buf, size_t len)
{
    switch (v->what) {
    case BYTES:
        snprintf(buf, len, "%s", v->hot > 0 ? "equal bytes" : "uniform bytes");
        break;
    case VALUES:
        snprintf(buf, len, "hot %g", v->hot);
        break;
    case MAX:
        snprintf(buf, len, "random floats");
        break;
    case SUM:
        snprintf(buf, len, "random unsigned");
        break;
    }
    return buf;
}

int main(int argc, char **argv)
{
    static const variant variants[NVARIANTS] = {
        {"histogram_global", histogram_global, NULL, BYTES, 0, 0},
        {"histogram_shared", histogram_shared, NULL, BYTES, 0, 0},
        {"histogram_global", histogram_global, NULL, BYTES, 1, 2},
        {"histogram_shared", histogram_shared, NULL, BYTES, 1, 2},
        {"histogram_bins_global", NULL, histogram_bins_global, VALUES, 0, 4},
        {"histogram_bins", NULL, histogram_bins, VALUES, 0, 4},
        {"histogram_bins_global", NULL, histogram_bins_global, VALUES, 0.5, 6},
        {"histogram_bins", NULL, histogram_bins, VALUES, 0.5, 6},
        {"histogram_bins_global", NULL, histogram_bins_global, VALUES, 0.9, 8},
        {"histogram_bins", NULL, histogram_bins, VALUES, 0.9, 8},
        {"histogram_bins_global", NULL, histogram_bins_global, VALUES, 0.99, 10},
        {"histogram_bins", NULL, histogram_bins, VALUES, 0.99, 10},
        {"histogram_bins_global", NULL, histogram_bins_global, VALUES, 1, 12},
        {"histogram_bins", NULL, histogram_bins, VALUES, 1, 12},
        {"max_float", NULL, NULL, MAX, 0, -1},
        {"sum_last_block", NULL, NULL, SUM, 0, -1},
    };
    static const char *headers[] = {"variant", "input", "elements", "time_ms", "GB/s",
                                    "x_baseline", "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in, out, partials, counter;
    void *h_in;
    unsigned *h_ref, *h_out, zero = 0;
    double ms[NVARIANTS];
    int bytes_n, n, v, sizes[NVARIANTS], wrong = 0, status;
    size_t in_bytes;

    gl_demo_parse(argc, argv, "[--csv FILE] [BYTES [N]]  (default 2^26 bytes, N = 2^24)", 2, 1,
                  1L << 28, &args);
    bytes_n = args.nvalues > 0 ? (int)args.values[0] : 1 << 26;
    n = args.nvalues > 1 ? (int)args.values[1] : 1 << 24;
    in_bytes = (size_t)bytes_n > (size_t)n * 4 ? (size_t)bytes_n : (size_t)n * 4;

    gl_demo_begin(&info);
    h_in = malloc(in_bytes);
    h_ref = malloc(AT_MAX_BINS * sizeof(unsigned));
    h_out = malloc(AT_MAX_BINS * sizeof(unsigned));
    if (!h_in || !h_ref || !h_out) {
        fprintf(stderr, "%s: not enough host memory for %zu bytes\n", argv[0], in_bytes);
        return 1;
    }
    gl_rng_init(&rng, gl_seed(), "05-atomics demo");
    in = gl_buf_alloc(in_bytes, 0);
    out = gl_buf_alloc(AT_MAX_BINS * sizeof(unsigned), 0);
    partials = gl_buf_alloc(AT_SUM_BLOCKS * sizeof(unsigned), 0);
    counter = gl_buf_alloc(sizeof(unsigned), 0);
    gl_buf_upload(&counter, &zero); /* once: sum_last_block leaves it at 0 */

    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "05-atomics, %d bytes (task 1), %d elements (tasks 2 to 4), "
                  "%d bins in task 2, blocks of %d threads", bytes_n, n, SWEEP_BINS, AT_BLOCK);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        int count = var->what == BYTES ? bytes_n : n;
        job j = {var, out.ptr, in.ptr, count, partials.ptr, counter.ptr};
        gl_guard_report guards;
        gl_cmp cmp;
        size_t words;
        char why[1024], input[32];

        sizes[v] = count;
        /* the pairs share their input: draw it for the first row of each */
        if (v == 0 || var->what != variants[v - 1].what || var->hot != variants[v - 1].hot) {
            make_input(var, h_in, count, &rng);
            gl_buf_upload(&in, h_in);
        }
        words = reference(var, h_in, count, h_ref);
        gl_buf_poison(&out);
        run(&j);
        GL_CHECK_LAUNCH(var->name);
        gl_buf_download(&out, h_out);
        if (gl_buf_check_guards(&out, &guards)) {
            gl_guard_describe(&guards, out.bytes, sizeof(unsigned), "out", why, sizeof why);
        } else if (var->what == MAX) {
            float want, got;
            memcpy(&want, h_ref, sizeof want);
            memcpy(&got, h_out, sizeof got);
            if (got == want) {
                ms[v] = gl_time_ms(run, &j, gl_timing_default());
                continue;
            }
            snprintf(why, sizeof why, "*result is %.9g, expected %.9g", got, want);
        } else if (gl_compare_uint(h_ref, h_out, words, &cmp)) {
            gl_cmp_describe(&cmp, var->what == SUM ? "sum" : "bins", NULL, NULL, why, sizeof why);
        } else {
            ms[v] = gl_time_ms(run, &j, gl_timing_default());
            continue;
        }
        ms[v] = -1.0;
        wrong++;
        printf("%s (%s) is WRONG: %s\n", var->name, input_name(var, input, sizeof input), why);
    }

    for (v = 0; v < NVARIANTS; v++) {
        int base = variants[v].baseline;
        char input[32];
        double elem_bytes = variants[v].what == BYTES ? 1.0 : 4.0;
        gl_table_cell(table, "%s", variants[v].name);
        gl_table_cell(table, "%s", input_name(&variants[v], input, sizeof input));
        gl_table_cell(table, "%d", sizes[v]);
        if (ms[v] < 0.0) {
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.0f", gl_gbps(elem_bytes * sizes[v], ms[v]));
        if (base >= 0 && ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "05");
    gl_buf_free(&in);
    gl_buf_free(&out);
    gl_buf_free(&partials);
    gl_buf_free(&counter);
    free(h_in);
    free(h_ref);
    free(h_out);
    return status;
}
