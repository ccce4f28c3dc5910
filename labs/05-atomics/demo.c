/* demo.c: lab 05-atomics's comparison table.
 *
 *   make run LAB=05      your atomics.cu     make demo LAB=05   the reference
 *   build/.../demo [--csv FILE] [BYTES [N]]  (default 2^26 bytes, N = 2^24 elements)
 *
 * Each variant runs once and is checked as the grader checks it (lab.c); a
 * right one is then timed (median of 21 runs, L2 flushed before each) and
 * compared with the row it improves on (x_baseline: that row's time over
 * this one's). GB/s: input bytes read per second. Inputs: "uniform bytes"
 * (random), "equal bytes" (one value: every count in one bin); task 2's
 * "hot p": 1000 bins, a fraction p of the values in one bin (bin 500), the
 * rest uniform; "random floats" in [-1000, 1000), "random unsigned" ints. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>

#define NVARIANTS 16
#define SWEEP_BINS 1000 /* not a power of two */

typedef enum { BYTES, VALUES, MAX, SUM } work;

typedef struct {
    const char *name;
    work what;
    double hot;   /* BYTES: 1 = every byte equal; VALUES: the hot bin's fraction */
    int baseline; /* the row this one is compared with; -1: none */
} variant;

typedef struct {
    const variant *v;
    void *out;
    const void *in;
    int n;
    atomics_sum_state *sum;
} job;

static void run(void *arg)
{
    job *j = arg;
    switch (j->v->what) {
    case BYTES:
        atomics_bytes_run(j->v->name, j->out, j->in, j->n);
        break;
    case VALUES:
        atomics_values_run(j->v->name, j->out, j->in, j->n, SWEEP_BINS);
        break;
    case MAX:
        atomics_max_run(j->out, j->in, j->n);
        break;
    case SUM:
        atomics_sum_run(j->out, j->in, j->n, j->sum->partials.ptr, j->sum->counter.ptr);
        break;
    }
}

/* A variant's input (n + AT_SLACK elements, malloc'ed) and its size in bytes. */
static void *make_input(const variant *v, int n, gl_rng *rng, size_t *bytes)
{
    *bytes = ((size_t)n + AT_SLACK) * (v->what == BYTES ? 1 : 4);
    switch (v->what) {
    case BYTES:
        return atomics_make_bytes(rng, n, v->hot > 0);
    case VALUES:
        return atomics_make_values(rng, n, SWEEP_BINS, v->hot, SWEEP_BINS / 2);
    case MAX:
        return atomics_make_floats(rng, n, AT_MIXED);
    default:
        return atomics_make_unsigned(rng, n);
    }
}

static const char *check(const variant *v, const void *h, int n, atomics_sum_state *sum)
{
    switch (v->what) {
    case BYTES:
        return atomics_check_bytes(v->name, h, n);
    case VALUES:
        return atomics_check_values(v->name, h, n, SWEEP_BINS);
    case MAX:
        return atomics_check_max(h, n, NULL);
    default:
        return atomics_check_sum(sum, h, n);
    }
}

static const char *input_name(const variant *v, char *buf, size_t len)
{
    static const char *names[] = {"uniform bytes", "equal bytes", "random floats",
                                  "random unsigned"};
    if (v->what == VALUES)
        snprintf(buf, len, "hot %g", v->hot);
    else
        snprintf(buf, len, "%s", names[v->what == BYTES ? v->hot > 0 : v->what]);
    return buf;
}

int main(int argc, char **argv)
{
    static const variant variants[NVARIANTS] = {
        {"histogram_global", BYTES, 0, 0},       {"histogram_shared", BYTES, 0, 0},
        {"histogram_global", BYTES, 1, 2},       {"histogram_shared", BYTES, 1, 2},
        {"histogram_bins_global", VALUES, 0, 4}, {"histogram_bins", VALUES, 0, 4},
        {"histogram_bins_global", VALUES, 0.5, 6}, {"histogram_bins", VALUES, 0.5, 6},
        {"histogram_bins_global", VALUES, 0.9, 8}, {"histogram_bins", VALUES, 0.9, 8},
        {"histogram_bins_global", VALUES, 0.99, 10}, {"histogram_bins", VALUES, 0.99, 10},
        {"histogram_bins_global", VALUES, 1, 12}, {"histogram_bins", VALUES, 1, 12},
        {"max_float", MAX, 0, -1},               {"sum_last_block", SUM, 0, -1},
    };
    static const char *headers[] = {"variant", "input", "elements", "time_ms", "GB/s",
                                    "x_baseline", "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in = {0}, out;
    atomics_sum_state sum;
    void *h_in = NULL;
    double ms[NVARIANTS];
    int bytes_n, n, v, sizes[NVARIANTS], wrong = 0, status;
    char input[32];

    gl_demo_parse(argc, argv, "[--csv FILE] [BYTES [N]]  (default 2^26 bytes, N = 2^24)", 2, 1,
                  1L << 28, &args);
    bytes_n = args.nvalues > 0 ? (int)args.values[0] : 1 << 26;
    n = args.nvalues > 1 ? (int)args.values[1] : 1 << 24;

    gl_demo_begin(&info);
    gl_rng_init(&rng, gl_seed(), "05-atomics demo");
    out = gl_buf_alloc(AT_MAX_BINS * sizeof(unsigned), 0);
    atomics_sum_begin(&sum); /* the counter, zeroed once: sum_last_block leaves it at 0 */

    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "05-atomics, %d bytes (task 1), %d elements (tasks 2 to 4), "
                  "%d bins in task 2, blocks of %d threads", bytes_n, n, SWEEP_BINS, AT_BLOCK);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        const variant *var = &variants[v];
        job j = {var, out.ptr, NULL, var->what == BYTES ? bytes_n : n, &sum};
        const char *why;
        size_t bytes;

        sizes[v] = j.n;
        /* the pairs share their input: draw it for the first row of each */
        if (v == 0 || var->what != variants[v - 1].what || var->hot != variants[v - 1].hot) {
            free(h_in);
            h_in = make_input(var, j.n, &rng, &bytes);
            gl_buf_free(&in);
            in = gl_buf_alloc(bytes, 0);
            gl_buf_upload(&in, h_in);
        }
        j.in = in.ptr;
        why = check(var, h_in, j.n, &sum);
        ms[v] = -1.0; /* wrong: not timed */
        if (*why) {
            wrong++;
            printf("%s (%s) is WRONG: %s\n", var->name, input_name(var, input, sizeof input),
                   why);
            continue;
        }
        ms[v] = gl_time_ms(run, &j, gl_timing_default());
    }

    for (v = 0; v < NVARIANTS; v++) {
        int base = variants[v].baseline;
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
        gl_table_cell(table, "%.0f", gl_gbps((variants[v].what == BYTES ? 1.0 : 4.0) * sizes[v],
                                             ms[v]));
        if (base >= 0 && ms[base] > 0.0)
            gl_table_cell(table, "%.2f", ms[base] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    status = gl_demo_end(table, &args, wrong, "05");
    gl_buf_free(&in);
    gl_buf_free(&out);
    atomics_sum_end(&sum);
    free(h_in);
    return status;
}
