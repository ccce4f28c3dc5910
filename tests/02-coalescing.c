/* 02-coalescing.c: the grader's suite for lab 02-coalescing.
 *
 *   correctness  strided copy (strides 1 to 33, odd sizes), the structure-of-
 *                arrays kick (only vx changes), the matrix add on odd shapes;
 *                the launchers return at once
 *   technique    the kick reads arrays of floats, not 32-byte records; the
 *                matrix add does not scale threadIdx.x by the row length
 *   performance  against the lab's own naive kernels, in one run; stride 1
 *                against stride 32
 *   profile      global-load sectors per request (Nsight Compute): 4 when a
 *                warp reads 32 consecutive floats, up to 32 when strided */
#include "grader.h"
#include "inspect.h"

#include "coalescing.h"
#include "gpulabs.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*strided_fn)(float *out, const float *in, int n, int stride);
typedef void (*kick_aos_fn)(struct particle *p, int n, float ex, float dt);
typedef void (*kick_soa_fn)(struct particles p, int n, float ex, float dt);
typedef void (*add_fn)(float *c, const float *a, const float *b, int rows, int cols);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_STRIDE1_OVER_STRIDE32 4.0 /* bandwidth ratios */
#define MIN_SOA_OVER_AOS 1.5
#define MIN_ADD_OVER_NAIVE 2.0
#define MAX_COALESCED_SECTORS 4.5 /* global-load sectors per request: 4 = 32 floats */
#define MIN_STRIDED_SECTORS 16.0

static const float EX = 2.5f, DT = 0.01f;

static const char *describe(const gl_cmp *c, const char *name, const char *hint)
{
    static char why[1536];
    char d[1024];
    gl_cmp_describe(c, name, NULL, NULL, d, sizeof d);
    snprintf(why, sizeof why, "%s. %s", d,
             c->unwritten == c->n ? "Is the kernel still a TODO?" : hint);
    return why;
}

/* ---- task 1: strided copy ---- */

/* Runs strided_copy once and checks it; "" or why not. */
static const char *strided_once(strided_fn fn, int n, int stride)
{
    static char why[1600];
    size_t in_len = n ? (size_t)(n - 1) * stride + 1 : 1, i;
    float *h_in = gl_malloc(in_len * 4), *h_out = gl_malloc((size_t)n * 4 + 4),
          *h_ref = gl_malloc((size_t)n * 4 + 4);
    gl_buf in = gl_buf_alloc(in_len * 4, 0), out = gl_buf_alloc((size_t)n * 4, 0);
    gl_guard_report g;
    gl_cmp cmp;
    gl_rng rng;

    why[0] = '\0';
    gl_test_rng(&rng);
    gl_fill_float(&rng, h_in, in_len, -1, 1);
    for (i = 0; i < (size_t)n; i++)
        h_ref[i] = h_in[i * stride];
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    fn(out.ptr, in.ptr, n, stride);
    GL_CHECK_LAUNCH("strided_copy");
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, out.bytes, 4, "out", d, sizeof d);
        snprintf(why, sizeof why, "%s: test i < n in the kernel (the last block has threads past "
                 "n)", d);
    } else {
        gl_buf_download(&out, h_out);
        if (gl_compare_float(h_ref, h_out, (size_t)n, 0, 0, &cmp))
            snprintf(why, sizeof why, "%s",
                     describe(&cmp, "out", "out[i] is in[i * stride]: is the stride applied to "
                                           "the read, and only to the read?"));
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_out);
    free(h_ref);
    return why;
}

static void check_strided(const int (*cases)[2], int ncases)
{
    strided_fn fn = (strided_fn)gl_submission_fn("strided_copy");
    int c;
    for (c = 0; c < ncases; c++) {
        const char *why = strided_once(fn, cases[c][0], cases[c][1]);
        if (*why)
            gl_check_fail("strided_copy with n = %d, stride = %d: %s", cases[c][0], cases[c][1],
                          why);
    }
}

GL_TEST(strided_small)
{
    static const int cases[][2] = {{0, 1}, {1, 1}, {1, 7}, {33, 2}, {1000, 3}, {255, 32}};
    check_strided(cases, 6);
}

GL_TEST(strided_large)
{
    static const int cases[][2] = {{(1 << 20) + 1, 1}, {(1 << 20) + 1, 32}, {100003, 33}};
    check_strided(cases, 3);
}

/* ---- task 2: structure of arrays ---- */

static const char *const field_names[8] = {"x", "y", "z", "vx", "vy", "vz", "mass", "charge"};

typedef struct {
    int n;
    gl_buf arrays;     /* the 8 fields, one after the other */
    struct particles p;
    float *h_fields, *h_ref;
} soa_setup;

static void soa_begin(soa_setup *s, int n)
{
    size_t i, k;
    gl_rng rng;
    float **f[8];
    s->n = n;
    s->arrays = gl_buf_alloc(8 * (size_t)n * 4, 0);
    s->h_fields = gl_malloc(8 * (size_t)n * 4);
    s->h_ref = gl_malloc(8 * (size_t)n * 4);
    gl_test_rng(&rng);
    for (k = 0; k < 8; k++)
        for (i = 0; i < (size_t)n; i++)
            s->h_fields[k * n + i] =
                k == 6 ? gl_rng_float(&rng, 0.5f, 2.0f) : gl_rng_float(&rng, -1, 1);
    memcpy(s->h_ref, s->h_fields, 8 * (size_t)n * 4);
    for (i = 0; i < (size_t)n; i++) /* vx += charge / mass * ex * dt */
        s->h_ref[3 * (size_t)n + i] +=
            s->h_fields[7 * (size_t)n + i] / s->h_fields[6 * (size_t)n + i] * EX * DT;
    gl_buf_upload(&s->arrays, s->h_fields);
    f[0] = &s->p.x, f[1] = &s->p.y, f[2] = &s->p.z, f[3] = &s->p.vx;
    f[4] = &s->p.vy, f[5] = &s->p.vz, f[6] = &s->p.mass, f[7] = &s->p.charge;
    for (k = 0; k < 8; k++)
        *f[k] = (float *)s->arrays.ptr + k * n;
}

/* Every field as expected after one kick: vx changed, the others not. */
static const char *soa_verify(soa_setup *s)
{
    static char why[1700];
    float *h = gl_malloc(8 * (size_t)s->n * 4);
    gl_guard_report g;
    int k;
    why[0] = '\0';
    if (gl_buf_check_guards(&s->arrays, &g)) {
        snprintf(why, sizeof why, "wrote outside the particle arrays: test i < n");
    } else {
        gl_buf_download(&s->arrays, h);
        for (k = 0; k < 8; k++) {
            size_t off = (size_t)k * s->n;
            gl_cmp cmp;
            if (!gl_compare_float(s->h_ref + off, h + off, (size_t)s->n, 1e-6, 1e-5, &cmp))
                continue;
            if (k == 3) {
                snprintf(why, sizeof why, "%s",
                         describe(&cmp, "vx", "vx[i] += charge[i] / mass[i] * ex * dt, as in "
                                              "kick_aos_kernel"));
            } else {
                char d[1024];
                gl_cmp_describe(&cmp, field_names[k], NULL, NULL, d, sizeof d);
                snprintf(why, sizeof why, "%s changed: %s. Only vx is written", field_names[k],
                         d);
            }
            break;
        }
    }
    free(h);
    return why;
}

static void soa_end(soa_setup *s)
{
    gl_buf_free(&s->arrays);
    free(s->h_fields);
    free(s->h_ref);
}

static void check_soa(int n)
{
    kick_soa_fn fn = (kick_soa_fn)gl_submission_fn("kick_soa");
    soa_setup s;
    const char *why;
    soa_begin(&s, n);
    fn(s.p, n, EX, DT);
    GL_CHECK_LAUNCH("kick_soa");
    why = soa_verify(&s);
    if (*why)
        gl_check_fail("kick_soa with n = %d: %s", n, why);
    soa_end(&s);
}

GL_TEST(soa_small)
{
    check_soa(1);
    check_soa(1000);
}

GL_TEST(soa_large)
{
    check_soa((1 << 20) + 3);
}

/* ---- task 3: matrix add ---- */

static const char *add_once(add_fn fn, const char *name, int rows, int cols)
{
    static char why[1600];
    size_t n = (size_t)rows * cols, i;
    size_t guard = (size_t)32 * (rows > cols ? rows : cols) * 4 + 4096;
    float *ha = gl_malloc(n * 4), *hb = gl_malloc(n * 4), *hc = gl_malloc(n * 4), *ref = gl_malloc(n * 4);
    gl_buf a = gl_buf_alloc(n * 4, guard), b = gl_buf_alloc(n * 4, guard),
           c = gl_buf_alloc(n * 4, guard);
    gl_guard_report g;
    gl_cmp cmp;
    gl_rng rng;
    int cols_ = cols;

    why[0] = '\0';
    gl_test_rng(&rng);
    gl_fill_float(&rng, ha, n, -1, 1);
    gl_fill_float(&rng, hb, n, -1, 1);
    for (i = 0; i < n; i++)
        ref[i] = ha[i] + hb[i];
    gl_buf_upload(&a, ha);
    gl_buf_upload(&b, hb);
    gl_buf_poison(&c);
    fn(c.ptr, a.ptr, b.ptr, rows, cols);
    GL_CHECK_LAUNCH(name);
    if (gl_buf_check_guards(&c, &g)) {
        char d[512];
        gl_guard_describe(&g, c.bytes, 4, "c", d, sizeof d);
        snprintf(why, sizeof why, "%s: test row < rows and col < cols", d);
    } else {
        gl_buf_download(&c, hc);
        if (gl_compare_float(ref, hc, n, 0, 0, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, "c", gl_index_2d, &cols_, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d,
                     cmp.unwritten == cmp.n ? "Is the kernel still a TODO?"
                     : cmp.unwritten
                         ? "Some elements were never written: the grid must cover the columns "
                           "with blockIdx.x and the rows with blockIdx.y (the launcher's grid)"
                         : "Element (row, col) is at row * cols + col");
        }
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(ha);
    free(hb);
    free(hc);
    free(ref);
    return why;
}

static void check_add(int rows, int cols)
{
    const char *why = add_once((add_fn)gl_submission_fn("matrix_add"), "matrix_add", rows, cols);
    if (*why)
        gl_check_fail("matrix_add on %d x %d: %s", rows, cols, why);
}

GL_TEST(add_small)
{
    check_add(1, 1);
    check_add(1, 1000);
    check_add(1000, 1);
    check_add(33, 31);
}

GL_TEST(add_large)
{
    check_add(1025, 2049);
}

/* The launcher only enqueues its kernel (gl_expect_queued): c = a + a. */
typedef struct {
    add_fn fn;
    float *c;
    const float *a, *ref;
    int rows, cols;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    q->fn(q->c, q->a, q->a, q->rows, q->cols);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    size_t n = (size_t)q->rows * q->cols;
    float *h = gl_malloc(n * 4);
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->c, n * 4, cudaMemcpyDeviceToHost));
    right = gl_compare_float(q->ref, h, n, 0, 0, &cmp) == 0;
    free(h);
    return right;
}

GL_TEST(add_async)
{
    const int rows = 1000, cols = 1000;
    size_t n = (size_t)rows * cols, bytes = n * 4, i;
    float *ha = gl_malloc(bytes), *ref = gl_malloc(bytes);
    gl_buf staged = gl_buf_alloc(bytes, 0), a = gl_buf_alloc(bytes, 0), c = gl_buf_alloc(bytes, 0);
    queued q = {(add_fn)gl_submission_fn("matrix_add"), c.ptr, a.ptr, ref, rows, cols};
    gl_queue_buffers b = {a.ptr, staged.ptr, bytes, c.ptr, bytes};
    gl_rng rng;

    gl_test_rng(&rng);
    gl_fill_float(&rng, ha, n, -1, 1);
    for (i = 0; i < n; i++)
        ref[i] = ha[i] + ha[i];
    gl_buf_upload(&staged, ha);
    gl_expect_queued("matrix_add", queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&a);
    gl_buf_free(&c);
    free(ha);
    free(ref);
}

/* ---- technique: read from the PTX, no GPU needed ---- */

/* An index times 32 (the record size) is an array of structures. */
static int record_stride(const gl_ptx_entry *e)
{
    const char *p = e->body, *end = e->body + e->body_len;
    while ((p = strstr(p, "mul.wide.")) != NULL && p < end) {
        const char *eol = strchr(p, ';');
        if (eol && eol - p > 4 && !strncmp(eol - 4, ", 32", 4))
            return 1;
        p += 9;
    }
    return 0;
}

GL_TEST(soa_layout)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx("kick_soa_kernel", &e);
    if (gl_ptx_count(&e, "ld.global") < 3)
        gl_check_fail("kick_soa_kernel has %d global loads in its PTX: it should read vx, mass "
                      "and charge from their arrays",
                      gl_ptx_count(&e, "ld.global"));
    if (record_stride(&e))
        gl_check_fail("kick_soa_kernel steps 32 bytes per particle (an index times 32 in its "
                      "PTX): it still reads records of 8 floats, an array of structures. Read "
                      "p.vx[i], p.mass[i] and p.charge[i]: 4 bytes per particle per field");
    free(ptx);
}

GL_TEST(add_mapping)
{
    gl_ptx_entry e;
    char why[256], *ptx = gl_kernel_ptx("matrix_add_kernel", &e);
    if (!strstr(e.body, "%tid.x"))
        gl_check_fail("matrix_add_kernel does not use threadIdx.x");
    if (gl_ptx_scales_tid_x(&e, why, sizeof why))
        gl_check_fail("in matrix_add_kernel a value computed from threadIdx.x is multiplied by a "
                      "run-time value (%s): threadIdx.x picks the row, so the 32 threads of a "
                      "warp are a whole row apart. Let threadIdx.x pick the column: col = "
                      "blockIdx.x * blockDim.x + threadIdx.x",
                      why);
    free(ptx);
}

/* ---- performance: one run, ratios only ---- */

/* The timed size: 2^24 floats (the stride-32 input is 2 GiB), less on a small GPU,
 * as in the demo. */
static int perf_n(void)
{
    gl_device_info info;
    gl_device_require(&info);
    return info.global_mem_bytes >= ((size_t)8 << 30) ? 1 << 24 : 1 << 22;
}

typedef struct {
    strided_fn strided;
    kick_aos_fn aos;
    kick_soa_fn soa;
    add_fn add;
    void *out;
    const void *a, *b;
    struct particles p;
    int n, m;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    if (j->strided)
        j->strided(j->out, j->a, j->n, j->m);
    else if (j->aos)
        j->aos(j->out, j->n, EX, DT);
    else if (j->soa)
        j->soa(j->p, j->n, EX, DT);
    else
        j->add(j->out, j->a, j->b, j->n, j->m);
}

static double time_job(job *j)
{
    return gl_time_ms(run_job, j, gl_timing_default());
}

GL_TEST(stride1_vs_stride32)
{
    strided_fn fn = (strided_fn)gl_submission_fn("strided_copy");
    const char *why;
    int n;
    gl_buf in, out;
    job j = {0};
    double t1, t32;

    n = perf_n();
    if (*(why = strided_once(fn, n, 1)) || *(why = strided_once(fn, n, 32)))
        gl_check_fail("strided_copy is not right at n = %d yet, so its speed is not graded (the "
                      "correctness tests say what is wrong)",
                      n);
    in = gl_buf_alloc((size_t)n * 32 * 4, 0);
    out = gl_buf_alloc((size_t)n * 4, 0);
    GL_CUDA(cudaMemset(in.ptr, 0x3f, in.bytes));
    j.strided = fn;
    j.out = out.ptr;
    j.a = in.ptr;
    j.n = n;
    j.m = 1;
    t1 = time_job(&j);
    j.m = 32;
    t32 = time_job(&j);
    if (t32 < MIN_STRIDE1_OVER_STRIDE32 * t1)
        gl_check_fail("at n = %d, strided_copy takes %.3f ms at stride 1 and %.3f ms at stride "
                      "32: %.1fx, where a coalesced stride-1 copy is at least %.0fx faster. At "
                      "stride 1, do consecutive threads copy consecutive floats (thread i copies "
                      "element i, not a block of elements of its own)?",
                      n, t1, t32, t32 / t1, MIN_STRIDE1_OVER_STRIDE32);
    gl_test_note("stride 1: %.3f ms, stride 32: %.3f ms: %.1fx (needs %.0fx)", t1, t32, t32 / t1,
                 MIN_STRIDE1_OVER_STRIDE32);
    gl_buf_free(&in);
    gl_buf_free(&out);
}

GL_TEST(soa_vs_aos)
{
    kick_aos_fn aos = (kick_aos_fn)gl_baseline_fn("kick_aos");
    kick_soa_fn soa = (kick_soa_fn)gl_submission_fn("kick_soa");
    gl_buf records;
    soa_setup s;
    job ja = {0}, js = {0};
    double ta, ts;
    const char *why;
    int n;

    n = perf_n();
    soa_begin(&s, n);
    soa(s.p, n, EX, DT);
    GL_CHECK_LAUNCH("kick_soa");
    if (*(why = soa_verify(&s)))
        gl_check_fail("kick_soa is not right at n = %d yet, so its speed is not graded (the "
                      "correctness tests say what is wrong)",
                      n);
    records = gl_buf_alloc((size_t)n * sizeof(struct particle), 0);
    GL_CUDA(cudaMemset(records.ptr, 0x3f, records.bytes)); /* 0.75f in every field */
    ja.aos = aos;
    ja.out = records.ptr;
    ja.n = n;
    js.soa = soa;
    js.p = s.p;
    js.n = n;
    ta = time_job(&ja);
    ts = time_job(&js);
    if (ta < MIN_SOA_OVER_AOS * ts)
        gl_check_fail("at n = %d, kick_soa takes %.3f ms and the given kick_aos %.3f ms: %.2fx, "
                      "where reading 3 arrays of floats should be at least %.1fx faster than "
                      "reading 3 fields of 32-byte records",
                      n, ts, ta, ta / ts, MIN_SOA_OVER_AOS);
    gl_test_note("SoA %.3f ms, AoS %.3f ms: %.2fx (needs %.1fx)", ts, ta, ta / ts,
                 MIN_SOA_OVER_AOS);
    gl_buf_free(&records);
    soa_end(&s);
}

GL_TEST(add_vs_naive)
{
    add_fn naive = (add_fn)gl_baseline_fn("matrix_add_naive");
    add_fn fn = (add_fn)gl_submission_fn("matrix_add");
    const int rows = 8192, cols = 8192;
    size_t bytes = (size_t)rows * cols * 4;
    gl_buf a, b, c;
    job j = {0};
    double tn, tf;

    if (*add_once(fn, "matrix_add", 2048, 2048))
        gl_check_fail("matrix_add is not right yet, so its speed is not graded (the correctness "
                      "tests say what is wrong)");
    a = gl_buf_alloc(bytes, 0);
    b = gl_buf_alloc(bytes, 0);
    c = gl_buf_alloc(bytes, 0);
    GL_CUDA(cudaMemset(a.ptr, 0x3f, bytes));
    GL_CUDA(cudaMemset(b.ptr, 0x40, bytes));
    j.out = c.ptr;
    j.a = a.ptr;
    j.b = b.ptr;
    j.n = rows;
    j.m = cols;
    j.add = naive;
    tn = time_job(&j);
    j.add = fn;
    tf = time_job(&j);
    if (tn < MIN_ADD_OVER_NAIVE * tf)
        gl_check_fail("on %d x %d, matrix_add takes %.3f ms and the given matrix_add_naive %.3f "
                      "ms: %.2fx, where letting threadIdx.x walk along the rows should make it at "
                      "least %.1fx faster",
                      rows, cols, tf, tn, tn / tf, MIN_ADD_OVER_NAIVE);
    gl_test_note("matrix_add %.3f ms, naive %.3f ms: %.2fx (needs %.1fx)", tf, tn, tn / tf,
                 MIN_ADD_OVER_NAIVE);
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
}

/* ---- profile: Nsight Compute counters ---- */

static double sectors_per_request(const char *const *args)
{
    static const char *const metrics[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"};
    double v[2];
    gl_profile(metrics, 2, v, args);
    if (v[1] <= 0)
        gl_check_fail("%s made no global load requests (Nsight Compute)", args[0]);
    gl_test_note("%.2f sectors per global load request (%.0f sectors, %.0f requests)",
                 v[0] / v[1], v[0], v[1]);
    return v[0] / v[1];
}

GL_TEST(stride1_sectors)
{
    const char *args[] = {"strided_copy", "1048576", "1", NULL};
    double s = sectors_per_request(args);
    if (s > MAX_COALESCED_SECTORS)
        gl_check_fail("strided_copy at stride 1 reads %.2f sectors of 32 bytes per load request: "
                      "a warp reading 32 consecutive floats needs 4. Does thread i read element "
                      "i?",
                      s);
}

GL_TEST(stride32_sectors)
{
    const char *args[] = {"strided_copy", "1048576", "32", NULL};
    double s = sectors_per_request(args);
    if (s < MIN_STRIDED_SECTORS)
        gl_check_fail("strided_copy at stride 32 reads only %.2f sectors per load request: with "
                      "floats 128 bytes apart, every thread of a warp needs a sector of its own "
                      "(32). Does it read in[i * stride]?",
                      s);
}

GL_TEST(soa_sectors)
{
    const char *args[] = {"kick_soa", "1048576", NULL};
    double s = sectors_per_request(args);
    if (s > MAX_COALESCED_SECTORS)
        gl_check_fail("kick_soa reads %.2f sectors per load request, where 32 consecutive floats "
                      "of one array need 4: is every field read from its own array?",
                      s);
}

GL_TEST(add_sectors)
{
    const char *args[] = {"matrix_add", "2048", "2048", NULL};
    double s = sectors_per_request(args);
    if (s > MAX_COALESCED_SECTORS)
        gl_check_fail("matrix_add reads %.2f sectors per load request, where a warp reading 32 "
                      "consecutive floats of a row needs 4: does threadIdx.x walk along the row?",
                      s);
}

/* Under Nsight Compute: one launcher, once; checked. */
static const char *run_once(int argc, char **argv)
{
    long x, y = 0;
    if (argc < 2 || gl_parse_long(argv[1], 1, 1 << 24, &x) ||
        (argc > 2 && gl_parse_long(argv[2], 1, 1 << 16, &y)))
        return "usage: --run LAUNCHER N [STRIDE | COLS]";
    if (!strcmp(argv[0], "strided_copy"))
        return strided_once((strided_fn)gl_submission_fn("strided_copy"), (int)x, (int)y);
    if (!strcmp(argv[0], "kick_soa")) {
        soa_setup s;
        soa_begin(&s, (int)x);
        ((kick_soa_fn)gl_submission_fn("kick_soa"))(s.p, (int)x, EX, DT);
        GL_CHECK_LAUNCH("kick_soa");
        return soa_verify(&s);
    }
    if (!strcmp(argv[0], "matrix_add"))
        return add_once((add_fn)gl_submission_fn("matrix_add"), "matrix_add", (int)x, (int)y);
    return "usage: --run strided_copy | kick_soa | matrix_add ...";
}

static void add_tests(void)
{
    GL_ADD(strided_small, GL_CORRECTNESS, 2, 15, "strided copy, small n and strides");
    GL_ADD(strided_large, GL_CORRECTNESS, 2, 30, "strided copy, n = 2^20 + 1, strides 1 to 33");
    GL_ADD(soa_small, GL_CORRECTNESS, 2, 15, "SoA kick, n = 1 and 1000");
    GL_ADD(soa_large, GL_CORRECTNESS, 2, 30, "SoA kick, n = 2^20 + 3");
    GL_ADD(add_small, GL_CORRECTNESS, 2, 15, "matrix add, 1 x 1 to 33 x 31");
    GL_ADD(add_large, GL_CORRECTNESS, 2, 30, "matrix add, 1025 x 2049");
    GL_ADD(add_async, GL_CORRECTNESS, 2, 30, "matrix add, launcher returns at once");
    GL_ADD(soa_layout, GL_TECHNIQUE, 3, 10, "SoA kick: arrays of floats, no records");
    GL_ADD(add_mapping, GL_TECHNIQUE, 3, 10, "matrix add: threadIdx.x along a row");
    GL_ADD(stride1_vs_stride32, GL_PERFORMANCE, 4, 120, "stride 1 faster than stride 32");
    GL_ADD(soa_vs_aos, GL_PERFORMANCE, 4, 120, "SoA kick faster than AoS");
    GL_ADD(add_vs_naive, GL_PERFORMANCE, 4, 120, "matrix add faster than naive mapping");
    GL_ADD(stride1_sectors, GL_PROFILE, 2, 300, "stride 1: 4 sectors per request");
    GL_ADD(stride32_sectors, GL_PROFILE, 2, 300, "stride 32: 32 sectors per request");
    GL_ADD(soa_sectors, GL_PROFILE, 2, 300, "SoA kick: 4 sectors per request");
    GL_ADD(add_sectors, GL_PROFILE, 2, 300, "matrix add: 4 sectors per request");
}

const gl_lab GL_LAB = {"02-coalescing", "coalescing.cu", add_tests, run_once};
