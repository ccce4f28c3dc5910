/* lab.c: lab 02-coalescing described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*copy_fn)(float *out, const float *in, int n);
typedef void (*strided_fn)(float *out, const float *in, int n, int stride);
typedef void (*kick_aos_fn)(struct particle *p, int n, float ex, float dt);
typedef void (*kick_soa_fn)(struct particles p, int n, float ex, float dt);
typedef void (*add_fn)(float *c, const float *a, const float *b, int rows, int cols);

static long long call_copy(void *fn, const gl_arg *a)
{
    ((copy_fn)fn)((float *)a[0].p, (const float *)a[1].p, (int)a[2].i);
    return 0;
}

static long long call_strided(void *fn, const gl_arg *a)
{
    ((strided_fn)fn)((float *)a[0].p, (const float *)a[1].p, (int)a[2].i, (int)a[3].i);
    return 0;
}

static long long call_kick_aos(void *fn, const gl_arg *a)
{
    ((kick_aos_fn)fn)((struct particle *)a[0].p, (int)a[1].i, (float)a[2].f, (float)a[3].f);
    return 0;
}

/* struct particles goes by value: its 8 device pointers travel one by one */
static long long call_kick_soa(void *fn, const gl_arg *a)
{
    struct particles p = {(float *)a[0].p, (float *)a[1].p, (float *)a[2].p, (float *)a[3].p,
                          (float *)a[4].p, (float *)a[5].p, (float *)a[6].p, (float *)a[7].p};
    ((kick_soa_fn)fn)(p, (int)a[8].i, (float)a[9].f, (float)a[10].f);
    return 0;
}

static long long call_add(void *fn, const gl_arg *a)
{
    ((add_fn)fn)((float *)a[0].p, (const float *)a[1].p, (const float *)a[2].p, (int)a[3].i,
                 (int)a[4].i);
    return 0;
}

const gl_launcher LAB_LAUNCHERS[] = {
    {"copy_float", "ppi", call_copy, GL_GIVEN},
    {"strided_copy", "ppii", call_strided, 0},
    {"kick_aos", "piff", call_kick_aos, GL_GIVEN},
    {"kick_soa", "ppppppppiff", call_kick_soa, 0},
    {"matrix_add_naive", "pppii", call_add, GL_GIVEN},
    {"matrix_add", "pppii", call_add, 0},
    {NULL, NULL, NULL, 0},
};

void co_copy(const char *name, float *out, const float *in, int n, int stride)
{
    gl_arg a[] = {GL_P(out), GL_P(in), GL_I(n), GL_I(stride)}; /* copy_float takes 3 */
    gl_exec(name, a);
}

void co_kick_aos(struct particle *p, int n, float ex, float dt)
{
    gl_arg a[] = {GL_P(p), GL_I(n), GL_F(ex), GL_F(dt)};
    gl_exec("kick_aos", a);
}

void co_kick_soa(struct particles p, int n, float ex, float dt)
{
    gl_arg a[] = {GL_P(p.x),    GL_P(p.y),      GL_P(p.z), GL_P(p.vx), GL_P(p.vy), GL_P(p.vz),
                  GL_P(p.mass), GL_P(p.charge), GL_I(n),   GL_F(ex),   GL_F(dt)};
    gl_exec("kick_soa", a);
}

void co_matrix_add(const char *name, float *c, const float *a, const float *b, int rows, int cols)
{
    gl_arg args[] = {GL_P(c), GL_P(a), GL_P(b), GL_I(rows), GL_I(cols)};
    gl_exec(name, args);
}

/* ---- what the checks share ---- */

static char why[2048];

static void *grab(size_t bytes)
{
    void *p = malloc(bytes + 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
}

/* A damaged guard of b: the sentence and what usually causes it. */
static int outside(const gl_buf *b, const char *name, const char *hint)
{
    gl_guard_report g;
    char d[512];
    if (!gl_buf_check_guards(b, &g))
        return 0;
    gl_guard_describe(&g, b->bytes, sizeof(float), name, d, sizeof d);
    snprintf(why, sizeof why, "%s: %s", d, hint);
    return 1;
}

/* What the comparison found, then what usually causes it: nothing written,
 * some elements never written (partly), or wrong values. */
static void wrong_values(const gl_cmp *cmp, const char *name, const int *cols,
                         const char *partly, const char *values)
{
    char d[1024];
    gl_cmp_describe(cmp, name, cols ? gl_index_2d : NULL, cols, d, sizeof d);
    snprintf(why, sizeof why, "%s. %s", d,
             cmp->unwritten == cmp->n ? "Is the kernel still a TODO, or is it never launched?"
             : cmp->unwritten && partly ? partly
                                        : values);
}

/* ---- task 1: the copies ---- */

const char *co_copy_check(const char *launcher, const gl_buf *in, const float *h_in,
                          size_t offset, int n, int stride)
{
    size_t i, bytes = (size_t)n * sizeof(float);
    gl_buf out = gl_buf_alloc(bytes, 0);
    float *ref = grab(bytes), *got = grab(bytes);
    gl_cmp cmp;

    why[0] = '\0';
    for (i = 0; i < (size_t)n; i++)
        ref[i] = h_in[offset + i * (size_t)stride];
    gl_buf_poison(&out);
    co_copy(launcher, out.ptr, (const float *)in->ptr + offset, n, stride);
    GL_CHECK_LAUNCH(launcher);
    if (!outside(&out, "out", "test i < n in the kernel (the last block has threads past n)") &&
        !outside(in, "in", "in is read-only input")) {
        gl_buf_download(&out, got);
        if (gl_compare_float(ref, got, (size_t)n, 0.0, 0.0, &cmp))
            wrong_values(&cmp, "out", NULL, NULL,
                         "out[i] is in[i * stride]: is the stride applied to the read, and only "
                         "to the read?");
    }
    gl_buf_free(&out);
    free(ref);
    free(got);
    return why;
}

/* ---- task 2: the kick ---- */

static const char *const field_names[8] = {"x", "y", "z", "vx", "vy", "vz", "mass", "charge"};

void co_kick_ref(float *vx, const float *mass, const float *charge, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        vx[i] += charge[i] / mass[i] * CO_EX * CO_DT;
}

void co_particles_make(gl_rng *rng, int n, float **fields, float **ref)
{
    size_t i, k, len = (size_t)n;
    *fields = grab(8 * len * sizeof(float));
    *ref = grab(8 * len * sizeof(float));
    for (k = 0; k < 8; k++)
        for (i = 0; i < len; i++) /* mass in [0.5, 2): no division by zero */
            (*fields)[k * len + i] =
                k == 6 ? gl_rng_float(rng, 0.5f, 2.0f) : gl_rng_float(rng, -1.0f, 1.0f);
    memcpy(*ref, *fields, 8 * len * sizeof(float));
    co_kick_ref(*ref + 3 * len, *fields + 6 * len, *fields + 7 * len, len);
}

struct particles co_particles_at(float *base, int n)
{
    size_t len = (size_t)n;
    struct particles p = {base,           base + len,     base + 2 * len, base + 3 * len,
                          base + 4 * len, base + 5 * len, base + 6 * len, base + 7 * len};
    return p;
}

/* field k of particle i: fields[k * n + i] and ((float *)&records[i])[k] */
static void interleave(float *fields, struct particle *records, int n, int to_records)
{
    size_t i, k, len = (size_t)n;
    for (k = 0; k < 8; k++)
        for (i = 0; i < len; i++) {
            float *f = (float *)&records[i] + k;
            if (to_records)
                *f = fields[k * len + i];
            else
                fields[k * len + i] = *f;
        }
}

void co_records_from_fields(struct particle *records, const float *fields, int n)
{
    interleave((float *)fields, records, n, 1);
}

const char *co_kick_check(const char *launcher, int n, const float *fields, const float *ref)
{
    int aos = !strcmp(launcher, "kick_aos"), k;
    size_t len = (size_t)n, bytes = 8 * len * sizeof(float);
    gl_buf buf = gl_buf_alloc(bytes, 0);
    float *got = grab(bytes);
    struct particle *rec = aos ? grab(bytes) : NULL;
    gl_cmp cmp;

    why[0] = '\0';
    if (aos) {
        co_records_from_fields(rec, fields, n);
        gl_buf_upload(&buf, rec);
        co_kick_aos(buf.ptr, n, CO_EX, CO_DT);
    } else {
        gl_buf_upload(&buf, fields);
        co_kick_soa(co_particles_at(buf.ptr, n), n, CO_EX, CO_DT);
    }
    GL_CHECK_LAUNCH(launcher);
    if (!outside(&buf, aos ? "the records" : "the particle arrays", "test i < n in the kernel")) {
        if (aos) {
            gl_buf_download(&buf, rec);
            interleave(got, rec, n, 0);
        } else {
            gl_buf_download(&buf, got);
        }
        for (k = 0; k < 8; k++) {
            size_t off = (size_t)k * len;
            if (!gl_compare_float(ref + off, got + off, len, 1e-6, 1e-5, &cmp))
                continue;
            if (k == 3) {
                wrong_values(&cmp, "vx", NULL, NULL,
                             "vx[i] += charge[i] / mass[i] * ex * dt, as in kick_aos_kernel");
            } else {
                char d[1024];
                gl_cmp_describe(&cmp, field_names[k], NULL, NULL, d, sizeof d);
                snprintf(why, sizeof why, "%s changed: %s. Only vx is written", field_names[k],
                         d);
            }
            break;
        }
    }
    gl_buf_free(&buf);
    free(got);
    free(rec);
    return why;
}

/* ---- task 3: the matrix add ---- */

void co_add_make(gl_rng *rng, int rows, int cols, float **a, float **b, float **ref)
{
    size_t i, n = (size_t)rows * cols;
    *a = grab(n * sizeof(float));
    *b = grab(n * sizeof(float));
    *ref = grab(n * sizeof(float));
    gl_fill_float(rng, *a, n, -1.0f, 1.0f);
    gl_fill_float(rng, *b, n, -1.0f, 1.0f);
    for (i = 0; i < n; i++)
        (*ref)[i] = (*a)[i] + (*b)[i];
}

const char *co_add_check(const char *launcher, int rows, int cols, const float *h_a,
                         const float *h_b, const float *ref)
{
    size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
    /* a grid that does not test its bounds writes up to 31 rows or columns too far */
    size_t guard = (size_t)32 * (size_t)(rows > cols ? rows : cols) * sizeof(float) + 4096;
    gl_buf a = gl_buf_alloc(bytes, guard), b = gl_buf_alloc(bytes, guard),
           c = gl_buf_alloc(bytes, guard);
    float *got = grab(bytes);
    gl_cmp cmp;

    why[0] = '\0';
    gl_buf_upload(&a, h_a);
    gl_buf_upload(&b, h_b);
    gl_buf_poison(&c);
    co_matrix_add(launcher, c.ptr, a.ptr, b.ptr, rows, cols);
    GL_CHECK_LAUNCH(launcher);
    if (!outside(&c, "c", "test row < rows and col < cols") &&
        !outside(&a, "a", "a and b are read-only input") &&
        !outside(&b, "b", "a and b are read-only input")) {
        gl_buf_download(&c, got);
        if (gl_compare_float(ref, got, n, 0.0, 0.0, &cmp))
            wrong_values(&cmp, "c", &cols,
                         "Some elements were never written: the grid must cover the columns "
                         "with blockIdx.x and the rows with blockIdx.y (the launcher's grid)",
                         "Element (row, col) is at row * cols + col");
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(got);
    return why;
}

/* ---- the problems the demo and the grader time (lab.h) ---- */

/* The floats a copy's input holds: in[offset + i * stride] for i < n. */
static size_t copy_in_floats(const co_size *z)
{
    return (size_t)z->offset + (z->n ? (size_t)(z->n - 1) * (size_t)z->stride + 1 : 1);
}

/* A copy's input or a matrix in [-1, 1); the particles' every float in [0.5, 2) (a mass is
 * never near 0, in a record or in its array). */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const co_size *z = ctx;
    (void)k;
    if (z->kind == 'm')
        gl_device_fill_float(dst, (size_t)z->rows * z->cols, -1.0f, 1.0f, seed);
    else if (z->kind == 'k')
        gl_device_fill_float(dst, 8 * (size_t)z->n, 0.5f, 2.0f, seed);
    else
        gl_device_fill_float(dst, copy_in_floats(z), -1.0f, 1.0f, seed);
}

/* The particles are kick_aos's records, or kick_soa's 8 arrays of n floats one after the
 * other. */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const co_size *z = ctx;
    if (z->kind == 'm')
        co_matrix_add(launcher, buf[2], buf[0], buf[1], z->rows, z->cols);
    else if (z->kind == 'k' && !strcmp(launcher, "kick_aos"))
        co_kick_aos(buf[0], z->n, CO_EX, CO_DT);
    else if (z->kind == 'k')
        co_kick_soa(co_particles_at(buf[0], z->n), z->n, CO_EX, CO_DT);
    else
        co_copy(launcher, buf[1], (const float *)buf[0] + z->offset, z->n, z->stride);
}

static void problem_copy(void *ctx, void *const *buf)
{
    const co_size *z = ctx;
    gl_device_copy_words_strided(buf[1], 1, (const float *)buf[0] + z->offset,
                                 (size_t)z->stride, (size_t)z->n);
}

/* The arrays kicked by the kit's kick_aos, on records holding their vx, mass and charge. */
static void problem_kick_arrays(void *ctx, void *const *buf)
{
    const co_size *z = ctx;
    size_t n = (size_t)z->n, words = sizeof(struct particle) / sizeof(float);
    gl_buf records = gl_buf_alloc(n * sizeof(struct particle), 0);
    float *r = records.ptr, *f = buf[0];
    gl_device_copy_words_strided(r + 3, words, f + 3 * n, 1, n); /* vx */
    gl_device_copy_words_strided(r + 6, words, f + 6 * n, 1, n); /* mass */
    gl_device_copy_words_strided(r + 7, words, f + 7 * n, 1, n); /* charge */
    co_kick_aos(records.ptr, z->n, CO_EX, CO_DT);
    GL_CHECK_LAUNCH("kick_aos");
    gl_device_copy_words_strided(f + 3 * n, 1, r + 3, words, n);
    gl_buf_free(&records);
}

static gl_problem add_problem(co_size *z)
{
    size_t bytes = (size_t)z->rows * z->cols * sizeof(float);
    gl_problem p = {.inputs = 2, .outputs = 1, .reference = "matrix_add_naive",
                    .work = 3.0 * (double)bytes, .sets = 5};
    snprintf(z->what, sizeof z->what, "on %d x %d", z->rows, z->cols);
    p.buf[0] = (gl_problem_buf){.name = "a", .bytes = bytes, .row = (size_t)z->cols};
    p.buf[1] = (gl_problem_buf){.name = "b", .bytes = bytes, .row = (size_t)z->cols};
    p.buf[2] = (gl_problem_buf){.name = "c", .bytes = bytes, .cmp = GL_CMP_FLOAT,
                                .row = (size_t)z->cols};
    p.hint = "c[row][col] is a[row][col] + b[row][col], each at row * cols + col. Elements never "
             "written: the grid must cover the columns with blockIdx.x and the rows with "
             "blockIdx.y (the launcher's grid); none written: is the kernel still a TODO, or is "
             "it never launched?";
    return p;
}

/* Updated in place: vx kicked, the seven other fields as they were. */
static gl_problem kick_problem(co_size *z, int soa)
{
    gl_problem p = {.outputs = 1, .reference = soa ? NULL : "kick_aos",
                    .reference_fn = soa ? problem_kick_arrays : NULL,
                    .work = 16.0 * z->n /* vx, mass and charge read, vx written */,
                    /* a round's fixed cost (about 0.9 ms on an H100, inferred) spread over 12 of
                     * the SoA's short calls, as the old suite did: over 6 it gave 1.8x to 2.2x
                     * where the kernels differ by 3.5x */
                    .sets = soa ? 12 : 6};
    snprintf(z->what, sizeof z->what, "with n = %d", z->n);
    p.buf[0] = (gl_problem_buf){.name = soa ? "p" : "the records",
                                .bytes = 8 * (size_t)z->n * sizeof(float), .cmp = GL_CMP_FLOAT,
                                .atol = 1e-6, .rtol = 1e-5, .row = soa ? (size_t)z->n : 8,
                                .made = 1};
    if (soa)
        p.hint = "[k][i] is element i of p's array k (x, y, z, vx, vy, vz, mass, charge: vx is "
                 "3). Only vx is written: vx[i] += charge[i] / mass[i] * ex * dt, as in "
                 "kick_aos_kernel (no vx kicked: is the kernel still a TODO, or is it never "
                 "launched?)";
    return p;
}

static gl_problem copy_problem(co_size *z)
{
    gl_problem p = {.inputs = 1, .outputs = 1, .reference_fn = problem_copy,
                    .work = 2.0 * z->n * sizeof(float), .sets = 8};
    if (z->offset)
        snprintf(z->what, sizeof z->what, "with n = %d from in + %d", z->n, z->offset);
    else
        snprintf(z->what, sizeof z->what, "with n = %d, stride = %d", z->n, z->stride);
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = copy_in_floats(z) * sizeof(float)};
    p.buf[1] = (gl_problem_buf){.name = "out", .bytes = (size_t)z->n * sizeof(float)};
    p.hint = "out[i] is in[i * stride]: is the stride applied to the read, and only to the read? "
             "(None written: is the kernel still a TODO, or is it never launched?)";
    return p;
}

gl_problem co_problem(const char *launcher, void *size)
{
    co_size *z = size;
    gl_problem p;
    z->kind = !strncmp(launcher, "matrix_add", 10) ? 'm' : !strncmp(launcher, "kick_", 5) ? 'k'
                                                                                        : 'c';
    if (z->kind == 'c' && (z->stride < 1 || !strcmp(launcher, "copy_float")))
        z->stride = 1; /* copy_float has none */
    p = z->kind == 'm'   ? add_problem(z)
        : z->kind == 'k' ? kick_problem(z, strcmp(launcher, "kick_aos") != 0)
                         : copy_problem(z);
    p.what = z->what;
    p.ctx = z;
    p.make = problem_make;
    p.call = problem_call;
    p.inputs_read_only = 1;
    p.rounds = 5;
    return p;
}
