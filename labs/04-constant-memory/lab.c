/* lab.c: lab 04-constant-memory described once (lab.h): its launchers; the correctness check
 * (data drawn on the host, every output against the CPU in double, the hints); its problems
 * (data made on the GPU, the constant data set by the setup, the kit's reference); and the
 * demo's table over them. */
#include "lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each calls a launcher of one signature with its unpacked arguments (gl_exec.h). */
static long long call_set(void *fn, const gl_arg *a)
{
    ((void (*)(const float *))fn)(a[0].p);
    return 0;
}

static long long call_set_runtime(void *fn, const gl_arg *a)
{
    ((void (*)(const float *, int))fn)(a[0].p, (int)a[1].i);
    return 0;
}

static long long call_poly_constant(void *fn, const gl_arg *a)
{
    ((void (*)(float *, const float *, int))fn)(a[0].p, a[1].p, (int)a[2].i);
    return 0;
}

static long long call_poly_global(void *fn, const gl_arg *a)
{
    ((void (*)(float *, const float *, const float *, int))fn)(a[0].p, a[1].p, a[2].p,
                                                              (int)a[3].i);
    return 0;
}

static long long call_conv_runtime(void *fn, const gl_arg *a)
{
    ((void (*)(float *, const float *, int, int))fn)(a[0].p, a[1].p, (int)a[2].i, (int)a[3].i);
    return 0;
}

static long long call_conv_long(void *fn, const gl_arg *a)
{
    ((void (*)(float *, const float *, const float *, int, int))fn)(a[0].p, a[1].p, a[2].p,
                                                                   (int)a[3].i, (int)a[4].i);
    return 0;
}

static long long call_lookup_constant(void *fn, const gl_arg *a)
{
    ((void (*)(float *, const int *, int))fn)(a[0].p, a[1].p, (int)a[2].i);
    return 0;
}

static long long call_lookup_global(void *fn, const gl_arg *a)
{
    ((void (*)(float *, const int *, const float *, int))fn)(a[0].p, a[1].p, a[2].p,
                                                            (int)a[3].i);
    return 0;
}

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

/* The lab's three tasks, by the launcher's name. */
enum { POLY, LOOKUP, CONV };

static int task_of(const char *launcher)
{
    return !strncmp(launcher, "poly_", 5) ? POLY : !strncmp(launcher, "lookup_", 7) ? LOOKUP : CONV;
}

static const gl_launcher *find(const char *launcher)
{
    const gl_launcher *l = gl_launcher_find(launcher);
    if (!l)
        gl_fail("no launcher %s in lab 04 (a bug of the kit)", launcher);
    return l;
}

/* Calls launcher with the arguments its layout takes of these: out, in (x, the filter's
 * input or idx), then data (the coefficients, taps or table: device) where it takes them by
 * pointer ('p'), then ntaps where its length is a run-time one (two 'i' left), then n. */
static void run(const char *launcher, float *out, const void *in, const float *data, int ntaps,
                int n)
{
    const char *layout = find(launcher)->layout;
    gl_arg a[5];
    size_t k = 0;
    a[k++] = GL_P(out);
    a[k++] = GL_P(in);
    if (layout[k] == 'p')
        a[k++] = GL_P(data);
    if (strlen(layout) - k == 2)
        a[k++] = GL_I(ntaps);
    a[k++] = GL_I(n);
    gl_exec(launcher, a);
}

/* Elements of a call's input (x, the filter's input: n + ntaps - 1, or idx) and of its
 * coefficients, taps or table. */
static size_t input_count(int task, int n, int ntaps)
{
    return (size_t)n + (task == CONV ? (size_t)ntaps - 1 : 0);
}

static size_t data_count(int task, int ntaps)
{
    return task == POLY ? CM_COEFFS : task == LOOKUP ? CM_TABLE : (size_t)ntaps;
}

/* The setter of the constant data that launcher reads, or NULL. */
static const char *setter_of(const char *launcher)
{
    return !strcmp(launcher, "poly_constant")               ? "set_coeffs"
           : !strcmp(launcher, "convolve_constant_runtime") ? "set_taps_runtime"
           : !strcmp(launcher, "lookup_constant")           ? "set_table_constant"
                                                            : NULL;
}

/* Calls launcher's setter, if it has one, with a host array: CM_COEFFS coefficients, ntaps
 * taps or CM_TABLE floats of table. */
static void set_for(const char *launcher, const float *host, int ntaps)
{
    const char *setter = setter_of(launcher);
    gl_arg a[2];
    if (!setter)
        return;
    a[0] = GL_H(host, data_count(task_of(launcher), ntaps) * sizeof(float));
    a[1] = GL_I(ntaps);
    gl_exec(setter, a);
    GL_CHECK_LAUNCH(setter);
}

/* ---- the correctness check: data drawn on the host, every output against the CPU ---- */

/* A check's data (host): x or the filter's input (or idx), the coefficients, taps or table,
 * and a polynomial's first set of coefficients, set before the right ones. */
typedef struct {
    int task, n, ntaps;
    size_t in_count, data_count;
    float *x, *data, *first;
    int *idx;
} host_data;

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes + 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
}

/* Draws d's data from rng. A polynomial's points are in [-1, 1], a quarter of them within
 * 0.02 of +1 and a quarter within 0.02 of -1, where the high powers weigh: there a missing
 * high coefficient shows. A lookup's indices are in [0, CM_TABLE), one per warp (uniform) or
 * one per lane. */
static void draw(gl_rng *rng, host_data *d, int uniform)
{
    int i, v = 0;
    d->in_count = input_count(d->task, d->n, d->ntaps);
    d->data_count = data_count(d->task, d->ntaps);
    d->data = host_alloc(d->data_count * sizeof(float));
    if (d->task == CONV) { /* the input, then the taps */
        d->x = host_alloc(d->in_count * sizeof(float));
        gl_fill_float(rng, d->x, d->in_count, -1.0f, 1.0f);
        gl_fill_float(rng, d->data, d->data_count, -1.0f, 1.0f);
        return;
    }
    gl_fill_float(rng, d->data, d->data_count, -1.0f, 1.0f); /* the coefficients or table */
    if (d->task == LOOKUP) {
        d->idx = host_alloc(d->in_count * sizeof(int));
        for (i = 0; i < d->n; i++) {
            if (!uniform || i % 32 == 0) /* uniform: one index for the 32 lanes of a warp */
                v = (int)gl_rng_range(rng, 0, CM_TABLE - 1);
            d->idx[i] = v;
        }
        return;
    }
    d->x = host_alloc(d->in_count * sizeof(float));
    for (i = 0; i < d->n; i++) {
        float u = gl_rng_float(rng, 0.0f, 1.0f);
        int where = (int)gl_rng_range(rng, 0, 3);
        d->x[i] = where == 0 ? 1.0f - 0.02f * u : where == 1 ? -1.0f + 0.02f * u : 2.0f * u - 1.0f;
    }
    d->first = host_alloc(CM_COEFFS * sizeof(float));
    gl_fill_float(rng, d->first, CM_COEFFS, -1.0f, 1.0f);
}

/* c[0] + c[1] x + ... + c[CM_COEFFS - 1] x^(CM_COEFFS - 1) by Horner's rule,
 * in double, and the sum of the magnitudes of its terms, |c[k]| |x|^k */
static double poly_at(const float *coeffs, float x, double *magnitude)
{
    double acc = coeffs[CM_COEFFS - 1], mag = fabs((double)coeffs[CM_COEFFS - 1]);
    int k;
    for (k = CM_COEFFS - 2; k >= 0; k--) {
        acc = acc * x + coeffs[k];
        mag = mag * fabs((double)x) + fabs((double)coeffs[k]);
    }
    *magnitude = mag;
    return acc;
}

/* Output i as the CPU computes it, in double, and the sum of the magnitudes of its terms:
 * taps[k] * in[i + k] for k < ntaps, or table[(idx[i] + k) % CM_TABLE] for k < CM_LOOKUPS. */
static double expected_at(const host_data *d, size_t i, double *magnitude)
{
    double sum = 0.0, mag = 0.0, t;
    int k;
    if (d->task == POLY)
        return poly_at(d->data, d->x[i], magnitude);
    for (k = 0; k < (d->task == CONV ? d->ntaps : CM_LOOKUPS); k++) {
        t = d->task == CONV ? (double)d->data[k] * d->x[i + k]
                            : (double)d->data[(d->idx[i] + k) % CM_TABLE];
        sum += t;
        mag += fabs(t);
    }
    *magnitude = mag;
    return sum;
}

static int is_poison(float x)
{
    unsigned char b[sizeof x];
    size_t i;
    memcpy(b, &x, sizeof x);
    for (i = 0; i < sizeof x; i++)
        if (b[i] != GL_POISON_BYTE)
            return 0;
    return 1;
}

/* Every output against the CPU's, within CM_REL_TOL of its terms' magnitudes. */
static size_t compare(const host_data *d, const float *out, gl_cmp *c)
{
    size_t i;
    memset(c, 0, sizeof *c);
    for (i = 0; i < (size_t)d->n; i++) {
        double mag, ref = expected_at(d, i, &mag), err = fabs((double)out[i] - ref);
        int unwritten = is_poison(out[i]);
        c->n++;
        if (unwritten || isnan(out[i]) || !(err <= CM_REL_TOL * mag + 1e-30)) {
            c->wrong++;
            c->unwritten += unwritten;
            if (c->shown < GL_CMP_SHOW)
                c->diff[c->shown++] = (gl_diff){i, ref, out[i], unwritten};
        } else if (err > c->max_abs_err) {
            c->max_abs_err = err;
        }
    }
    return c->wrong;
}

/* ---- hints ---- */

/* The first written output among the wrong ones shown, or NULL; a hint for
 * outputs never written in *none (NULL when some were written). */
static const gl_diff *first_written(const gl_cmp *c, const char **none)
{
    int k;
    *none = NULL;
    if (c->unwritten == c->n) {
        *none = "Is the kernel still a TODO, or is it never launched?";
        return NULL;
    }
    for (k = 0; k < c->shown; k++)
        if (!c->diff[k].unwritten)
            return &c->diff[k];
    *none = "Some outputs were never written: does every thread i < n write out[i]?";
    return NULL;
}

/* What usually causes a wrong polynomial, in the lab's terms: the first wrong
 * output is compared with what each mistake would give (the polynomial of
 * only its first m coefficients, without c[0], with the loop stopped before
 * k = 0, times x once more, with the coefficients reversed, with those of the
 * first set_coeffs); the closest of them, if it is as close as a right output
 * would be, names the mistake. */
static const char *poly_hint(const gl_cmp *c, const host_data *d)
{
    enum { PARTIAL, NO_C0, STOPPED, TIMES_X, REVERSED, FIRST_SET, NONE };
    static char hint[512];
    const float *coeffs = d->data;
    double pw[CM_COEFFS], mag, full, got, partial = 0.0, stopped = 0.0, reversed = 0.0,
           old = 0.0, best = -1.0, cand[NONE];
    const char *none;
    const gl_diff *w = first_written(c, &none);
    size_t i;
    int k, m, best_m = 0, best_what = NONE;

    if (!w)
        return none;
    i = w->index;
    got = w->actual;
    full = poly_at(coeffs, d->x[i], &mag);
    pw[0] = 1.0;
    for (k = 1; k < CM_COEFFS; k++)
        pw[k] = pw[k - 1] * d->x[i];
    for (k = 0; k < CM_COEFFS; k++) {
        if (k >= 1)
            stopped += (double)coeffs[k] * pw[k - 1];
        reversed += (double)coeffs[k] * pw[CM_COEFFS - 1 - k];
        old += (double)d->first[k] * pw[k];
    }
    cand[NO_C0] = full - coeffs[0];
    cand[STOPPED] = stopped;
    cand[TIMES_X] = full * d->x[i];
    cand[REVERSED] = reversed;
    cand[FIRST_SET] = old;
    for (m = 0; m < CM_COEFFS; m++) { /* the first m coefficients only */
        if (best < 0.0 || fabs(got - partial) < best) {
            best = fabs(got - partial);
            best_m = m;
            best_what = PARTIAL;
        }
        partial += (double)coeffs[m] * pw[m];
    }
    for (k = NO_C0; k < NONE; k++)
        if (fabs(got - cand[k]) < best) {
            best = fabs(got - cand[k]);
            best_what = k;
        }
    if (best > CM_REL_TOL * mag + 1e-30)
        best_what = NONE;
    switch (best_what) {
    case PARTIAL:
        if (best_m == 0)
            snprintf(hint, sizeof hint, "out[%zu] is 0, as if c_coeffs held only zeros: does "
                     "set_coeffs copy the coefficients into c_coeffs, and does the kernel read "
                     "them from there?", i);
        else if (best_m == CM_COEFFS - 1)
            snprintf(hint, sizeof hint, "out[%zu] leaves out the highest term, c[%d] x^%d: "
                     "Horner's rule starts from acc = c_coeffs[CM_COEFFS - 1] (then k from "
                     "CM_COEFFS - 2 down to 0)", i, CM_COEFFS - 1, CM_COEFFS - 1);
        else
            snprintf(hint, sizeof hint, "out[%zu] is the polynomial of only its first %d of "
                     "the %d coefficients, c[0] .. c[%d]: did set_coeffs copy all CM_COEFFS * "
                     "sizeof(float) bytes? (sizeof(coeffs) is the size of a pointer, 2 floats)",
                     i, best_m, CM_COEFFS, best_m - 1);
        break;
    case NO_C0:
        snprintf(hint, sizeof hint, "out[%zu] leaves out c[0], the constant term: every "
                 "c[k] from k = 0 counts", i);
        break;
    case STOPPED:
        snprintf(hint, sizeof hint, "out[%zu] is c[1] + c[2] x + ... + c[%d] x^%d: the loop "
                 "stops before k = 0, so c[0] is never added and every other term is one power "
                 "of x short: run it down to k = 0 (k >= 0)", i, CM_COEFFS - 1, CM_COEFFS - 2);
        break;
    case TIMES_X:
        snprintf(hint, sizeof hint, "out[%zu] is x[%zu] times the polynomial: one "
                 "multiplication by x too many (each step is acc = acc * x + c[k], the last "
                 "one adds c[0])", i, i);
        break;
    case REVERSED:
        snprintf(hint, sizeof hint, "out[%zu] has the coefficients in reverse order: c[k] "
                 "goes with x^k, so Horner's rule starts from the highest, acc = "
                 "c_coeffs[CM_COEFFS - 1], and adds c_coeffs[k] for k going down to 0", i);
        break;
    case FIRST_SET:
        snprintf(hint, sizeof hint, "out[%zu] is the polynomial of the coefficients given to "
                 "the first of two set_coeffs in a row, not to the last: each set_coeffs must "
                 "copy its coefficients into c_coeffs", i);
        break;
    default:
        snprintf(hint, sizeof hint, "Wrong values: out[i] is c[0] + c[1] x[i] + ... + c[%d] "
                 "x[i]^%d, the coefficients from c_coeffs", CM_COEFFS - 1, CM_COEFFS - 1);
    }
    return hint;
}

/* What usually causes a wrong convolution, in the lab's terms: the first
 * wrong output is compared with the sums of the first m taps, the sum
 * without tap 0 and the sum over the input one place further; the closest
 * of them, if it is as close as a right output would be, names the mistake. */
static const char *conv_hint(const gl_cmp *c, const host_data *d)
{
    static char hint[512];
    const float *in = d->x, *taps = d->data;
    const char *none;
    const gl_diff *w = first_written(c, &none);
    double mag, full, partial = 0.0, shifted = 0.0, best, diff;
    size_t i;
    int k, m, best_m = -1;

    if (!w)
        return none;
    i = w->index;
    full = expected_at(d, i, &mag);
    for (k = 0; k < d->ntaps && i + k + 1 < d->in_count; k++) /* within in, for the last i */
        shifted += (double)taps[k] * in[i + k + 1];
    best = fabs(w->actual - (full - (double)taps[0] * in[i])); /* m = -1: without tap 0 */
    for (m = 0; m < d->ntaps; m++) {
        if ((diff = fabs(w->actual - partial)) < best) {
            best = diff;
            best_m = m;
        }
        partial += (double)taps[m] * in[i + m];
    }
    if (fabs(w->actual - shifted) < best && fabs(w->actual - shifted) <= CM_REL_TOL * mag)
        snprintf(hint, sizeof hint, "out[%zu] is the sum over in[%zu + 1 + k]: the input is "
                 "read one place too far", i, i);
    else if (best > CM_REL_TOL * mag + 1e-30)
        snprintf(hint, sizeof hint, "Wrong values: out[i] is the sum of taps[k] * in[i + k] for "
                 "k = 0 .. %d", d->ntaps - 1);
    else if (best_m < 0)
        snprintf(hint, sizeof hint, "out[%zu] leaves out the term of tap 0: does k start at 0?",
                 i);
    else
        snprintf(hint, sizeof hint, "out[%zu] is the sum of only the first %d of the %d taps: "
                 "does the loop run to ntaps, whatever its value?", i, best_m, d->ntaps);
    return hint;
}

static const char *lookup_hint(const gl_cmp *c)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (c->unwritten)
        return "Some outputs were never written: does every thread i < n write out[i]?";
    return "Wrong values: out[i] is the sum of table[(idx[i] + k) % CM_TABLE] for k = 0 .. "
           "CM_LOOKUPS - 1 (the index wraps around the end of the table)";
}

/* ---- the check ---- */

/* Writes into why what is wrong with out's guards (b[2]) or with the read-only inputs (b[0],
 * b[1]: their host copies in host, their names for the student in names). Returns 1 if
 * something is. */
static int damaged(const gl_buf *b, const void *const *host, const char *const *names,
                   char *why, size_t len)
{
    gl_guard_report g;
    int k;
    if (gl_buf_check_guards(&b[2], &g)) {
        char d[512];
        gl_guard_describe(&g, b[2].bytes, sizeof(float), "out", d, sizeof d);
        snprintf(why, len, "%s: test i < n in the kernel (the last block has threads past n)",
                 d);
        return 1;
    }
    for (k = 0; k < 2; k++) {
        unsigned char *back = host_alloc(b[k].bytes);
        int changed;
        gl_buf_download(&b[k], back);
        changed = gl_buf_check_guards(&b[k], &g) || memcmp(back, host[k], b[k].bytes) != 0;
        free(back);
        if (changed) {
            snprintf(why, len, "wrote into or beside an input (%s), which is read-only",
                     names[k]);
            return 1;
        }
    }
    return 0;
}

const char *cm_check(const char *launcher, gl_rng *rng, int n, int ntaps, int uniform)
{
    static const char *const names[][2] = {{"x", "coeffs"}, {"idx", "table"}, {"in", "taps"}};
    static char why[2048];
    char d_cmp[1024];
    host_data d = {.task = task_of(launcher), .n = n, .ntaps = ntaps};
    const void *host[2];
    float *out;
    gl_buf b[3];
    gl_cmp cmp;
    int k;

    draw(rng, &d, uniform);
    host[0] = d.task == LOOKUP ? (const void *)d.idx : (const void *)d.x;
    host[1] = d.data;
    b[0] = gl_buf_alloc(d.in_count * 4, 0); /* floats, or ints */
    b[1] = gl_buf_alloc(d.data_count * sizeof(float), 0);
    b[2] = gl_buf_alloc((size_t)n * sizeof(float), 0);
    out = host_alloc((size_t)n * sizeof(float));
    gl_buf_upload(&b[0], host[0]);
    gl_buf_upload(&b[1], host[1]);
    if (d.first)
        set_for(launcher, d.first, ntaps);
    set_for(launcher, d.data, ntaps);
    gl_buf_poison(&b[2]);
    run(launcher, b[2].ptr, b[0].ptr, b[1].ptr, ntaps, n);
    GL_CHECK_LAUNCH(launcher);
    why[0] = '\0';
    if (!damaged(b, host, names[d.task], why, sizeof why)) {
        gl_buf_download(&b[2], out);
        if (compare(&d, out, &cmp)) {
            gl_cmp_describe(&cmp, "out", NULL, NULL, d_cmp, sizeof d_cmp);
            snprintf(why, sizeof why, "%s. %s", d_cmp,
                     d.task == POLY ? poly_hint(&cmp, &d)
                     : d.task == CONV ? conv_hint(&cmp, &d) : lookup_hint(&cmp));
        }
    }
    for (k = 0; k < 3; k++)
        gl_buf_free(&b[k]);
    free(out);
    free(d.x);
    free(d.data);
    free(d.first);
    free(d.idx);
    return why;
}

/* ---- the problem (common/gl_problem.h): data made on the GPU, the kit's reference ---- */

/* The kit's launcher of launcher's task: the reference of its problem. */
static const char *given_of(const char *launcher)
{
    static const char *const given[] = {"poly_global", "lookup_constant",
                                        "convolve_constant_runtime"};
    return given[task_of(launcher)];
}

/* Does launcher take the coefficients, taps or table by pointer (a 'p' after out and in)? */
static int takes_data(const char *launcher)
{
    return find(launcher)->layout[2] == 'p';
}

/* Elements of the input and of the data of z's calls. */
static size_t z_input(const cm_size *z)
{
    return input_count(task_of(z->launcher), z->n, z->ntaps);
}

static size_t z_data(const cm_size *z)
{
    return data_count(task_of(z->launcher), z->ntaps);
}

/* Input k of a call, on the GPU from seed: in [-1, 1), or a lookup's indices in
 * [0, CM_TABLE), each lane's own or, uniform, the warp's first lane's for all 32. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const cm_size *z = ctx;
    int lane;
    if (k > 0 || task_of(z->launcher) != LOOKUP) {
        gl_device_fill_float(dst, k > 0 ? z_data(z) : z_input(z), -1.0f, 1.0f, seed);
        return;
    }
    gl_device_fill_int(dst, (size_t)z->n, 0, CM_TABLE - 1, seed);
    for (lane = 1; z->uniform && lane < 32 && lane < z->n; lane++)
        gl_device_copy_words_strided((int *)dst + lane, 32, dst, 32,
                                     (size_t)(z->n - lane + 31) / 32);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const cm_size *z = ctx;
    int data = takes_data(z->launcher);
    run(launcher, buf[1 + data], buf[0], data ? buf[1] : NULL, z->ntaps, z->n);
}

/* The constant data of a round or a check: drawn from seed, kept for the reference, set in
 * the process that runs the launcher (before the inputs exist: GRADING.md rule 9). */
static void problem_setup(void *ctx, const char *launcher, unsigned long long seed)
{
    cm_size *z = ctx;
    gl_rng rng;
    gl_rng_init(&rng, seed, "perf data");
    gl_fill_float(&rng, z->data, z_data(z), -1.0f, 1.0f);
    set_for(launcher, z->data, z->ntaps);
}

/* A student's outputs by the given launcher of the task, on the same data: poly_global on
 * the coefficients the setup set, or the constant lookup or filter on the call's table or
 * taps, copied into its constant memory. */
static void problem_reference(void *ctx, void *const *buf)
{
    cm_size *z = ctx;
    const char *given = given_of(z->launcher);
    size_t bytes = z_data(z) * sizeof(float);
    int data = takes_data(z->launcher);
    gl_buf coeffs = {0};
    if (data) {
        GL_CUDA(cudaMemcpy(z->data, buf[1], bytes, cudaMemcpyDeviceToHost));
        set_for(given, z->data, z->ntaps);
    } else {
        coeffs = gl_buf_alloc(bytes, 0);
        gl_buf_upload(&coeffs, z->data);
    }
    run(given, buf[1 + data], buf[0], coeffs.ptr, z->ntaps, z->n);
    GL_CHECK_LAUNCH(given);
    gl_buf_free(&coeffs);
}

gl_problem cm_problem(const char *launcher, void *size)
{
    cm_size *z = size;
    int poly = task_of(launcher) == POLY, lookup = task_of(launcher) == LOOKUP, given, data;
    /* a right output's terms' magnitudes at their largest, on these data: a half per
     * coefficient (at |x| = 1) or table read, a quarter per tap */
    double magnitude = poly ? 0.5 * CM_COEFFS : lookup ? 0.5 * CM_LOOKUPS : 0.25 * z->ntaps;
    gl_problem p = {.what = z->what, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call, .inputs_read_only = 1, .sets = 8, .rounds = 5};

    if (!poly && !lookup && (z->ntaps < 1 || z->ntaps > CM_MAX_CONST_TAPS))
        gl_fail("lab 04's problem of %s with %d taps: 1 to %d (a bug of the kit)", launcher,
                z->ntaps, CM_MAX_CONST_TAPS);
    z->launcher = launcher;
    given = find(launcher)->flags & GL_GIVEN;
    data = takes_data(launcher);
    p.inputs = 1 + data;
    p.setup = setter_of(launcher) ? problem_setup : NULL;
    p.reference = given ? launcher : NULL; /* the kit's own is its own reference */
    p.reference_fn = given ? NULL : problem_reference;
    p.baseline_sets = lookup ? 4 : 0; /* lookup_constant, random: 25 ms a call (H100) */
    p.work = (double)z->n * (poly ? 2.0 * CM_COEFFS : lookup ? CM_LOOKUPS : 2.0 * z->ntaps);
    if (p.setup && !given)
        p.hint = "every call must compute the whole output from its own input and the "
                 "coefficients of the last set_coeffs (fresh constant data every round)";
    if (poly)
        snprintf(z->what, sizeof z->what, "at n = %d", z->n);
    else if (lookup)
        snprintf(z->what, sizeof z->what, "at n = %d with %s indices", z->n,
                 z->uniform ? "uniform" : "random");
    else
        snprintf(z->what, sizeof z->what, "at n = %d with %d taps", z->n, z->ntaps);
    /* x and the taps, the table and out are floats, idx ints: 4 bytes each */
    p.buf[0] = (gl_problem_buf){.name = poly ? "x" : lookup ? "idx" : "in",
                                .bytes = z_input(z) * 4};
    p.buf[1] = (gl_problem_buf){.name = poly ? "coeffs" : lookup ? "table" : "taps",
                                .bytes = z_data(z) * 4};
    p.buf[p.inputs] = (gl_problem_buf){.name = "out", .bytes = (size_t)z->n * 4,
                                       .cmp = GL_CMP_FLOAT, .atol = CM_REL_TOL * magnitude};
    return p;
}

/* ---- the demo's table ---- */

/* A variant's name in the table (a lookup's says its indices; with taps, its taps after it:
 * "convolve_long 64"). */
static void demo_label(const cm_variant *v, int taps, char *label, size_t len)
{
    if (task_of(v->launcher) == LOOKUP)
        snprintf(label, len, "%s %s", v->launcher, v->uniform ? "uniform" : "random");
    else if (taps && v->ntaps)
        snprintf(label, len, "%s %d", v->launcher, v->ntaps);
    else
        snprintf(label, len, "%s", v->launcher);
}

/* One variant at n outputs, checked on its problem (which also sets its constant data), then
 * timed on one set of buffers, its inputs made from the run's seed (gl_problem_time_ms): ms per
 * call, or -1 when it is wrong (said on stdout). work: its operations per call. */
static double demo_row(const cm_variant *v, int n, double *work)
{
    static cm_size z; /* one row's at a time */
    gl_problem p;
    const char *why;
    char label[96];
    z = (cm_size){.n = n, .ntaps = v->ntaps, .uniform = v->uniform};
    p = cm_problem(v->launcher, &z);
    *work = p.work;
    why = gl_problem_check(v->launcher, &p, gl_seed());
    if (!*why)
        return gl_problem_time_ms(v->launcher, &p, gl_seed());
    demo_label(v, 0, label, sizeof label);
    if (v->ntaps)
        printf("%s with %d taps is WRONG: %s\n", label, v->ntaps, why);
    else
        printf("%s is WRONG: %s\n", label, why);
    return -1.0;
}

int cm_demo_table(const cm_variant *v, int nv, int n, const gl_demo_args *args)
{
    static const char *h[] = {"variant", "taps", "time_ms", "Gop/s", "speedup", "against",
                              "check"};
    double ms[GL_DEMO_MAX_VARIANTS], work[GL_DEMO_MAX_VARIANTS], x;
    char label[96];
    gl_device_info info;
    gl_table *t;
    int i, k, wrong = 0;

    if (nv > GL_DEMO_MAX_VARIANTS)
        gl_fail("lab 04's demo has %d rows, at most %d (a bug of the kit)", nv,
                GL_DEMO_MAX_VARIANTS);
    gl_demo_begin(&info);
    t = gl_table_new(NULL, 7, h);
    gl_table_note(t, "lab", "04-constant-memory, n = %d outputs, one thread each, blocks of %d "
                  "threads", n, CM_BLOCK);
    gl_table_note(t, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(t, "seed", "%llu", (unsigned long long)gl_seed());
    gl_table_note(t, "ops", "a polynomial output is 2 * %d flops (Horner: a multiply-add per "
                  "coefficient); a convolution output is 2 * taps flops (multiply, add); a "
                  "lookup output is %d table reads", CM_COEFFS, CM_LOOKUPS);
    gl_table_note(t, "lookups", "uniform: the 32 lanes of a warp share one index; random: "
                  "each lane its own, in [0, %d)", CM_TABLE);
    gl_table_note(t, "speedup", "time of the row named in `against` / time of this row");
    for (i = 0; i < nv; i++) {
        ms[i] = demo_row(&v[i], n, &work[i]);
        wrong += ms[i] < 0.0;
    }

    for (i = 0; i < nv; i++) {
        demo_label(&v[i], 0, label, sizeof label);
        gl_table_cell(t, "%s", label);
        if (v[i].ntaps)
            gl_table_cell(t, "%d", v[i].ntaps);
        else
            gl_table_cell(t, "-");
        if (ms[i] < 0.0) { /* wrong: not timed */
            for (k = 0; k < 4; k++)
                gl_table_cell(t, "-");
            gl_table_cell(t, "WRONG");
            continue;
        }
        x = ms[v[i].against] / ms[i];
        gl_table_cell(t, "%.4f", ms[i]);
        gl_table_cell(t, "%.0f", work[i] / (ms[i] * 1e-3) / 1e9);
        if (ms[v[i].against] <= 0.0)
            gl_table_cell(t, "-");
        else if (x >= 10.0)
            gl_table_cell(t, "%.1f", x);
        else if (x >= 0.1)
            gl_table_cell(t, "%.2f", x);
        else /* e.g. 0.0056: 180x slower */
            gl_table_cell(t, "%.2g", x);
        demo_label(&v[v[i].against], 1, label, sizeof label);
        gl_table_cell(t, "%s", v[i].against == i ? "-" : label);
        gl_table_cell(t, "ok");
    }
    return gl_demo_end(t, args, wrong, "04");
}
