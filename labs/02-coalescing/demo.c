/* demo.c: lab 02-coalescing's measurements.
 *
 *   make run LAB=02      your coalescing.cu        make demo LAB=02   the reference
 *   build/.../demo [--csv FILE] [N]                (default N = 2^24 floats)
 *
 * Four experiments, each checked as the grader checks it (lab.c) before it
 * is timed (median of 21 runs, L2 flushed before each), reported as
 * effective bandwidth: useful bytes read + written per second, and as a
 * share of cudaMemcpy.
 *   stride       your strided_copy, strides 1 to 32
 *   offset       the given copy, from a start `offset` floats past a 256-byte boundary
 *   kick         the given array of structures against your structure of arrays
 *   matrix_add   8192 x 8192, the given mapping against yours */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gl_table *table;
static double memcpy_gbps;
static int wrong;

typedef struct {
    const char *name; /* the launcher */
    void *out;
    const float *a, *b;
    struct particles p;
    int n, m; /* elements and stride, or rows and columns */
} job;

static void run(void *arg)
{
    job *j = arg;
    if (!strcmp(j->name, "kick_aos"))
        co_kick_aos(j->out, j->n, CO_EX, CO_DT);
    else if (!strcmp(j->name, "kick_soa"))
        co_kick_soa(j->p, j->n, CO_EX, CO_DT);
    else if (j->b)
        co_matrix_add(j->name, j->out, j->a, j->b, j->n, j->m);
    else
        co_copy(j->name, j->out, j->a, j->n, j->m);
}

/* One row of the table: time it if it is right, else say why not. */
static void row(const char *experiment, const char *param, job *j, double useful_bytes,
                const char *why)
{
    gl_table_cell(table, "%s", experiment);
    gl_table_cell(table, "%s", param);
    if (*why) {
        static char last[2048];
        if (strcmp(why, last) != 0) /* the same reason for every stride: say it once */
            printf("%s %s is WRONG: %s\n", experiment, param, why);
        snprintf(last, sizeof last, "%s", why);
        wrong++;
        gl_table_cell(table, "-");
        gl_table_cell(table, "-");
        gl_table_cell(table, "-");
        gl_table_cell(table, "WRONG");
    } else {
        double ms = gl_time_ms(run, j, gl_timing_default());
        gl_table_cell(table, "%.4f", ms);
        gl_table_cell(table, "%.0f", gl_gbps(useful_bytes, ms));
        gl_table_cell(table, "%.1f", gl_percent(gl_gbps(useful_bytes, ms), memcpy_gbps));
        gl_table_cell(table, "ok");
    }
}

static void strides_and_offsets(gl_rng *rng, int n)
{
    static const int offsets[] = {0, 1, 2, 4, 8, 16, 31, 32};
    size_t len = (size_t)n * 32 + 64;
    float *h_in = malloc(len * sizeof(float));
    gl_buf in = gl_buf_alloc(len * sizeof(float), 0), out = gl_buf_alloc(n * sizeof(float), 0);
    char param[32];
    int s, o;

    if (!h_in)
        gl_fail("demo: not enough host memory");
    gl_fill_float(rng, h_in, len, -1.0f, 1.0f);
    gl_buf_upload(&in, h_in);
    for (s = 1; s <= 32; s++) {
        job j = {"strided_copy", out.ptr, in.ptr, NULL, {0}, n, s};
        snprintf(param, sizeof param, "%d", s);
        row("stride", param, &j, 2.0 * n * sizeof(float),
            co_copy_check("strided_copy", &in, h_in, 0, n, s));
    }
    for (o = 0; o < (int)(sizeof offsets / sizeof offsets[0]); o++) {
        job j = {"copy_float", out.ptr, (const float *)in.ptr + offsets[o], NULL, {0}, n, 1};
        snprintf(param, sizeof param, "%d", offsets[o]);
        row("offset", param, &j, 2.0 * n * sizeof(float),
            co_copy_check("copy_float", &in, h_in, (size_t)offsets[o], n, 1));
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
}

/* useful bytes: vx, mass and charge read, vx written */
static void kick(gl_rng *rng, int n)
{
    float *fields, *ref;
    struct particle *records = malloc((size_t)n * sizeof *records);
    gl_buf aos = gl_buf_alloc((size_t)n * sizeof *records, 0),
           soa = gl_buf_alloc(8 * (size_t)n * sizeof(float), 0);
    job ja = {"kick_aos", aos.ptr, NULL, NULL, {0}, n, 0},
        js = {"kick_soa", NULL, NULL, NULL, co_particles_at(soa.ptr, n), n, 0};

    if (!records)
        gl_fail("demo: not enough host memory");
    co_particles_make(rng, n, &fields, &ref);
    co_records_from_fields(records, fields, n);
    gl_buf_upload(&aos, records);
    gl_buf_upload(&soa, fields);
    row("kick", "aos", &ja, 16.0 * n, co_kick_check("kick_aos", n, fields, ref));
    row("kick", "soa", &js, 16.0 * n, co_kick_check("kick_soa", n, fields, ref));
    gl_buf_free(&aos);
    gl_buf_free(&soa);
    free(records);
    free(fields);
    free(ref);
}

/* which dimension threadIdx.x walks */
static void matrix(gl_rng *rng, int rows, int cols)
{
    size_t bytes = (size_t)rows * cols * sizeof(float);
    float *h_a, *h_b, *ref;
    gl_buf a = gl_buf_alloc(bytes, 0), b = gl_buf_alloc(bytes, 0), c = gl_buf_alloc(bytes, 0);
    job jn = {"matrix_add_naive", c.ptr, a.ptr, b.ptr, {0}, rows, cols},
        jc = {"matrix_add", c.ptr, a.ptr, b.ptr, {0}, rows, cols};

    co_add_make(rng, rows, cols, &h_a, &h_b, &ref);
    gl_buf_upload(&a, h_a);
    gl_buf_upload(&b, h_b);
    row("matrix_add", "naive", &jn, 3.0 * bytes,
        co_add_check("matrix_add_naive", rows, cols, h_a, h_b, ref));
    row("matrix_add", "coalesced", &jc, 3.0 * bytes,
        co_add_check("matrix_add", rows, cols, h_a, h_b, ref));
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(h_a);
    free(h_b);
    free(ref);
}

int main(int argc, char **argv)
{
    static const char *headers[] = {"experiment", "param", "time_ms", "GB/s", "pct_of_memcpy",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    gl_rng rng;
    int n;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 floats)", 1, 1, 1 << 25, &args);
    gl_demo_begin(&info);
    /* the stride-32 input is 32 N floats: 2 GiB at the default N */
    n = args.nvalues ? (int)args.values[0]
                     : info.global_mem_bytes >= ((size_t)8 << 30) ? 1 << 24 : 1 << 22;
    memcpy_gbps = gl_memcpy_gbps(0);
    gl_rng_init(&rng, gl_seed(), "02-coalescing demo");

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "02-coalescing, N = %d floats, matrices 8192 x 8192", n);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write; "
                  "theoretical %.0f)", memcpy_gbps, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());
    strides_and_offsets(&rng, n);
    kick(&rng, n);
    matrix(&rng, 8192, 8192);

    return gl_demo_end(table, &args, wrong, "02");
}
