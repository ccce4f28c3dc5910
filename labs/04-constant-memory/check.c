/* check.c: lab 04-constant-memory's check of every output against the CPU, for its correctness
 * tests (lab.h: cm_checked_problem): each within CM_REL_TOL of the sum of the magnitudes of its
 * own terms, computed in double (the problem's verify), and the hints that name the likely
 * mistake in the lab's terms. */
#include "lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A call's data on the host: its input (x, the filter's input or idx), its coefficients, taps
 * or table, and a polynomial's first set of coefficients, set before the right ones (or NULL). */
typedef struct {
    int task, ntaps;
    size_t in_count;
    const float *x, *data, *first;
    const int *idx;
} host_data;

/* c[0] + c[1] x + ... + c[CM_COEFFS - 1] x^(CM_COEFFS - 1) by Horner's rule, in double, and
 * the sum of the magnitudes of its terms, |c[k]| |x|^k */
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
    if (d->task == CM_POLY)
        return poly_at(d->data, d->x[i], magnitude);
    for (k = 0; k < (d->task == CM_CONV ? d->ntaps : CM_LOOKUPS); k++) {
        t = d->task == CM_CONV ? (double)d->data[k] * d->x[i + k]
                            : (double)d->data[(d->idx[i] + k) % CM_TABLE];
        sum += t;
        mag += fabs(t);
    }
    *magnitude = mag;
    return sum;
}

/* What usually causes a wrong polynomial, in the lab's terms: the first written wrong output w
 * is compared with what each mistake would give (the polynomial of only its first m
 * coefficients, without c[0], with the loop stopped before k = 0, times x once more, with the
 * coefficients reversed, with those of the first set_coeffs); the closest of them, if it is as
 * close as a right output would be, names the mistake. */
static const char *poly_hint(const host_data *d, const gl_diff *w)
{
    enum { PARTIAL, NO_C0, STOPPED, TIMES_X, REVERSED, FIRST_SET, NONE };
    static char hint[512];
    const float *coeffs = d->data;
    size_t i = w->index;
    double pw[CM_COEFFS], cand[NONE] = {0.0}, mag, full = poly_at(coeffs, d->x[i], &mag);
    double best = -1.0;
    int k, best_m = 0, best_what = NONE;

    pw[0] = 1.0;
    for (k = 1; k < CM_COEFFS; k++)
        pw[k] = pw[k - 1] * d->x[i];
    for (k = 0; k < CM_COEFFS; k++) {
        if (best < 0.0 || fabs(w->actual - cand[PARTIAL]) < best) { /* the first k only */
            best = fabs(w->actual - cand[PARTIAL]);
            best_m = k;
            best_what = PARTIAL;
        }
        cand[PARTIAL] += (double)coeffs[k] * pw[k];
        if (k >= 1)
            cand[STOPPED] += (double)coeffs[k] * pw[k - 1];
        cand[REVERSED] += (double)coeffs[k] * pw[CM_COEFFS - 1 - k];
        if (d->first)
            cand[FIRST_SET] += (double)d->first[k] * pw[k];
    }
    cand[NO_C0] = full - coeffs[0];
    cand[TIMES_X] = full * d->x[i];
    if (!d->first)
        cand[FIRST_SET] = NAN; /* no first set: never the closest */
    for (k = NO_C0; k < NONE; k++)
        if (fabs(w->actual - cand[k]) < best) {
            best = fabs(w->actual - cand[k]);
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

/* What usually causes a wrong convolution, in the lab's terms: the first written wrong output
 * w is compared with the sums of the first m taps, the sum without tap 0 and the sum over the
 * input one place further; the closest of them, if it is as close as a right output would be,
 * names the mistake. */
static const char *conv_hint(const host_data *d, const gl_diff *w)
{
    static char hint[512];
    const float *in = d->x, *taps = d->data;
    size_t i = w->index;
    double mag, full = expected_at(d, i, &mag), partial = 0.0, shifted = 0.0, best, diff;
    int k, m, best_m = -1;

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

/* What the wrong outputs c found most likely mean, in the lab's terms: nothing written, some
 * outputs never written, or the mistake that gives the first written wrong one. */
static const char *hint(const gl_cmp *c, const host_data *d)
{
    const gl_diff *w = NULL;
    int k;
    for (k = 0; k < c->shown && !w; k++)
        if (!c->diff[k].unwritten)
            w = &c->diff[k];
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (!w || (c->unwritten && d->task == CM_LOOKUP))
        return "Some outputs were never written: does every thread i < n write out[i]?";
    if (d->task == CM_POLY)
        return poly_hint(d, w);
    if (d->task == CM_CONV)
        return conv_hint(d, w);
    return "Wrong values: out[i] is the sum of table[(idx[i] + k) % CM_TABLE] for k = 0 .. "
           "CM_LOOKUPS - 1 (the index wraps around the end of the table)";
}

static void *host_alloc(size_t bytes)
{
    void *host = malloc(bytes + 1);
    if (!host)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return host;
}

static void *download(const void *device, size_t bytes)
{
    void *host = host_alloc(bytes);
    GL_CUDA(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
    return host;
}

/* The problem's verify: every output within CM_REL_TOL of the sum of the magnitudes of its own
 * terms of the CPU's value (gl_compare_float_bound), on the call's data: those it takes by
 * pointer, or those the setup set (and a polynomial's first set). */
static const char *verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const cm_size *z = ctx;
    size_t n = (size_t)z->n, i;
    void *in = download(buf[0], z->in_count * 4); /* floats, or ints */
    float *data = z->by_pointer ? download(buf[1], z->data_count * sizeof(float)) : NULL;
    float *out = download(buf[1 + z->by_pointer], n * sizeof(float));
    float *expected = host_alloc(2 * n * sizeof(float)), *bound = expected + n;
    host_data d = {.task = z->task, .ntaps = z->ntaps, .in_count = z->in_count, .x = in,
                   .idx = in, .data = data ? data : z->data,
                   .first = z->task == CM_POLY && !data ? z->first : NULL};
    double magnitude;
    char described[1024];
    gl_cmp cmp;

    (void)seed; /* every output is checked */
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
    free(data);
    free(out);
    free(expected);
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
