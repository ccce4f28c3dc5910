/* lab.c: lab 04-constant-memory described once (lab.h): its launchers and its problem (inputs
 * made on the GPU, the constant data set by the setup, the outputs checked against the kit's
 * launcher of the task; the correctness tests' check against the CPU: check.c). */
#include "lab.h"

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

/* Each task's kit launcher (the reference of its problem), the setter of the constant data its
 * constant launcher reads, and the names of a call's input and data. */
static const struct {
    const char *given, *setter, *input, *data;
} tasks[] = {
    [CM_POLY] = {"poly_global", "set_coeffs", "x", "coeffs"},
    [CM_LOOKUP] = {"lookup_constant", "set_table_constant", "idx", "table"},
    [CM_CONV] = {"convolve_constant_runtime", "set_taps_runtime", "in", "taps"},
};

static const gl_launcher *find(const char *launcher)
{
    const gl_launcher *l = gl_launcher_find(launcher);
    if (!l)
        gl_fail("no launcher %s in lab 04 (a bug of the kit)", launcher);
    return l;
}

/* Calls launcher, z's or its task's given one, with the arguments its layout takes of these:
 * out, in (x, the filter's input or idx), then data (the coefficients, taps or table: device)
 * where it takes them by pointer ('p'), then ntaps where its length is a run-time one (two 'i'
 * left), then n. */
static void run(const char *launcher, const cm_size *z, float *out, const void *in,
                const float *data)
{
    const char *layout = find(launcher)->layout;
    gl_arg a[5];
    size_t k = 0;
    a[k++] = GL_P(out);
    a[k++] = GL_P(in);
    if (layout[k] == 'p')
        a[k++] = GL_P(data);
    if (strlen(layout) - k == 2)
        a[k++] = GL_I(z->ntaps);
    a[k++] = GL_I(z->n);
    gl_exec(launcher, a);
}

/* Sets the constant data of z's task from host (its setter: CM_COEFFS coefficients, ntaps taps
 * or CM_TABLE floats of table), for the constant launcher that reads it. */
static void set_data(const cm_size *z, const float *host)
{
    const char *setter = tasks[z->task].setter;
    gl_arg a[] = {GL_H(host, z->data_count * sizeof(float)), GL_I(z->ntaps)};
    gl_exec(setter, a);
    GL_CHECK_LAUNCH(setter);
}

/* ---- the problem (common/gl_problem.h): data made on the GPU, the kit's reference ---- */

/* A polynomial's n points x on the GPU, made on the host from seed (with cpu_check): in
 * [-1, 1], a quarter of them within 0.02 of +1 and a quarter within 0.02 of -1, where the
 * high powers weigh (there a missing high coefficient shows). */
static void make_points(float *dst, size_t n, unsigned long long seed)
{
    float *x = malloc(n * sizeof(float) + 1);
    gl_rng rng;
    size_t i;
    if (!x)
        gl_fail("out of host memory for %zu points", n);
    gl_rng_init(&rng, seed, "points");
    for (i = 0; i < n; i++) {
        float u = gl_rng_float(&rng, 0.0f, 1.0f);
        int where = (int)gl_rng_range(&rng, 0, 3);
        x[i] = where == 0 ? 1.0f - 0.02f * u : where == 1 ? -1.0f + 0.02f * u : 2.0f * u - 1.0f;
    }
    GL_CUDA(cudaMemcpy(dst, x, n * sizeof(float), cudaMemcpyHostToDevice));
    free(x);
}

/* Input k of a call, on the GPU from seed: in [-1, 1) (a polynomial's points with cpu_check:
 * make_points), or a lookup's indices in [0, CM_TABLE), each lane's own or, uniform, the
 * warp's first lane's for all 32. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const cm_size *z = ctx;
    int lane;
    if (k == 0 && z->task == CM_POLY && z->cpu_check) {
        make_points(dst, (size_t)z->n, seed);
        return;
    }
    if (k > 0 || z->task != CM_LOOKUP) {
        gl_device_fill_float(dst, k > 0 ? z->data_count : z->in_count, -1.0f, 1.0f, seed);
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
    run(launcher, z, buf[1 + z->by_pointer], buf[0], z->by_pointer ? buf[1] : NULL);
}

/* The constant data of a round or a check: drawn from seed, kept for the reference, set in
 * the process that runs the launcher (before the inputs exist: GRADING.md rule 9); with
 * cpu_check, a polynomial's after another set of coefficients (the second must count). */
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

/* A student's outputs by the given launcher of the task, on the same data: poly_global on
 * the coefficients the setup set, or the constant lookup or filter on the call's table or
 * taps, copied into its constant memory. */
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

gl_problem cm_problem(const char *launcher, void *size)
{
    cm_size *z = size;
    const gl_launcher *l = find(launcher);
    int given = l->flags & GL_GIVEN;
    int poly = !strncmp(launcher, "poly_", 5), lookup = !strncmp(launcher, "lookup_", 7);
    int task = poly ? CM_POLY : lookup ? CM_LOOKUP : CM_CONV;
    /* a right output's terms' magnitudes at their largest, on these data: a half per
     * coefficient (at |x| = 1) or table read, a quarter per tap */
    double magnitude = poly ? 0.5 * CM_COEFFS : lookup ? 0.5 * CM_LOOKUPS : 0.25 * z->ntaps;
    gl_problem p = {.what = z->what, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call, .inputs_read_only = 1, .sets = 8, .rounds = 5};

    /* the kit's constant filter, the reference or the launcher, holds CM_MAX_CONST_TAPS taps */
    if (!poly && !lookup &&
        (z->ntaps < 1 || (z->ntaps > CM_MAX_CONST_TAPS && (given || !z->cpu_check))))
        gl_fail("lab 04's problem of %s with %d taps: 1 to %d (a bug of the kit)", launcher,
                z->ntaps, CM_MAX_CONST_TAPS);
    z->launcher = launcher;
    z->task = task;
    z->by_pointer = l->layout[2] == 'p'; /* a 'p' after out and in */
    z->in_count = (size_t)z->n + (task == CM_CONV ? (size_t)z->ntaps - 1 : 0);
    z->data_count = poly ? CM_COEFFS : lookup ? CM_TABLE : (size_t)z->ntaps;
    p.inputs = 1 + z->by_pointer;
    p.setup = z->by_pointer ? NULL : problem_setup;
    p.reference = given ? launcher : NULL; /* the kit's own is its own reference */
    p.reference_fn = given ? NULL : problem_reference;
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
    /* x and the taps, the table and out are floats, idx ints: 4 bytes each; the guards' 4096
     * bytes (.guard 0) hold the last block's 255 threads past n */
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
