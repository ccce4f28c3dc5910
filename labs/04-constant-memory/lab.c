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

/* Each launcher once: its name, layout and flags (a SETTER copies a host array into __constant__
 * memory and launches nothing), then what its invoker call_NAME passes it, through the type of
 * its prototype (constant_memory.h). */
#define SETTER (GL_MAY_COPY_SYMBOL | GL_NO_KERNEL_OK)
#define LAUNCHERS(X)                                                                               \
    X(poly_global, "pppi", GL_GIVEN, a[0].p, a[1].p, a[2].p, (int)a[3].i)                          \
    X(set_coeffs, "h", SETTER, a[0].p)                                                             \
    X(poly_constant, "ppi", 0, a[0].p, a[1].p, (int)a[2].i)                                        \
    X(set_table_constant, "h", GL_GIVEN | SETTER, a[0].p)                                          \
    X(lookup_constant, "ppi", GL_GIVEN, a[0].p, a[1].p, (int)a[2].i)                               \
    X(lookup_global, "pppi", 0, a[0].p, a[1].p, a[2].p, (int)a[3].i)                               \
    X(set_taps_runtime, "hi", GL_GIVEN | SETTER, a[0].p, (int)a[1].i)                              \
    X(convolve_constant_runtime, "ppii", GL_GIVEN, a[0].p, a[1].p, (int)a[2].i, (int)a[3].i)       \
    X(convolve_long, "pppii", 0, a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i)
#define INVOKER(fn, layout, flags, ...) GL_INVOKER(call_##fn, fn, a, __VA_ARGS__)
#define ENTRY(fn, layout, flags, ...) {#fn, layout, call_##fn, flags},
LAUNCHERS(INVOKER)
const gl_launcher LAB_LAUNCHERS[] = {LAUNCHERS(ENTRY){NULL, NULL, NULL, 0}};

/* Each task's kit launcher (its reference), the setter of its constant data, the names of a
 * call's input and data, and what a wrong output means when no likely mistake explains it. */
static const struct { const char *given, *setter, *input, *data, *wrong; } tasks[] = {
    [CM_POLY] = {"poly_global", "set_coeffs", "x", "coeffs", "Wrong values: out[i] is c[0] + "
                 "c[1] x[i] + ... + c[%d] x[i]^%d, the coefficients from c_coeffs"},
    [CM_LOOKUP] = {"lookup_constant", "set_table_constant", "idx", "table", "Wrong values: "
                   "out[i] is the sum of table[(idx[i] + k) %% CM_TABLE] for k = 0 .. CM_LOOKUPS "
                   "- 1 (the index wraps around the end of the table)"},
    [CM_CONV] = {"convolve_constant_runtime", "set_taps_runtime", "in", "taps",
                 "Wrong values: out[i] is the sum of taps[k] * in[i + k] for k = 0 .. %d"},
};

/* Sets z's constant data from host (data_count floats) by its task's setter. */
static void set_data(const cm_size *z, const float *host)
{
    gl_arg a[] = {GL_H(host, z->data_count * sizeof(float)), GL_I(z->ntaps)};
    gl_exec(tasks[z->task].setter, a);
    GL_CHECK_LAUNCH(tasks[z->task].setter);
}

/* ---- the problem (common/gl_problem.h) ---- */

/* Input k of a call: floats in [-1, 1), a lookup's indices in [0, CM_TABLE) (uniform: the warp's
 * first lane's for all 32), or with cpu_check a polynomial's x made on the host: in [-1, 1], a
 * quarter within 0.02 of +1 and of -1 each, where a missing high coefficient shows. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const cm_size *z = ctx;
    gl_rng rng;
    if (k == 0 && z->task == CM_POLY && z->cpu_check) {
        float *x = gl_host_alloc((size_t)z->n * sizeof(float));
        gl_rng_init(&rng, seed, "points");
        for (int i = 0; i < z->n; i++) {
            float u = gl_rng_float(&rng, 0.0f, 1.0f);
            int where = (int)gl_rng_range(&rng, 0, 3);
            x[i] = where == 0 ? 1.0f - 0.02f * u : where == 1 ? -1.0f + 0.02f * u : 2.0f * u - 1.0f;
        }
        GL_CUDA(cudaMemcpy(dst, x, (size_t)z->n * sizeof(float), cudaMemcpyHostToDevice));
        free(x);
    } else if (k > 0 || z->task != CM_LOOKUP) {
        gl_device_fill_float(dst, k > 0 ? z->data_count : z->in_count, -1.0f, 1.0f, seed);
    } else {
        gl_device_fill_int(dst, (size_t)z->n, 0, CM_TABLE - 1, seed);
        for (int lane = 1; z->uniform && lane < 32 && lane < z->n; lane++)
            gl_device_copy_words_strided((int *)dst + lane, 32, dst, 32,
                                         (size_t)(z->n - lane + 31) / 32);
    }
}

/* Calls launcher (z's, or its task's given one) on buffers in, data (where it takes it by
 * pointer), out: with out, in, data, a filter's ntaps, then n. */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const cm_size *z = ctx;
    int data = gl_launcher_find(launcher)->layout[2] == 'p'; /* cm_problem found z's */
    gl_arg a[5] = {GL_P(buf[1 + data]), GL_P(buf[0]), GL_P(buf[1])};
    a[2 + data] = GL_I(z->task == CM_CONV ? z->ntaps : z->n); /* a filter's ntaps, then n */
    a[3 + data] = GL_I(z->n); /* the others': past their layout's end, unread */
    gl_exec(launcher, a);
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
    gl_buf coeffs = {0};
    if (z->by_pointer) {
        GL_CUDA(cudaMemcpy(z->data, buf[1], z->data_count * 4, cudaMemcpyDeviceToHost));
        set_data(z, z->data);
    } else {
        coeffs = gl_buf_alloc(z->data_count * 4, 0);
        gl_buf_upload(&coeffs, z->data);
    }
    void *given[] = {buf[0], z->by_pointer ? buf[2] : coeffs.ptr, buf[1]}; /* in its layout */
    problem_call(z, tasks[z->task].given, given);
    GL_CHECK_LAUNCH(tasks[z->task].given);
    gl_buf_free(&coeffs);
}

/* ---- with cpu_check: every output against the CPU, in double, and the likely mistake ---- */

/* A call's data on the host (a lookup's x: its idx), and a polynomial's first coefficients. */
typedef struct { const cm_size *z; const float *x, *data, *first; } host_data;

/* Outputs i .. i + m - 1 (m <= 8) in double, a polynomial's by Horner's rule, and the sums of
 * their terms' magnitudes: each computed as alone, the m interleaved so that the CPU overlaps
 * them (a 2^20-point check takes a fraction of a second, not three). */
static void expected_at(const host_data *d, size_t i, int m, double *sum, double *mag)
{
    double t;
    int k, j, task = d->z->task;
    for (j = 0; j < m; j++)
        sum[j] = mag[j] = 0.0;
    if (task == CM_POLY)
        for (k = CM_COEFFS - 1; k >= 0; k--) /* sum = sum * x + c[k] */
            for (j = 0; j < m; j++) {
                sum[j] = sum[j] * d->x[i + j] + d->data[k];
                mag[j] = mag[j] * fabs((double)d->x[i + j]) + fabs((double)d->data[k]);
            }
    else
        for (j = 0; j < m; j++)
            for (k = 0; k < (task == CM_CONV ? d->z->ntaps : CM_LOOKUPS); k++) {
                t = task == CM_CONV ? (double)d->data[k] * d->x[i + j + k]
                                    : (double)d->data[(((const int *)d->x)[i + j] + k) % CM_TABLE];
                sum[j] += t;
                mag[j] += fabs(t);
            }
}

/* The likely mistake closest so far to a wrong output, actual: how far, and what it means. */
static struct mistake { double actual, distance; char text[512]; } guess;

/* guess becomes the mistake whose output would be value, said by fmt, if strictly closer (a tie
 * keeps the earlier) */
__attribute__((format(printf, 2, 3))) static void consider(double value, const char *fmt, ...)
{
    va_list ap;
    if (!(fabs(guess.actual - value) < guess.distance))
        return;
    guess.distance = fabs(guess.actual - value);
    va_start(ap, fmt);
    vsnprintf(guess.text, sizeof guess.text, fmt, ap);
    va_end(ap);
}

/* The likely mistake closest to a polynomial's or a filter's wrong output w, if as close as a
 * right output would be; else (and for a lookup) what the output is. The mistakes: a sum of only
 * the first k terms or without the first (c[0], tap 0), a polynomial's loop stopped before k = 0,
 * times x once more, its coefficients reversed or the first set_coeffs', a filter's input read
 * one place too far. */
static const char *likely_mistake(const host_data *d, const gl_diff *w)
{
    const float *c = d->data, *in = d->x;
    size_t i = w->index;
    double pw[CM_COEFFS], mag, full, sum = 0.0, stopped = 0.0;
    double reversed = 0.0, first = 0.0, shifted = 0.0;
    int k, last = CM_COEFFS - 1, ntaps = d->z->ntaps;
    guess = (struct mistake){w->actual, INFINITY, ""}; /* none yet: any finite distance is closer */
    expected_at(d, i, 1, &full, &mag);
    if (d->z->task == CM_CONV) { /* without tap 0 first: at 1 tap it ties with no tap */
        consider(full - (double)c[0] * in[i], "out[%zu] leaves out the term of tap 0: does k "
                 "start at 0?", i);
        for (k = 0; k < ntaps; k++) {
            consider(sum, "out[%zu] is the sum of only the first %d of the %d taps: does the "
                     "loop run to ntaps, whatever its value?", i, k, ntaps);
            sum += (double)c[k] * in[i + k];
            if (i + k + 1 < d->z->in_count) /* within in, for the last i */
                shifted += (double)c[k] * in[i + k + 1];
        }
        consider(shifted, "out[%zu] is the sum over in[%zu + 1 + k]: the input is read one "
                 "place too far", i, i);
    } else if (d->z->task == CM_POLY) {
        for (k = 0; k < CM_COEFFS; k++)
            pw[k] = k ? pw[k - 1] * d->x[i] : 1.0; /* x^k */
        consider(0.0, "out[%zu] is 0, as if c_coeffs held only zeros: does set_coeffs copy the "
                 "coefficients into c_coeffs, and does the kernel read them from there?", i);
        for (k = 0; k < CM_COEFFS; k++) {
            if (k == last) /* sum: the first k terms */
                consider(sum, "out[%zu] leaves out the highest term, c[%d] x^%d: Horner's rule "
                         "starts from acc = c_coeffs[CM_COEFFS - 1] (then k from CM_COEFFS - 2 "
                         "down to 0)", i, last, last);
            else if (k > 0)
                consider(sum, "out[%zu] is the polynomial of only its first %d of the %d "
                         "coefficients, c[0] .. c[%d]: did set_coeffs copy all CM_COEFFS * "
                         "sizeof(float) bytes? (sizeof(coeffs) is the size of a pointer, 2 "
                         "floats)", i, k, CM_COEFFS, k - 1);
            sum += (double)c[k] * pw[k];
            stopped += k ? (double)c[k] * pw[k - 1] : 0.0;
            reversed += (double)c[k] * pw[last - k];
            first += d->first ? (double)d->first[k] * pw[k] : 0.0;
        }
        consider(full - c[0], "out[%zu] leaves out c[0], the constant term: every c[k] from k = "
                 "0 counts", i);
        consider(stopped, "out[%zu] is c[1] + c[2] x + ... + c[%d] x^%d: the loop stops before "
                 "k = 0, so c[0] is never added and every other term is one power of x short: "
                 "run it down to k = 0 (k >= 0)", i, last, last - 1);
        consider(full * d->x[i], "out[%zu] is x[%zu] times the polynomial: one multiplication by x "
                 "too many (each step is acc = acc * x + c[k], the last one adds c[0])", i, i);
        consider(reversed, "out[%zu] has the coefficients in reverse order: c[k] goes with x^k, "
                 "so Horner's rule starts from the highest, acc = c_coeffs[CM_COEFFS - 1], and "
                 "adds c_coeffs[k] for k going down to 0", i);
        if (d->first)
            consider(first, "out[%zu] is the polynomial of the coefficients given to the first "
                     "of two set_coeffs in a row, not to the last: each set_coeffs must copy its "
                     "coefficients into c_coeffs", i);
    }
    if (guess.distance <= CM_REL_TOL * mag + 1e-30)
        return guess.text;
    k = d->z->task == CM_POLY ? last : ntaps - 1; /* the highest term's */
    snprintf(guess.text, sizeof guess.text, tasks[d->z->task].wrong, k, k);
    return guess.text;
}

/* The problem's verify: every output within CM_REL_TOL of its terms' magnitudes of the CPU's;
 * else what that most likely means: nothing or part written, or the first written one's mistake. */
static const char *verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const cm_size *z = ctx;
    size_t n = (size_t)z->n, i;
    float *in = gl_host_alloc((z->in_count + z->data_count + 3 * n) * sizeof(float));
    float *data = in + z->in_count, *out = data + z->data_count, *expected = out + n;
    float *bound = expected + n;
    host_data d = {.z = z, .x = in, .data = z->by_pointer ? data : z->data,
                   .first = z->task == CM_POLY && !z->by_pointer ? z->first : NULL};
    double sum[8], mag[8];
    char described[1024];
    gl_cmp cmp;
    int w = 0; /* the first written wrong one, of those shown */
    (void)seed; /* every output is checked */
    GL_CUDA(cudaMemcpy(in, buf[0], z->in_count * 4, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(out, buf[1 + z->by_pointer], n * 4, cudaMemcpyDeviceToHost));
    if (z->by_pointer)
        GL_CUDA(cudaMemcpy(data, buf[1], z->data_count * 4, cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i += 8) {
        int m = n - i < 8 ? (int)(n - i) : 8;
        expected_at(&d, i, m, sum, mag);
        for (int j = 0; j < m; j++) {
            expected[i + j] = (float)sum[j];
            bound[i + j] = (float)(CM_REL_TOL * mag[j] + 1e-30);
        }
    }
    why[0] = '\0';
    if (gl_compare_float_bound(expected, out, bound, n, &cmp)) {
        while (w < cmp.shown && cmp.diff[w].unwritten)
            w++;
        gl_cmp_describe(&cmp, "out", NULL, NULL, described, sizeof described);
        snprintf(why, sizeof why, "%s. %s", described,
                 cmp.unwritten == cmp.n ? "Is the kernel still a TODO, or is it never launched?"
                 : w == cmp.shown || (cmp.unwritten && z->task == CM_LOOKUP)
                     ? "Some outputs were never written: does every thread i < n write out[i]?"
                     : likely_mistake(&d, &cmp.diff[w]));
    }
    free(in);
    return why;
}

gl_problem cm_problem(const char *launcher, void *size)
{
    cm_size *z = size;
    const gl_launcher *l = gl_launcher_find(launcher);
    int poly = !strncmp(launcher, "poly_", 5), lookup = !strncmp(launcher, "lookup_", 7);
    int terms = poly ? CM_COEFFS : lookup ? CM_LOOKUPS : z->ntaps; /* of an output's sum */
    int given = l && (l->flags & GL_GIVEN);
    if (!l)
        gl_fail("no launcher %s in lab 04 (a bug of the kit)", launcher);
    /* the kit's constant filter (and z->data) holds CM_MAX_CONST_TAPS taps */
    if (!poly && !lookup &&
        (z->ntaps < 1 || (z->ntaps > CM_MAX_CONST_TAPS && (given || !z->cpu_check))))
        gl_fail("lab 04's problem of %s with %d taps: 1 to %d (a bug of the kit)", launcher,
                z->ntaps, CM_MAX_CONST_TAPS);
    z->task = poly ? CM_POLY : lookup ? CM_LOOKUP : CM_CONV;
    z->by_pointer = l->layout[2] == 'p'; /* a 'p' after out and in */
    z->in_count = (size_t)z->n + (z->task == CM_CONV ? (size_t)terms - 1 : 0);
    z->data_count = lookup ? CM_TABLE : (size_t)terms;
    /* the kit's own launcher is its own reference; with cpu_check, the CPU is; the work counts
     * operations (flops, table reads), not bytes: a multiply-add a term, or a read */
    gl_problem p = {
        .what = z->what, .inputs = 1 + z->by_pointer, .outputs = 1, .ctx = z,
        .make = problem_make, .call = problem_call, .setup = z->by_pointer ? NULL : problem_setup,
        .reference = given && !z->cpu_check ? launcher : NULL,
        .reference_fn = given || z->cpu_check ? NULL : problem_reference,
        .verify = z->cpu_check ? verify : NULL, .inputs_read_only = 1,
        .work = (double)z->n * (lookup ? 1.0 : 2.0) * terms, .unit = "Gop/s", .sets = 8,
        .rounds = 5, .baseline_sets = lookup ? 4 : 0}; /* lookup_constant, random: 25 ms (H100) */
    if (p.setup && !given)
        p.hint = "every call must compute the whole output from its own input and the "
                 "coefficients of the last set_coeffs (fresh constant data every round)";
    if (poly)
        snprintf(z->what, sizeof z->what, "at n = %d%s", z->n, z->cpu_check && p.setup
                 ? ", after set_coeffs twice (the second set counts)" : "");
    else if (lookup)
        snprintf(z->what, sizeof z->what, "at n = %d with %s", z->n,
                 z->uniform ? "uniform indices (one per warp)" : "random indices");
    else
        snprintf(z->what, sizeof z->what, "at n = %d with %d tap%s", z->n, z->ntaps,
                 z->ntaps == 1 ? "" : "s");
    /* floats and ints, 4 bytes; the guards' 4096 bytes hold the last block's 255 threads; a
     * right output's terms' magnitudes at their largest, on these data: a half per coefficient
     * (at |x| = 1) or table read, a quarter per tap */
    p.buf[0] = (gl_problem_buf){.name = tasks[z->task].input, .bytes = z->in_count * 4,
                                .outside = "the inputs are read-only"};
    p.buf[1] = (gl_problem_buf){.name = tasks[z->task].data, .bytes = z->data_count * 4,
                                .outside = "the inputs are read-only"};
    p.buf[p.inputs] = (gl_problem_buf){
        .name = "out", .bytes = (size_t)z->n * 4, .cmp = GL_CMP_FLOAT,
        .atol = CM_REL_TOL * ((z->task == CM_CONV ? 0.25 : 0.5) * terms),
        .outside = "test i < n in the kernel (the last block has threads past n)"};
    return p;
}
