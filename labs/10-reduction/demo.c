/* demo.c: lab 10-reduction's comparison table.
 *
 *   make run LAB=10      your reduction.cu       make demo LAB=10   the reference
 *   build/.../demo [--csv FILE] [N]              (default 2^28 elements: 1 GiB)
 *
 * Each variant runs once on poisoned output and is checked against the CPU
 * (floats within 2^-14 x sum |x| of the exact sum, ints exactly); a right
 * one is then timed (median of 21 runs, L2 flushed before each) and
 * reported as read bandwidth (the n x 4 bytes it reads per second: it
 * writes almost nothing) and as a share of the copy bandwidth (cudaMemcpy
 * device to device of the same n x 4 bytes, counting them read and
 * written), and against the rung before it (x_prev: that row's time over
 * this one's). Then two runs each of the atomics and of the last block, to
 * show which float sum changes between runs. */
#include "gpulabs.h"
#include "reduction.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVARIANTS 7
#define INT_ROW 6 /* the last row sums ints */

typedef void (*float_fn)(float *sum, float *partial, const float *in, int n);
typedef void (*int_fn)(int *sum, int *partial, const int *in, int n);

typedef struct {
    float_fn ffn;
    int_fn ifn;
    void *sum, *partial;
    const void *in;
    int n;
} job;

static void run(void *arg)
{
    job *j = arg;
    if (j->ffn)
        j->ffn(j->sum, j->partial, j->in, j->n);
    else
        j->ifn(j->sum, j->partial, j->in, j->n);
}

static float float_once(float_fn fn, gl_buf *sum, gl_buf *partial, const gl_buf *in, int n)
{
    float got;
    gl_buf_poison(sum);
    fn(sum->ptr, partial->ptr, in->ptr, n);
    GL_CHECK_LAUNCH("a float reduction");
    gl_buf_download(sum, &got);
    return got;
}

static int differing_bits(float a, float b)
{
    unsigned x, y, d;
    int bits = 0;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    for (d = x ^ y; d; d &= d - 1)
        bits++;
    return bits;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        float_fn ffn;
        int_fn ifn;
    } variants[NVARIANTS] = {
        {"interleaved", reduce_interleaved, NULL},
        {"sequential", reduce_sequential, NULL},
        {"first_add", reduce_first_add, NULL},
        {"shuffle", reduce_shuffle, NULL},
        {"grid_stride", reduce_grid_stride, NULL},
        {"last_block", reduce_last_block, NULL},
        {"grid_stride_int", NULL, reduce_grid_stride_int},
    };
    static const char *headers[] = {"variant", "time_ms", "GB/s", "pct_of_copy", "x_prev",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    gl_table *table;
    gl_buf in, sum, partial;
    float *h_float;
    int *h_int;
    double copy_gbps, ms[NVARIANTS], ref = 0.0, abs_sum = 0.0, bound;
    unsigned int_ref = 0;
    int n, v, i, wrong = 0, status;
    size_t bytes;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^28 elements)", 1, 1, REDUCE_MAX_N,
                  &args);
    n = args.nvalues > 0 ? (int)args.values[0] : 1 << 28;
    bytes = (size_t)n * sizeof(float);

    gl_demo_begin(&info);
    h_float = malloc(bytes);
    h_int = malloc(bytes);
    if (!h_float || !h_int) {
        fprintf(stderr, "%s: not enough host memory for n = %d (two arrays of %zu MiB); try a "
                        "smaller N\n", argv[0], n, bytes >> 20);
        return 1;
    }
    /* the copy roof: the same bytes as the input, counted read + written */
    copy_gbps = gl_memcpy_gbps(bytes);

    gl_rng_init(&rng, gl_seed(), "10-reduction demo");
    gl_fill_float(&rng, h_float, (size_t)n, -1.0f, 1.0f);
    gl_fill_int(&rng, h_int, (size_t)n, -1000, 1000);
    for (i = 0; i < n; i++) {
        ref += h_float[i];
        abs_sum += fabs(h_float[i]);
        int_ref += (unsigned)h_int[i]; /* wraps modulo 2^32, like the GPU's */
    }
    bound = abs_sum / 16384.0;

    /* one input buffer: the floats, then the ints for the last row */
    in = gl_buf_alloc(bytes, 0);
    sum = gl_buf_alloc(sizeof(float), 0);
    partial = gl_buf_alloc((size_t)reduce_partials(n) * sizeof(float), 0);
    gl_buf_upload(&in, h_float);

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "10-reduction, n = %d elements (%.0f MiB read)", n,
                  (double)bytes / (1 << 20));
    gl_table_note(table, "gpu", "%s (sm_%d%d, %d SMs)", info.name, info.cc_major, info.cc_minor,
                  info.sms);
    gl_table_note(table, "copy_gbps", "%.0f (cudaMemcpy device to device of the same %zu "
                  "bytes, counted read + written; theoretical %.0f). GB/s of a reduction: bytes "
                  "read / time", copy_gbps, bytes, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (v = 0; v < NVARIANTS; v++) {
        job j = {variants[v].ffn, variants[v].ifn, sum.ptr, partial.ptr, in.ptr, n};
        gl_guard_report guards;
        char why[1024];

        if (v == INT_ROW)
            gl_buf_upload(&in, h_int);
        gl_buf_poison(&sum);
        gl_buf_poison(&partial);
        run(&j);
        GL_CHECK_LAUNCH(variants[v].name);
        why[0] = '\0';
        if (gl_buf_check_guards(&sum, &guards)) {
            snprintf(why, sizeof why, "wrote outside *sum (one element)");
        } else if (gl_buf_check_guards(&partial, &guards)) {
            gl_guard_describe(&guards, partial.bytes, sizeof(float), "partial", why, sizeof why);
        } else if (v == INT_ROW) {
            unsigned got;
            gl_buf_download(&sum, &got);
            if (got != int_ref)
                snprintf(why, sizeof why, "*sum is %d, expected %d (exact)", (int)got,
                         (int)int_ref);
        } else {
            float got;
            gl_buf_download(&sum, &got);
            if (!(fabs((double)got - ref) <= bound))
                snprintf(why, sizeof why, "*sum is %.9g, expected %.9g within %.3g%s",
                         (double)got, ref, bound,
                         isnan(got) ? " (NaN: a partial or *sum never written)" : "");
        }
        if (!*why) {
            ms[v] = gl_time_ms(run, &j, gl_timing_default());
            continue;
        }
        ms[v] = -1.0; /* wrong: not timed */
        wrong++;
        printf("%s is WRONG: %s\n", variants[v].name, why);
    }

    for (v = 0; v < NVARIANTS; v++) {
        double gbps = ms[v] > 0.0 ? gl_gbps((double)bytes, ms[v]) : 0.0;
        gl_table_cell(table, "%s", variants[v].name);
        if (ms[v] < 0.0) {
            for (i = 0; i < 4; i++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[v]);
        gl_table_cell(table, "%.0f", gbps);
        gl_table_cell(table, "%.1f", gl_percent(gbps, copy_gbps));
        if (v > 0 && ms[v - 1] > 0.0)
            gl_table_cell(table, "%.2f", ms[v - 1] / ms[v]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }

    /* run to run: the atomics add the blocks' sums in whatever order the
     * blocks finish; the last block adds them in a fixed order */
    gl_buf_upload(&in, h_float);
    if (ms[4] > 0.0) {
        float a = float_once(reduce_grid_stride, &sum, &partial, &in, n);
        float b = float_once(reduce_grid_stride, &sum, &partial, &in, n);
        gl_table_note(table, "atomics_runs", "reduce_grid_stride twice: %.9g and %.9g (%d bits "
                      "differ; the exact sum is %.9g)", (double)a, (double)b,
                      differing_bits(a, b), ref);
    }
    if (ms[5] > 0.0) {
        float a = float_once(reduce_last_block, &sum, &partial, &in, n);
        float b = float_once(reduce_last_block, &sum, &partial, &in, n);
        gl_table_note(table, "last_block_runs", "reduce_last_block twice: %.9g and %.9g (%d bits "
                      "differ)", (double)a, (double)b, differing_bits(a, b));
    }

    status = gl_demo_end(table, &args, wrong, "10");
    gl_buf_free(&in);
    gl_buf_free(&sum);
    gl_buf_free(&partial);
    free(h_float);
    free(h_int);
    return status;
}
