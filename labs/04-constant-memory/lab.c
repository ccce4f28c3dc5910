/* lab.c: lab 04-constant-memory described once (lab.h): its launchers and its problem (inputs
 * made on the GPU, the constant data set by the setup; the outputs checked against the kit's
 * launcher of the task, or against the CPU with the hint that names the likely mistake). */
#include "lab.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An output is right within CM_REL_TOL of the sum of its terms' magnitudes: FP32 rounding in any
 * order stays far below it (a few 2^-24 of that sum on random data, under 10^-6 of it for
 * Horner's rule or a sum of powers of degree 511), one term missing or too many far above. */
#define CM_REL_TOL 1e-5

typedef void (*set_fn)(const float *data);
typedef void (*set_runtime_fn)(const float *taps, int ntaps);
typedef void (*poly_constant_fn)(float *out, const float *x, int n);
typedef void (*poly_global_fn)(float *out, const float *x, const float *coeffs, int n);
typedef void (*lookup_constant_fn)(float *out, const int *idx, int n);
typedef void (*lookup_global_fn)(float *out, const int *idx, const float *table, int n);
typedef void (*conv_runtime_fn)(float *out, const float *in, int ntaps, int n);
typedef void (*conv_long_fn)(float *out, const float *in, const float *taps, int ntaps, int n);

GL_INVOKER(call_set, set_fn, a, a[0].p)
GL_INVOKER(call_set_runtime, set_runtime_fn, a, a[0].p, (int)a[1].i)
GL_INVOKER(call_poly_constant, poly_constant_fn, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_poly_global, poly_global_fn, a, a[0].p, a[1].p, a[2].p, (int)a[3].i)
GL_INVOKER(call_lookup_constant, lookup_constant_fn, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_lookup_global, lookup_global_fn, a, a[0].p, a[1].p, a[2].p, (int)a[3].i)
GL_INVOKER(call_conv_runtime, conv_runtime_fn, a, a[0].p, a[1].p, (int)a[2].i, (int)a[3].i)
GL_INVOKER(call_conv_long, conv_long_fn, a, a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i)

/* The setters copy host arrays into __constant__ memory and launch nothing. */
#define SETTER (GL_MAY_COPY_SYMBOL | GL_NO_KERNEL_OK)

const gl_launcher LAB_LAUNCHERS[] = {
    {"poly_global", "pppi", call_poly_global, GL_GIVEN},
    {"set_coeffs", "h", call_set, SETTER},
    {"poly_constant", "ppi", call_poly_constant, 0},
    {"set_table_constant", "h", call_set, GL_GIVEN | SETTER},
    {"lookup_constant", "ppi", call_lookup_constant, GL_GIVEN},
    {"lookup_global", "pppi", call_lookup_global, 0},
    {"set_taps_runtime", "hi", call_set_runtime, GL_GIVEN | SETTER},
    {"convolve_constant_runtime", "ppii", call_conv_runtime, GL_GIVEN},
    {"convolve_long", "pppii", call_conv_long, 0},
    {NULL, NULL, NULL, 0},
};

/* Each task's kit launcher (the reference of its problem), the setter of the constant data its
 * constant launcher reads, the names of a call's input and data, and what a wrong output means
 * when no likely mistake explains it. */
static const struct {
    const char *given, *setter, *input, *data, *wrong;
} tasks[] = {
    [CM_POLY] = {"poly_global", "set_coeffs", "x", "coeffs",
                 "Wrong values: out[i] is c[0] + c[1] x[i] + ... + c[%d] x[i]^%d, the "
                 "coefficients from c_coeffs"},
    [CM_LOOKUP] = {"lookup_constant", "set_table_constant", "idx", "table",
                   "Wrong values: out[i] is the sum of table[(idx[i] + k) %% CM_TABLE] for k = 0 "
                   ".. CM_LOOKUPS - 1 (the index wraps around the end of the table)"},
    [CM_CONV] = {"convolve_constant_runtime", "set_taps_runtime", "in", "taps",
                 "Wrong values: out[i] is the sum of taps[k] * in[i + k] for k = 0 .. %d"},
};

/* Calls launcher (z's or its task's given one) with what its layout takes: out, in, then data
 * (device) where it takes it by pointer, ntaps where two ints are left, then n. */
static void run(const char *launcher, const cm_size *z, float *out, const void *in,
                const float *data)
{
    const char *layout = gl_launcher_find(launcher)->layout; /* cm_problem found z's */
    gl_arg a[5] = {GL_P(out), GL_P(in)};
    size_t k = 2;
    if (layout[k] == 'p')
        a[k++] = GL_P(data);
    if (strlen(layout) - k == 2)
        a[k++] = GL_I(z->ntaps);
    a[k++] = GL_I(z->n);
    gl_exec(launcher, a);
}

/* Sets z's constant data from host (data_count floats) by its task's setter. */
static void set_data(const cm_size *z, const float *host)
{
    const char *setter = tasks[z->task].setter;
    gl_arg a[] = {GL_H(host, z->data_count * sizeof(float)), GL_I(z->ntaps)};
    gl_exec(setter, a);
    GL_CHECK_LAUNCH(setter);
}

static void *host_alloc(size_t bytes)
{
    void *host = malloc(bytes + 1);
    if (!host)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return host;
}

/* ---- the problem (common/gl_problem.h) ---- */

/* A polynomial's n points x (with cpu_check), made on the host: in [-1, 1], a quarter within
 * 0.02 of +1 and a quarter within 0.02 of -1, where a missing high coefficient shows. */
static void make_points(float *dst, size_t n, unsigned long long seed)
{
    float *x = host_alloc(n * sizeof(float));
    gl_rng rng;
    size_t i;
    gl_rng_init(&rng, seed, "points");
    for (i = 0; i < n; i++) {
        float u = gl_rng_float(&rng, 0.0f, 1.0f);
        int where = (int)gl_rng_range(&rng, 0, 3);
        x[i] = where == 0 ? 1.0f - 0.02f * u : where == 1 ? -1.0f + 0.02f * u : 2.0f * u - 1.0f;
    }
    GL_CUDA(cudaMemcpy(dst, x, n * sizeof(float), cudaMemcpyHostToDevice));
    free(x);
}

/* Input k of a call: floats in [-1, 1), or a lookup's indices in [0, CM_TABLE), uniform: the
 * warp's first lane's for all 32. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const cm_size *z = ctx;
    int lane;
    if (k == 0 && z->task == CM_POLY && z->cpu_check)
        make_points(dst, (size_t)z->n, seed);
    else if (k > 0 || z->task != CM_LOOKUP)
        gl_device_fill_float(dst, k > 0 ? z->data_count : z->in_count, -1.0f, 1.0f, seed);
    else {
        gl_device_fill_int(dst, (size_t)z->n, 0, CM_TABLE - 1, seed);
        for (lane = 1; z->uniform && lane < 32 && lane < z->n; lane++)
            gl_device_copy_words_strided((int *)dst + lane, 32, dst, 32,
                                         (size_t)(z->n - lane + 31) / 32);
    }
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const cm_size *z = ctx;
    run(launcher, z, buf[1 + z->by_pointer], buf[0], z->by_pointer ? buf[1] : NULL);
}

/* A round's or a check's constant data, drawn from seed, kept for the reference and set
 * before the inputs exist (GRADING.md rule 9); with cpu_check, a polynomial's after another. */
static void problem_setup(void *ctx, const char *launcher, unsigned long long seed)
{
    cm_size *z = ctx;
    gl_rng rng;
    (void)launcher; /* z's, which reads the constant data */
    gl_rng_init(&rng, seed, "perf data");
    gl_fill_float(&rng, z->data, z->data_count, -1.0f, 1.0f);
    if (z->cpu_check && z->task == CM_POLY) {
        gl_fill_float(&rng, z->first, CM_COEFFS, -1.0f, 1.0f);
        set_data(z, z->first);
    }
    set_data(z, z->data);
}

/* A student's outputs by the task's given launcher on the same data (by pointer, or set). */
static void problem_reference(void *ctx, void *const *buf)
{
    cm_size *z = ctx;
    const char *given = tasks[z->task].given;
    size_t bytes = z->data_count * sizeof(float);
    gl_buf coeffs = {0};
    if (z->by_pointer) {
        GL_CUDA(cudaMemcpy(z->data, buf[1], bytes, cudaMemcpyDeviceToHost));
        set_data(z, z->data);
    } else {
        coeffs = gl_buf_alloc(bytes, 0);
        gl_buf_upload(&coeffs, z->data);
    }
    run(given, z, buf[1 + z->by_pointer], buf[0], coeffs.ptr);
    GL_CHECK_LAUNCH(given);
    gl_buf_free(&coeffs);
}

/* ---- with cpu_check: every output against the CPU, in double, and the likely mistake ---- */

/* A call's data on the host, and a polynomial's first set of coefficients (or NULL). */
typedef struct {
    const cm_size *z;
    const float *x, *data, *first;
    const int *idx;
} host_data;

/* Output i in double (a polynomial by Horner's rule), and the sum of its terms' magnitudes. */
static double expected_at(const host_data *d, size_t i, double *magnitude)
{
    double sum = 0.0, mag = 0.0, t;
    int k, task = d->z->task;
    if (task == CM_POLY) /* Horner's rule: sum = sum * x + c[k], from the highest k */
        for (k = CM_COEFFS - 1; k >= 0; k--) {
            sum = sum * d->x[i] + d->data[k];
            mag = mag * fabs((double)d->x[i]) + fabs((double)d->data[k]);
        }
    else
        for (k = 0; k < (task == CM_CONV ? d->z->ntaps : CM_LOOKUPS); k++) {
            t = task == CM_CONV ? (double)d->data[k] * d->x[i + k]
                                : (double)d->data[(d->idx[i] + k) % CM_TABLE];
            sum += t;
            mag += fabs(t);
        }
    *magnitude = mag;
    return sum;
}

/* The likely mistake closest to a wrong output so far: how far, and what it means. */
typedef struct {
    double distance;
    int found;
    char text[512];
} guess;

/* g becomes the mistake whose output would be value, said by fmt, if it is the first or strictly
 * closer to actual (on a tie the earlier stays) */
__attribute__((format(printf, 4, 5))) static void consider(guess *g, double actual,
                                                           double value, const char *fmt, ...)
{
    va_list ap;
    if (g->found && !(fabs(actual - value) < g->distance))
        return;
    g->distance = fabs(actual - value);
    g->found = 1;
    va_start(ap, fmt);
    vsnprintf(g->text, sizeof g->text, fmt, ap);
    va_end(ap);
}

/* The likely mistake that gives a polynomial's or a filter's wrong output w, the closest if it
 * is as close as a right output would be, in the lab's terms; else (and for a lookup) what the
 * output is. Each would give: a sum of only the first k terms, one without the first (c[0], tap
 * 0), a polynomial's loop stopped before k = 0, times x once more, with its coefficients
 * reversed or those of the first set_coeffs, a filter's input read one place too far. */
static const char *likely_mistake(const host_data *d, const gl_diff *w)
{
    static guess closest;
    guess *g = &closest;
    const float *c = d->data, *in = d->x;
    size_t i = w->index;
    double pw[CM_COEFFS], mag, full = expected_at(d, i, &mag), sum = 0.0, stopped = 0.0;
    double reversed = 0.0, first = 0.0, shifted = 0.0, a = w->actual;
    int k, last = CM_COEFFS - 1, ntaps = d->z->ntaps;

    g->found = 0;
    if (d->z->task == CM_CONV) { /* without tap 0 first: at 1 tap it ties with no tap */
        consider(g, a, full - (double)c[0] * in[i],
                 "out[%zu] leaves out the term of tap 0: does k start at 0?", i);
        for (k = 0; k < ntaps; k++) {
            consider(g, a, sum, "out[%zu] is the sum of only the first %d of the %d taps: does "
                     "the loop run to ntaps, whatever its value?", i, k, ntaps);
            sum += (double)c[k] * in[i + k];
            if (i + k + 1 < d->z->in_count) /* within in, for the last i */
                shifted += (double)c[k] * in[i + k + 1];
        }
        consider(g, a, shifted, "out[%zu] is the sum over in[%zu + 1 + k]: the input is read "
                 "one place too far", i, i);
    } else if (d->z->task == CM_POLY) {
        for (k = 0; k < CM_COEFFS; k++)
            pw[k] = k ? pw[k - 1] * d->x[i] : 1.0; /* x^k */
        for (k = 0; k < CM_COEFFS; k++) {
            if (k == 0)
                consider(g, a, sum, "out[%zu] is 0, as if c_coeffs held only zeros: does "
                         "set_coeffs copy the coefficients into c_coeffs, and does the kernel "
                         "read them from there?", i);
            else if (k == last)
                consider(g, a, sum, "out[%zu] leaves out the highest term, c[%d] x^%d: Horner's "
                         "rule starts from acc = c_coeffs[CM_COEFFS - 1] (then k from CM_COEFFS "
                         "- 2 down to 0)", i, last, last);
            else
                consider(g, a, sum, "out[%zu] is the polynomial of only its first %d of the %d "
                         "coefficients, c[0] .. c[%d]: did set_coeffs copy all CM_COEFFS * "
                         "sizeof(float) bytes? (sizeof(coeffs) is the size of a pointer, 2 "
                         "floats)", i, k, CM_COEFFS, k - 1);
            sum += (double)c[k] * pw[k];
            stopped += k ? (double)c[k] * pw[k - 1] : 0.0;
            reversed += (double)c[k] * pw[last - k];
            first += d->first ? (double)d->first[k] * pw[k] : 0.0;
        }
        consider(g, a, full - c[0], "out[%zu] leaves out c[0], the constant term: every c[k] "
                 "from k = 0 counts", i);
        consider(g, a, stopped, "out[%zu] is c[1] + c[2] x + ... + c[%d] x^%d: the loop stops "
                 "before k = 0, so c[0] is never added and every other term is one power of x "
                 "short: run it down to k = 0 (k >= 0)", i, last, last - 1);
        consider(g, a, full * d->x[i], "out[%zu] is x[%zu] times the polynomial: one "
                 "multiplication by x too many (each step is acc = acc * x + c[k], the last one "
                 "adds c[0])", i, i);
        consider(g, a, reversed, "out[%zu] has the coefficients in reverse order: c[k] goes "
                 "with x^k, so Horner's rule starts from the highest, acc = c_coeffs[CM_COEFFS "
                 "- 1], and adds c_coeffs[k] for k going down to 0", i);
        if (d->first)
            consider(g, a, first, "out[%zu] is the polynomial of the coefficients given to the "
                     "first of two set_coeffs in a row, not to the last: each set_coeffs must "
                     "copy its coefficients into c_coeffs", i);
    }
    if (g->found && g->distance <= CM_REL_TOL * mag + 1e-30)
        return g->text;
    snprintf(g->text, sizeof g->text, tasks[d->z->task].wrong,
             d->z->task == CM_POLY ? last : ntaps - 1, last);
    return g->text;
}

/* What the wrong outputs c found most likely mean, in the lab's terms: nothing or part
 * written, or the mistake that gives the first written wrong one. */
static const char *hint(const gl_cmp *c, const host_data *d)
{
    const gl_diff *w = NULL;
    int k;
    for (k = 0; k < c->shown && !w; k++)
        if (!c->diff[k].unwritten)
            w = &c->diff[k];
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (!w || (c->unwritten && d->z->task == CM_LOOKUP))
        return "Some outputs were never written: does every thread i < n write out[i]?";
    return likely_mistake(d, w);
}

/* The problem's verify: every output within CM_REL_TOL of its terms' magnitudes of the CPU's. */
static const char *verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const cm_size *z = ctx;
    size_t n = (size_t)z->n, i;
    float *in = host_alloc((z->in_count + z->data_count + 3 * n) * sizeof(float));
    float *data = in + z->in_count, *out = data + z->data_count, *expected = out + n;
    float *bound = expected + n;
    host_data d = {.z = z, .x = in, .idx = (const int *)in, .data = z->data,
                   .first = z->task == CM_POLY && !z->by_pointer ? z->first : NULL};
    double magnitude;
    char described[1024];
    gl_cmp cmp;

    (void)seed; /* every output is checked */
    GL_CUDA(cudaMemcpy(in, buf[0], z->in_count * 4, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(out, buf[1 + z->by_pointer], n * 4, cudaMemcpyDeviceToHost));
    if (z->by_pointer) {
        GL_CUDA(cudaMemcpy(data, buf[1], z->data_count * 4, cudaMemcpyDeviceToHost));
        d.data = data;
    }
    for (i = 0; i < n; i++) {
        expected[i] = (float)expected_at(&d, i, &magnitude);
        bound[i] = (float)(CM_REL_TOL * magnitude + 1e-30);
    }
    why[0] = '\0';
    if (gl_compare_float_bound(expected, out, bound, n, &cmp)) {
        gl_cmp_describe(&cmp, "out", NULL, NULL, described, sizeof described);
        snprintf(why, sizeof why, "%s. %s", described, hint(&cmp, &d));
    }
    free(in);
    return why;
}

gl_problem cm_problem(const char *launcher, void *size)
{
    cm_size *z = size;
    const gl_launcher *l = gl_launcher_find(launcher);
    int given = l && (l->flags & GL_GIVEN);
    int poly = !strncmp(launcher, "poly_", 5), lookup = !strncmp(launcher, "lookup_", 7);
    int task = poly ? CM_POLY : lookup ? CM_LOOKUP : CM_CONV;
    /* a right output's terms' magnitudes at their largest, on these data: a half per
     * coefficient (at |x| = 1) or table read, a quarter per tap */
    double magnitude = poly ? 0.5 * CM_COEFFS : lookup ? 0.5 * CM_LOOKUPS : 0.25 * z->ntaps;
    gl_problem p = {.what = z->what, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call, .inputs_read_only = 1, .sets = 8, .rounds = 5};

    if (!l)
        gl_fail("no launcher %s in lab 04 (a bug of the kit)", launcher);
    /* the kit's constant filter (and z->data) holds CM_MAX_CONST_TAPS taps */
    if (!poly && !lookup &&
        (z->ntaps < 1 || (z->ntaps > CM_MAX_CONST_TAPS && (given || !z->cpu_check))))
        gl_fail("lab 04's problem of %s with %d taps: 1 to %d (a bug of the kit)", launcher,
                z->ntaps, CM_MAX_CONST_TAPS);
    z->task = task;
    z->by_pointer = l->layout[2] == 'p'; /* a 'p' after out and in */
    z->in_count = (size_t)z->n + (task == CM_CONV ? (size_t)z->ntaps - 1 : 0);
    z->data_count = poly ? CM_COEFFS : lookup ? CM_TABLE : (size_t)z->ntaps;
    p.inputs = 1 + z->by_pointer;
    p.setup = z->by_pointer ? NULL : problem_setup;
    /* the kit's own launcher is its own reference; with cpu_check, the CPU is */
    p.reference = given && !z->cpu_check ? launcher : NULL;
    p.reference_fn = given || z->cpu_check ? NULL : problem_reference;
    p.verify = z->cpu_check ? verify : NULL;
    p.baseline_sets = lookup ? 4 : 0; /* lookup_constant, random: 25 ms a call (H100) */
    p.work = (double)z->n * (poly ? 2.0 * CM_COEFFS : lookup ? CM_LOOKUPS : 2.0 * z->ntaps);
    p.unit = "Gop/s"; /* work counts operations (flops, table reads), not bytes */
    if (p.setup && !given)
        p.hint = "every call must compute the whole output from its own input and the "
                 "coefficients of the last set_coeffs (fresh constant data every round)";
    if (poly)
        snprintf(z->what, sizeof z->what, "at n = %d%s", z->n,
                 z->cpu_check && p.setup ? ", after set_coeffs twice (the second set counts)"
                                         : "");
    else if (lookup)
        snprintf(z->what, sizeof z->what, "at n = %d with %s", z->n,
                 z->uniform ? "uniform indices (one per warp)" : "random indices");
    else
        snprintf(z->what, sizeof z->what, "at n = %d with %d tap%s", z->n, z->ntaps,
                 z->ntaps == 1 ? "" : "s");
    /* floats and ints, 4 bytes; the guards' 4096 bytes hold the last block's 255 threads */
    p.buf[0] = (gl_problem_buf){.name = tasks[task].input, .bytes = z->in_count * 4,
                                .outside = "the inputs are read-only"};
    p.buf[1] = (gl_problem_buf){.name = tasks[task].data, .bytes = z->data_count * 4,
                                .outside = "the inputs are read-only"};
    p.buf[p.inputs] = (gl_problem_buf){
        .name = "out", .bytes = (size_t)z->n * 4, .cmp = GL_CMP_FLOAT,
        .atol = CM_REL_TOL * magnitude,
        .outside = "test i < n in the kernel (the last block has threads past n)"};
    return p;
}
