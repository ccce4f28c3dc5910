/* demo.c: lab 02-coalescing's measurements.
 *
 *   make run LAB=02      your coalescing.cu        make demo LAB=02   the reference
 *   build/.../demo [--csv FILE] [N]                (default N = 2^24 floats)
 *
 * Four experiments, each checked against the CPU before it is timed (median
 * of 21 runs, L2 flushed before each), reported as effective bandwidth:
 * useful bytes read + written per second, and as a share of cudaMemcpy.
 *   stride       your strided_copy, strides 1 to 32
 *   offset       the given copy, from a start `offset` floats past a 256-byte boundary
 *   kick         the given array of structures against your structure of arrays
 *   matrix_add   8192 x 8192, the given mapping against yours */
#include "coalescing.h"
#include "gpulabs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gl_table *table;
static double memcpy_gbps;
static int wrong;

/* One row of the table: time it if it is right, else say why not. */
static void row(const char *experiment, const char *param, void (*fn)(void *), void *arg,
                double useful_bytes, const char *why)
{
    gl_table_cell(table, "%s", experiment);
    gl_table_cell(table, "%s", param);
    if (why && *why) {
        static char last[1024];
        if (strcmp(why, last) != 0) /* the same reason for every stride: say it once */
            printf("%s %s is WRONG: %s\n", experiment, param, why);
        snprintf(last, sizeof last, "%s", why);
        wrong++;
        gl_table_cell(table, "-");
        gl_table_cell(table, "-");
        gl_table_cell(table, "-");
        gl_table_cell(table, "WRONG");
    } else {
        double ms = gl_time_ms(fn, arg, gl_timing_default());
        gl_table_cell(table, "%.4f", ms);
        gl_table_cell(table, "%.0f", gl_gbps(useful_bytes, ms));
        gl_table_cell(table, "%.1f", gl_percent(gl_gbps(useful_bytes, ms), memcpy_gbps));
        gl_table_cell(table, "ok");
    }
}

static const char *compare(const float *ref, const float *got, size_t n, double rtol)
{
    static char why[1024];
    gl_cmp c;
    if (!gl_compare_float(ref, got, n, rtol > 0 ? 1e-6 : 0.0, rtol, &c))
        return "";
    gl_cmp_describe(&c, "out", NULL, NULL, why, sizeof why);
    return why;
}

/* ---- stride and offset ---- */

typedef struct {
    float *out;
    const float *in;
    int n, stride;
    int given; /* copy_float with in + offset, else strided_copy */
} copy_job;

static void run_copy(void *arg)
{
    copy_job *j = arg;
    if (j->given)
        copy_float(j->out, j->in, j->n);
    else
        strided_copy(j->out, j->in, j->n, j->stride);
}

static void strides_and_offsets(int n)
{
    size_t in_len = (size_t)n * 32 + 64;
    float *h_in = malloc(in_len * sizeof(float)), *h_out = malloc((size_t)n * sizeof(float)),
          *h_ref = malloc((size_t)n * sizeof(float));
    gl_buf in = gl_buf_alloc(in_len * sizeof(float), 0), out = gl_buf_alloc(n * sizeof(float), 0);
    static const int offsets[] = {0, 1, 2, 4, 8, 16, 31, 32};
    gl_rng rng;
    char param[32];
    int s, o, i;

    if (!h_in || !h_out || !h_ref) {
        fprintf(stderr, "demo: not enough host memory\n");
        exit(1);
    }
    gl_rng_init(&rng, gl_seed(), "02-coalescing strides");
    gl_fill_float(&rng, h_in, in_len, -1.0f, 1.0f);
    gl_buf_upload(&in, h_in);
    for (s = 1; s <= 32; s++) {
        copy_job j = {out.ptr, in.ptr, n, s, 0};
        for (i = 0; i < n; i++)
            h_ref[i] = h_in[(size_t)i * s];
        gl_buf_poison(&out);
        run_copy(&j);
        GL_CHECK_LAUNCH("strided_copy");
        gl_buf_download(&out, h_out);
        snprintf(param, sizeof param, "%d", s);
        row("stride", param, run_copy, &j, 2.0 * n * sizeof(float),
            compare(h_ref, h_out, (size_t)n, 0.0));
    }
    for (o = 0; o < (int)(sizeof offsets / sizeof offsets[0]); o++) {
        copy_job j = {out.ptr, (const float *)in.ptr + offsets[o], n, 1, 1};
        gl_buf_poison(&out);
        run_copy(&j);
        GL_CHECK_LAUNCH("copy_float");
        gl_buf_download(&out, h_out);
        snprintf(param, sizeof param, "%d", offsets[o]);
        row("offset", param, run_copy, &j, 2.0 * n * sizeof(float),
            compare(h_in + offsets[o], h_out, (size_t)n, 0.0));
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_out);
    free(h_ref);
}

/* ---- kick: array of structures against structure of arrays ---- */

typedef struct {
    struct particle *aos;
    struct particles soa;
    int n;
} kick_job;

static const float EX = 2.5f, DT = 0.01f;

static void run_aos(void *arg)
{
    kick_job *j = arg;
    kick_aos(j->aos, j->n, EX, DT);
}

static void run_soa(void *arg)
{
    kick_job *j = arg;
    kick_soa(j->soa, j->n, EX, DT);
}

static void kick(int n)
{
    struct particle *h = malloc((size_t)n * sizeof *h);
    float *fields = malloc((size_t)n * 8 * sizeof(float)), *vx = malloc((size_t)n * sizeof(float)),
          *ref = malloc((size_t)n * sizeof(float));
    gl_buf aos = gl_buf_alloc((size_t)n * sizeof *h, 0), soa = gl_buf_alloc(8 * (size_t)n * 4, 0);
    float **f[8];
    kick_job j;
    gl_rng rng;
    int i, k;

    gl_rng_init(&rng, gl_seed(), "02-coalescing kick");
    for (i = 0; i < n; i++) {
        struct particle p = {gl_rng_float(&rng, -1, 1), gl_rng_float(&rng, -1, 1),
                             gl_rng_float(&rng, -1, 1), gl_rng_float(&rng, -1, 1),
                             gl_rng_float(&rng, -1, 1), gl_rng_float(&rng, -1, 1),
                             gl_rng_float(&rng, 0.5f, 2.0f), gl_rng_float(&rng, -1, 1)};
        h[i] = p;
        ref[i] = p.vx + p.charge / p.mass * EX * DT;
    }
    /* the same particles, field by field */
    for (k = 0; k < 8; k++)
        for (i = 0; i < n; i++)
            fields[(size_t)k * n + i] = ((const float *)&h[i])[k];
    gl_buf_upload(&aos, h);
    gl_buf_upload(&soa, fields);
    j.aos = aos.ptr;
    j.n = n;
    f[0] = &j.soa.x, f[1] = &j.soa.y, f[2] = &j.soa.z, f[3] = &j.soa.vx;
    f[4] = &j.soa.vy, f[5] = &j.soa.vz, f[6] = &j.soa.mass, f[7] = &j.soa.charge;
    for (k = 0; k < 8; k++)
        *f[k] = (float *)soa.ptr + (size_t)k * n;

    run_aos(&j);
    GL_CHECK_LAUNCH("kick_aos");
    gl_buf_download(&aos, h);
    for (i = 0; i < n; i++)
        vx[i] = h[i].vx;
    /* useful bytes: vx, mass, charge read, vx written */
    row("kick", "aos", run_aos, &j, 16.0 * n, compare(ref, vx, (size_t)n, 1e-5));
    run_soa(&j);
    GL_CHECK_LAUNCH("kick_soa");
    GL_CUDA(cudaMemcpy(vx, j.soa.vx, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    row("kick", "soa", run_soa, &j, 16.0 * n, compare(ref, vx, (size_t)n, 1e-5));
    gl_buf_free(&aos);
    gl_buf_free(&soa);
    free(h);
    free(fields);
    free(vx);
    free(ref);
}

/* ---- matrix add: which dimension threadIdx.x walks ---- */

typedef struct {
    float *c;
    const float *a, *b;
    int rows, cols, naive;
} add_job;

static void run_add(void *arg)
{
    add_job *j = arg;
    if (j->naive)
        matrix_add_naive(j->c, j->a, j->b, j->rows, j->cols);
    else
        matrix_add(j->c, j->a, j->b, j->rows, j->cols);
}

static void matrix(int rows, int cols)
{
    size_t n = (size_t)rows * cols, i;
    float *ha = malloc(n * 4), *hb = malloc(n * 4), *hc = malloc(n * 4), *ref = malloc(n * 4);
    gl_buf a = gl_buf_alloc(n * 4, 0), b = gl_buf_alloc(n * 4, 0), c = gl_buf_alloc(n * 4, 0);
    gl_rng rng;
    int naive;
    gl_rng_init(&rng, gl_seed(), "02-coalescing matrix");
    gl_fill_float(&rng, ha, n, -1, 1);
    gl_fill_float(&rng, hb, n, -1, 1);
    for (i = 0; i < n; i++)
        ref[i] = ha[i] + hb[i];
    gl_buf_upload(&a, ha);
    gl_buf_upload(&b, hb);
    for (naive = 1; naive >= 0; naive--) {
        add_job j = {c.ptr, a.ptr, b.ptr, rows, cols, naive};
        gl_buf_poison(&c);
        run_add(&j);
        GL_CHECK_LAUNCH(naive ? "matrix_add_naive" : "matrix_add");
        gl_buf_download(&c, hc);
        row("matrix_add", naive ? "naive" : "coalesced", run_add, &j, 3.0 * n * 4,
            compare(ref, hc, n, 0.0));
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(ha);
    free(hb);
    free(hc);
    free(ref);
}

int main(int argc, char **argv)
{
    static const char *headers[] = {"experiment", "param", "time_ms", "GB/s", "pct_of_memcpy",
                                    "check"};
    gl_demo_args args;
    gl_device_info info;
    int n;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 floats)", 1, 1, 1 << 25, &args);
    gl_demo_begin(&info);
    /* the stride-32 input is 32 N floats: 2 GiB at the default N */
    n = args.nvalues ? (int)args.values[0]
                     : info.global_mem_bytes >= ((size_t)8 << 30) ? 1 << 24 : 1 << 22;
    memcpy_gbps = gl_memcpy_gbps(0);

    table = gl_table_new(NULL, 6, headers);
    gl_table_note(table, "lab", "02-coalescing, N = %d floats, matrices 8192 x 8192", n);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write; "
                  "theoretical %.0f)", memcpy_gbps, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());
    strides_and_offsets(n);
    kick(n);
    matrix(8192, 8192);

    return gl_demo_end(table, &args, wrong, "02");
}
