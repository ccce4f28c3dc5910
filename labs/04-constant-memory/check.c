/* check.c: lab 04-constant-memory's own check of the outputs, for its grader's problem
 * (lab.h: cm_checked_problem): every output against the CPU in double, within CM_REL_TOL of
 * the sum of the magnitudes of its own terms (the problem's verify), and the hints that name
 * the likely mistake in the lab's terms. It builds on lab.c's problem; lab.c knows nothing of
 * it. */
#include "lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A call's data, downloaded: x or the filter's input (or idx), the coefficients, taps or
 * table, and a polynomial's first set of coefficients, set before the right ones (or NULL). */
typedef struct {
    int task, n, ntaps;
    size_t in_count;
    const float *x, *data, *first;
    const int *idx;
} host_data;

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes + 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
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
        if (d->first)
            old += (double)d->first[k] * pw[k];
    }
    cand[NO_C0] = full - coeffs[0];
    cand[STOPPED] = stopped;
    cand[TIMES_X] = full * d->x[i];
    cand[REVERSED] = reversed;
    cand[FIRST_SET] = d->first ? old : NAN; /* no first set: never the closest */
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

/* ---- the problem's verify ---- */

static void *download(const void *device, size_t bytes)
{
    void *host = host_alloc(bytes);
    GL_CUDA(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
    return host;
}

static const char *verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const cm_size *z = ctx;
    int by_pointer = cm_takes_data(z->launcher); /* else in z->data, set by the setup */
    host_data d = {.task = cm_task_of(z->launcher), .n = z->n, .ntaps = z->ntaps};
    void *in, *data = NULL;
    float *out;
    gl_cmp cmp;
    char described[1024];

    (void)seed; /* every output is checked */
    d.in_count = cm_input_count(d.task, d.n, d.ntaps);
    in = download(buf[0], d.in_count * 4); /* floats, or ints */
    if (by_pointer)
        data = download(buf[1], cm_data_count(d.task, d.ntaps) * sizeof(float));
    out = download(buf[1 + by_pointer], (size_t)d.n * sizeof(float));
    d.x = in;
    d.idx = in;
    d.data = by_pointer ? data : z->data;
    d.first = d.task == POLY && !by_pointer ? z->first : NULL;
    why[0] = '\0';
    if (compare(&d, out, &cmp)) {
        gl_cmp_describe(&cmp, "out", NULL, NULL, described, sizeof described);
        snprintf(why, sizeof why, "%s. %s", described,
                 d.task == POLY  ? poly_hint(&cmp, &d)
                 : d.task == CONV ? conv_hint(&cmp, &d)
                                 : lookup_hint(&cmp));
    }
    free(in);
    free(data);
    free(out);
    return why;
}

gl_problem cm_checked_problem(const char *launcher, void *size)
{
    cm_size *z = size;
    gl_problem p;
    z->cpu_check = 1;
    p = cm_problem(launcher, z);
    p.reference = NULL; /* every output against the CPU instead */
    p.reference_fn = NULL;
    p.verify = verify;
    return p;
}
