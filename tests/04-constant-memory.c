/* 04-constant-memory.c: the grader's suite for lab 04-constant-memory.
 *
 *   correctness  the polynomial with constant coefficients (degree 511, Horner's
 *                rule) on n of every class (0, tiny, a multiple of 32 or of the
 *                block or not, 2^20 and 2^20 + 3, one drawn from the run's
 *                seed), after two set_coeffs in a row (the second counts); the
 *                lookup from global memory on the same classes, uniform and
 *                random indices; the long convolution with 1 to 1000 taps (a
 *                multiple of 32 or not), 20000 taps (80 KB: past the 64 KB of
 *                constant memory) and a length drawn from the seed; each
 *                launcher returns at once
 *   technique    the kernels poly_constant launches read c_coeffs (ld.const)
 *                and the file calls cudaMemcpyToSymbol; those of the lookup and
 *                the long convolution load through the read-only path
 *                (ld.global.nc), no ld.const
 *   performance  against the kit's own kernels, timed by the judge on fresh
 *                inputs (and fresh constant data) every round: constant vs
 *                global coefficients (512, at compile-time addresses); global
 *                vs constant table on random indices; global taps vs constant
 *                ones at 1024 run-time taps
 *   profile      global load instructions of the constant polynomial (Nsight
 *                Compute): the coefficients no longer come from global memory
 *
 * Constant memory is state of the process that set it: every test sets it
 * (cm_set_for, lab.h) right before the launcher that reads it. */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_CONSTANT_OVER_GLOBAL 1.5         /* time ratios: 512 coefficients, 2^24 outputs; H100 2.34 to 2.41 */
#define MIN_GLOBAL_OVER_CONSTANT_RANDOM 20.0 /* the lookup on random indices, 2^24 outputs */
#define MIN_LONG_OVER_RUNTIME 1.35           /* 1024 run-time taps, 2^22 outputs (H100 4.0x, 2.0x at 1/4 SMs) */
#define PERF_LONG_TAPS 1024
#define MAX_LOADS_PER_WARP 8                 /* global loads per warp: x is 1; global coeffs: 513 */

#define BIG ((1 << 20) + 3)

/* ---- correctness ---- */

/* Random points and coefficients for n outputs; checks poly_constant on each
 * size after two set_coeffs in a row (the second must count). */
static void check_poly(const int *sizes, int nsizes)
{
    int s;
    gl_rng rng;
    gl_test_rng(&rng);
    for (s = 0; s < nsizes; s++) {
        int n = sizes[s];
        float *h_x, *h_coeffs, *h_first = gl_malloc(CM_COEFFS * sizeof(float));
        char why[2048];
        cm_poly_make(&rng, n, &h_x, &h_coeffs);
        gl_fill_float(&rng, h_first, CM_COEFFS, -1.0f, 1.0f);
        snprintf(why, sizeof why, "%s",
                 cm_poly_check("poly_constant", n, h_x, h_first, h_coeffs, 0));
        free(h_x);
        free(h_coeffs);
        free(h_first);
        if (*why)
            gl_check_fail("poly_constant with n = %d, after set_coeffs twice (the second set "
                          "counts): %s", n, why);
    }
}

/* Random input and taps for n outputs of an ntaps filter; checks launcher on
 * each size. */
static void check_conv(const char *launcher, const int *sizes, int nsizes, int ntaps)
{
    int s;
    gl_rng rng;
    gl_test_rng(&rng);
    for (s = 0; s < nsizes; s++) {
        int n = sizes[s];
        float *h_in, *h_taps;
        char why[2048];
        cm_conv_make(&rng, n, ntaps, &h_in, &h_taps);
        snprintf(why, sizeof why, "%s", cm_conv_check(launcher, n, ntaps, h_in, h_taps, 0));
        free(h_in);
        free(h_taps);
        if (*why)
            gl_check_fail("%s with n = %d and %d tap%s: %s", launcher, n, ntaps,
                          ntaps == 1 ? "" : "s", why);
    }
}

static void check_lookup(const char *launcher, const int *sizes, int nsizes)
{
    int s, uniform;
    gl_rng rng;
    gl_test_rng(&rng);
    for (s = 0; s < nsizes; s++)
        for (uniform = 1; uniform >= 0; uniform--) {
            int n = sizes[s], *h_idx;
            float *h_table;
            char why[2048];
            cm_lookup_make(&rng, n, uniform, &h_idx, &h_table);
            snprintf(why, sizeof why, "%s", cm_lookup_check(launcher, n, h_idx, h_table));
            free(h_idx);
            free(h_table);
            if (*why)
                gl_check_fail("%s with n = %d, %s indices: %s", launcher, n,
                              uniform ? "uniform (one per warp)" : "random", why);
        }
}

/* every class of n: 0, 1, under a warp, a warp, a warp and one, a block and
 * one less or more, a multiple of 8 but not of 32, a multiple of the block */
static const int small_n[] = {0, 1, 31, 32, 33, 255, 256, 257, 1000, 4096};
#define NSMALL ((int)(sizeof small_n / sizeof small_n[0]))
static const int large_n[] = {1 << 20, BIG};

GL_TEST(constant_small_n, GL_CORRECTNESS, 2, 15,
        "constant coefficients, n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 4096")
{
    check_poly(small_n, NSMALL);
}

GL_TEST(constant_large_n, GL_CORRECTNESS, 2, 15, "constant coefficients, n = 2^20 and 2^20 + 3")
{
    check_poly(large_n, 2);
}

GL_TEST(constant_random, GL_CORRECTNESS, 1, 15, "constant coefficients, n drawn from the seed")
{
    gl_rng rng;
    int n;
    gl_test_rng(&rng);
    n = (int)gl_rng_range(&rng, 1, 300000);
    check_poly(&n, 1);
}

GL_TEST(lookup_small_n, GL_CORRECTNESS, 2, 15,
        "global lookup, n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 4096")
{
    check_lookup("lookup_global", small_n, NSMALL);
}

GL_TEST(lookup_large_n, GL_CORRECTNESS, 2, 15, "global lookup, n = 2^20 and 2^20 + 3")
{
    check_lookup("lookup_global", large_n, 2);
}

GL_TEST(lookup_random, GL_CORRECTNESS, 1, 15, "global lookup, n drawn from the seed")
{
    gl_rng rng;
    int n;
    gl_test_rng(&rng);
    n = (int)gl_rng_range(&rng, 1, 300000);
    check_lookup("lookup_global", &n, 1);
}

GL_TEST(long_taps, GL_CORRECTNESS, 2, 15, "long filter, 1, 31, 32, 33, 64, 1000 taps")
{
    /* lengths: one tap, under a warp, a warp, a warp and one, two warps, 1000 */
    static const int sizes[] = {1, 256, 257, 1000}, taps[] = {1, 31, 32, 33, 64, 1000};
    static const int big[] = {BIG};
    int t;
    for (t = 0; t < 6; t++)
        check_conv("convolve_long", sizes, 4, taps[t]);
    check_conv("convolve_long", big, 1, 33);
}

GL_TEST(long_past_64kb, GL_CORRECTNESS, 3, 15, "long filter, 20000 taps (80 KB)")
{
    static const int sizes[] = {1, 256, 257, 1000};
    check_conv("convolve_long", sizes, 4, 20000); /* 80 KB of taps */
}

GL_TEST(long_random, GL_CORRECTNESS, 1, 15, "long filter, n and taps drawn from the seed")
{
    gl_rng rng;
    int n, ntaps;
    gl_test_rng(&rng);
    n = (int)gl_rng_range(&rng, 1, 100000);
    ntaps = (int)gl_rng_range(&rng, 1, 3000);
    check_conv("convolve_long", &n, 1, ntaps);
}

/* One launcher once on n outputs (ntaps taps for the convolutions; random
 * indices for the lookups), its constant data set first; checked. Returns ""
 * or why not. */
static const char *check_once(const char *launcher, const char *stream, int n, int ntaps)
{
    static char why[2048];
    gl_rng rng;
    gl_rng_init(&rng, gl_seed(), stream);
    if (cm_is_poly(launcher)) {
        float *h_x, *h_coeffs;
        cm_poly_make(&rng, n, &h_x, &h_coeffs);
        snprintf(why, sizeof why, "%s", cm_poly_check(launcher, n, h_x, NULL, h_coeffs, 1));
        free(h_x);
        free(h_coeffs);
    } else if (cm_is_lookup(launcher)) {
        int *h_idx;
        float *h_table;
        cm_lookup_make(&rng, n, 0, &h_idx, &h_table);
        snprintf(why, sizeof why, "%s", cm_lookup_check(launcher, n, h_idx, h_table));
        free(h_idx);
        free(h_table);
    } else {
        float *h_in, *h_taps;
        cm_conv_make(&rng, n, ntaps, &h_in, &h_taps);
        snprintf(why, sizeof why, "%s", cm_conv_check(launcher, n, ntaps, h_in, h_taps, 1));
        free(h_in);
        free(h_taps);
    }
    return why;
}

/* ---- the launcher only enqueues its kernel (gl_expect_queued) ---- */

typedef struct {
    const char *launcher;
    int n, ntaps;
    float *out;
    const void *in;          /* device: x, in, or idx for a lookup (the delayed input) */
    const float *data;       /* device: the coefficients, the taps, or the table */
    const void *h_in;        /* their host copies */
    const float *h_data;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    if (cm_is_poly(q->launcher))
        cm_poly(q->launcher, q->out, q->in, q->data, q->n);
    else if (cm_is_lookup(q->launcher))
        cm_lookup(q->launcher, q->out, q->in, q->data, q->n);
    else
        cm_convolve(q->launcher, q->out, q->in, q->data, q->ntaps, q->n);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    float *h = gl_malloc((size_t)q->n * sizeof(float));
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->out, (size_t)q->n * sizeof(float), cudaMemcpyDeviceToHost));
    if (cm_is_poly(q->launcher))
        right = cm_poly_compare(h, q->h_in, q->h_data, q->n, 1, &cmp) == 0;
    else if (cm_is_lookup(q->launcher))
        right = cm_lookup_compare(h, q->h_in, q->h_data, q->n, &cmp) == 0;
    else
        right = cm_conv_compare(h, q->h_in, q->h_data, q->ntaps, q->n, 1, &cmp) == 0;
    free(h);
    return right;
}

static void check_async(const char *launcher, int ntaps)
{
    const int n = BIG;
    int poly = cm_is_poly(launcher), lookup = cm_is_lookup(launcher), *h_idx = NULL;
    float *h_in = NULL, *h_data;
    size_t in_bytes = lookup ? (size_t)n * sizeof(int)
                      : poly ? (size_t)n * sizeof(float)
                             : ((size_t)n + ntaps - 1) * sizeof(float),
           data_bytes = (size_t)(lookup ? CM_TABLE : poly ? CM_COEFFS : ntaps) * sizeof(float);
    gl_buf staged = gl_buf_alloc(in_bytes, 0), in = gl_buf_alloc(in_bytes, 0),
           data = gl_buf_alloc(data_bytes, 0), out = gl_buf_alloc((size_t)n * sizeof(float), 0);
    gl_queue_buffers b = {in.ptr, staged.ptr, in_bytes, out.ptr, (size_t)n * sizeof(float)};
    queued q = {launcher, n, ntaps, out.ptr, in.ptr, data.ptr, NULL, NULL};
    gl_rng rng;

    gl_test_rng(&rng);
    if (lookup)
        cm_lookup_make(&rng, n, 0, &h_idx, &h_data);
    else if (poly)
        cm_poly_make(&rng, n, &h_in, &h_data);
    else
        cm_conv_make(&rng, n, ntaps, &h_in, &h_data);
    q.h_in = lookup ? (const void *)h_idx : (const void *)h_in;
    q.h_data = h_data;
    gl_buf_upload(&staged, q.h_in);
    gl_buf_upload(&data, h_data);
    cm_set_for(launcher, h_data, ntaps); /* set_coeffs, in the process that runs the launcher */
    gl_expect_queued(launcher, queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&data);
    gl_buf_free(&out);
    free(h_in);
    free(h_idx);
    free(h_data);
}

GL_TEST(constant_async, GL_CORRECTNESS, 2, 30, "constant coefficients, launcher returns at once")
{
    check_async("poly_constant", 0);
}

GL_TEST(lookup_async, GL_CORRECTNESS, 1, 30, "global lookup, launcher returns at once")
{
    check_async("lookup_global", 0);
}

GL_TEST(long_async, GL_CORRECTNESS, 1, 30, "long filter, launcher returns at once")
{
    check_async("convolve_long", 100);
}

/* ---- technique: read from the PTX and the library, no GPU needed ---- */

static int ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '$';
}

/* Does the entry's body name the symbol (a whole identifier)? */
static int entry_names(const gl_ptx_entry *e, const char *symbol)
{
    size_t k = strlen(symbol), i;
    for (i = 0; i + k <= e->body_len; i++)
        if (!strncmp(e->body + i, symbol, k) && (i == 0 || !ident_char(e->body[i - 1])) &&
            (i + k == e->body_len || !ident_char(e->body[i + k])))
            return 1;
    return 0;
}

/* The size in bytes of a module-scope .const array in the PTX, or -1. */
static long const_array_bytes(const char *ptx, const char *symbol)
{
    const char *line = ptx;
    size_t k = strlen(symbol);
    while (line && *line) {
        const char *end = strchr(line, '\n'), *s;
        size_t len = end ? (size_t)(end - line) : strlen(line);
        for (s = line; s + k < line + len; s++)
            if (!strncmp(s, symbol, k) && s[k] == '[' && s > line && s[-1] == ' ') {
                const char *c = strstr(line, ".const");
                if (c && c < s) {
                    long count = strtol(s + k + 1, NULL, 10);
                    const char *b8 = strstr(line, ".b8 ");
                    return b8 && b8 < s ? count : 4 * count; /* .b8 [bytes] or .f32 [floats] */
                }
            }
        line = end ? end + 1 : NULL;
    }
    return -1;
}

/* How many ld.const the given kernel has in the baselines' PTX (the
 * grader's own copy). */
static int baseline_ld_const(const char *kernel)
{
    gl_ptx_entry e;
    char *ptx = gl_given_ptx(kernel, &e);
    int n = gl_ptx_count(&e, "ld.const");
    free(ptx);
    return n;
}

static void check_reads_c_coeffs(const char *kernel)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    long bytes = const_array_bytes(ptx, "c_coeffs");
    int ld_const;

    if (bytes < 0)
        gl_check_fail("the PTX of constant_memory.cu has no __constant__ array c_coeffs (.const "
                      "... c_coeffs[%d]): keep `__constant__ float c_coeffs[CM_COEFFS];` of the "
                      "starting file, and read the coefficients from it",
                      (int)(CM_COEFFS * sizeof(float)));
    if (bytes != (long)(CM_COEFFS * sizeof(float)))
        gl_check_fail("c_coeffs has %ld bytes in the PTX, where CM_COEFFS floats take %d: "
                      "declare it `__constant__ float c_coeffs[CM_COEFFS];`",
                      bytes, (int)(CM_COEFFS * sizeof(float)));
    ld_const = gl_ptx_count(&e, "ld.const");
    if (ld_const == 0 || !entry_names(&e, "c_coeffs"))
        gl_check_fail("%s reads no coefficients from constant memory (%d ld.const in its PTX, "
                      "%s): task 1 reads c_coeffs[k] in the kernel, where every lane of a warp "
                      "reads the same coefficient at the same time (a broadcast)",
                      kernel, ld_const,
                      entry_names(&e, "c_coeffs") ? "c_coeffs named" : "c_coeffs never named");
    gl_test_note("%d ld.const from c_coeffs (%ld bytes) in %s", ld_const, bytes, kernel);
    free(ptx);
}

GL_TEST(constant_reads_c_coeffs, GL_TECHNIQUE, 3, 10,
        "constant coefficients: ld.const from c_coeffs")
{
    /* the test tells the two apart: the given kernel has none */
    gl_given_tells_apart(baseline_ld_const("poly_global_kernel") == 0, "poly_global_kernel",
                         "has ld.const");
    GL_FOR_EACH_KERNEL("poly_constant", "poly_constant_kernel", k) check_reads_c_coeffs(k);
}

/* Does the student's library import symbol (an undefined dynamic symbol,
 * resolved in the CUDA runtime)? Asks nm; skips the test where it cannot. */
static int library_imports(const char *const *symbols, int nsymbols, char *found, size_t len)
{
    const char *so = gl_artifact("so");
    char cmd[4300], line[1024];
    int imports_cuda = 0, hit = 0, s, status;
    FILE *p;

    if (access(so, R_OK) != 0)
        gl_check_fail("%s did not compile, so there is no library to read (%s)", GL_LAB.file,
                      so);
    if (strchr(so, '\''))
        gl_skip("cannot pass %s to nm (a quote in the path)", so);
    snprintf(cmd, sizeof cmd, "nm -D --undefined-only '%s' 2>/dev/null", so);
    fflush(NULL);
    if (!(p = popen(cmd, "r")))
        gl_skip("could not run nm (binutils) to read what %s calls", so);
    while (fgets(line, sizeof line, p)) {
        /* "                 U cudaMemcpyToSymbol@libcudart.so.13" */
        char *name = strrchr(line, ' ');
        if (!name)
            continue;
        name++;
        name[strcspn(name, "@\n")] = '\0';
        imports_cuda |= !strncmp(name, "__cuda", 6); /* __cudaRegisterFatBinary: every CUDA file */
        for (s = 0; s < nsymbols; s++)
            if (!strcmp(name, symbols[s]) && !hit) {
                snprintf(found, len, "%s", name);
                hit = 1;
            }
    }
    status = pclose(p);
    if (status != 0 && !imports_cuda)
        gl_skip("nm (binutils) is not installed here, or could not read %s", so);
    if (!imports_cuda)
        gl_skip("%s does not import the CUDA runtime dynamically (built with -cudart static?): "
                "what it calls cannot be read with nm -D", so);
    return hit;
}

GL_TEST(set_coeffs_to_symbol, GL_TECHNIQUE, 2, 10, "set_coeffs: cudaMemcpyToSymbol")
{
    static const char *const copies[] = {"cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync",
                                         "cudaGetSymbolAddress"};
    char found[64] = "";
    if (!library_imports(copies, 3, found, sizeof found))
        gl_check_fail("constant_memory.cu never calls cudaMemcpyToSymbol: constant memory is "
                      "written from the host, and set_coeffs copies the coefficients into "
                      "c_coeffs with cudaMemcpyToSymbol(c_coeffs, coeffs, CM_COEFFS * "
                      "sizeof(float))");
    gl_test_note("constant_memory.cu calls %s", found);
}

/* The kernel loads only through the read-only data path (ld.global.nc) and
 * never from constant memory. */
static void check_readonly(const char *kernel, const char *what, int task)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    int loads = gl_ptx_count(&e, "ld.global"), nc = gl_ptx_count_with(&e, "ld.global", ".nc"),
        ld_const = gl_ptx_count(&e, "ld.const");
    if (ld_const)
        gl_check_fail("%s reads constant memory (%d ld.const in its PTX): task %d reads %s from "
                      "global memory, through the pointer it is given",
                      kernel, ld_const, task, what);
    if (nc == 0 || nc < loads)
        gl_check_fail("%s has %d global loads in its PTX, %d of them through the read-only path "
                      "(ld.global.nc): declare its input pointers `const ... *__restrict__` (read "
                      "only, and no other pointer writes what they point to), so that %s is "
                      "read through the read-only data cache",
                      kernel, loads, nc, what);
    gl_test_note("%d ld.global.nc, no ld.const in %s", nc, kernel);
    free(ptx);
}

GL_TEST(lookup_readonly, GL_TECHNIQUE, 2, 10, "global lookup: ld.global.nc")
{
    /* the test tells the two apart: the given lookup reads constant memory */
    gl_given_tells_apart(baseline_ld_const("lookup_constant_kernel") > 0,
                         "lookup_constant_kernel", "has no ld.const");
    GL_FOR_EACH_KERNEL("lookup_global", "lookup_global_kernel", k) check_readonly(k, "the table", 2);
}

GL_TEST(long_readonly, GL_TECHNIQUE, 2, 10, "long filter: ld.global.nc")
{
    GL_FOR_EACH_KERNEL("convolve_long", "convolve_long_kernel", k) check_readonly(k, "the taps", 3);
}

/* ---- performance: the judge's clock, fresh inputs every call ---- */

#define PERF_SETS 8 /* calls per round, each on its own input and output */

/* tests/04-constant-memory.cu: the references of the timed lookups and convolutions */
void cm_suite_lookup(float *out, const int *idx, const float *table, int n);
void cm_suite_convolve(float *out, const float *in, const float *taps, int ntaps, int n);

typedef struct {
    const char *launcher, *reference; /* reference: the kit's launcher verify compares with */
    int poly, lookup, n, ntaps;
    size_t floats;                    /* of each set's coefficients, taps or table */
    float *h_data;                    /* PERF_SETS of them, host */
    gl_buf in[PERF_SETS], data[PERF_SETS], out[PERF_SETS];
    gl_buf again, again_data, expected; /* an input and data made again, the kit's out of them */
} perf;

/* Input i of a round (x, in or idx), made on the GPU from the seed: the same again in
 * verify, whatever the launcher did to the buffer. */
static void perf_input(const perf *p, void *dst, int round, int i)
{
    if (p->lookup)
        gl_device_fill_int(dst, (size_t)p->n, 0, CM_TABLE - 1, gl_call_seed(round, i, PERF_SETS));
    else
        gl_device_fill_float(dst, (size_t)p->n + (p->poly ? 0 : p->ntaps - 1), -1.0f, 1.0f,
                             gl_call_seed(round, i, PERF_SETS));
}

/* Fresh coefficients, taps or table for each set, and where the launcher reads them from
 * constant memory, set now, before the round's inputs exist: a setter of the student's
 * runs before them, never between their making and the clock (GRADING.md rule 9). */
static void perf_setup(void *ctx, int round)
{
    perf *p = ctx;
    int i;
    for (i = 0; i < PERF_SETS; i++) {
        gl_rng rng;
        gl_rng_init(&rng, gl_call_seed(round, cm_setter_of(p->launcher) ? 0 : i, PERF_SETS),
                    "perf data");
        gl_fill_float(&rng, p->h_data + (size_t)i * p->floats, p->floats, -1.0f, 1.0f);
    }
    cm_set_for(p->launcher, p->h_data, p->ntaps);
}

/* Fresh inputs (x, in or idx, on the GPU), the set's data uploaded, poisoned outputs. */
static void perf_prepare(void *ctx, int round)
{
    perf *p = ctx;
    int i;
    for (i = 0; i < PERF_SETS; i++) {
        perf_input(p, p->in[i].ptr, round, i);
        gl_buf_upload(&p->data[i], p->h_data + (size_t)i * p->floats);
        gl_buf_poison(&p->out[i]);
    }
}

static void perf_call(void *ctx, int i)
{
    perf *p = ctx;
    if (p->poly)
        cm_poly(p->launcher, p->out[i].ptr, p->in[i].ptr, p->data[i].ptr, p->n);
    else if (p->lookup)
        cm_lookup(p->launcher, p->out[i].ptr, p->in[i].ptr, p->data[i].ptr, p->n);
    else
        cm_convolve(p->launcher, p->out[i].ptr, p->in[i].ptr, p->data[i].ptr, p->ntaps, p->n);
}

/* Every output of the round against the kit's own launcher on the same
 * input and data, made again, within CM_REL_TOL of the sum of the terms' magnitudes (a quarter
 * per tap, a half per table read, on these uniform inputs; for the polynomial, whose sum goes
 * from |c[0]| at x = 0 to sum |c[k]| at |x| = 1, the largest). */
static void perf_verify(void *ctx, int round)
{
    perf *p = ctx;
    size_t first, wrong;
    float atol = (float)(CM_REL_TOL * (p->lookup ? 0.5 * CM_LOOKUPS : 0.25 * p->ntaps));
    int i, k;
    for (i = 0; i < PERF_SETS; i++) {
        const float *h = p->h_data + (size_t)i * p->floats;
        if (p->poly) {
            double mag = 0.0;
            for (k = 0; k < CM_COEFFS; k++)
                mag += fabs((double)h[k]);
            atol = (float)(CM_REL_TOL * mag);
        }
        perf_input(p, p->again.ptr, round, i);
        gl_buf_upload(&p->again_data, h);
        if (p->poly) { /* poly_global: the coefficients by pointer, no constant copy */
            cm_poly(p->reference, p->expected.ptr, p->again.ptr, p->again_data.ptr, p->n);
            GL_CHECK_LAUNCH(p->reference);
        } else if (p->lookup) { /* the suite's own: the given lookup is the slow side */
            cm_suite_lookup(p->expected.ptr, p->again.ptr, p->again_data.ptr, p->n);
            GL_CHECK_LAUNCH("the suite's reference lookup");
        } else {
            cm_suite_convolve(p->expected.ptr, p->again.ptr, p->again_data.ptr, p->ntaps, p->n);
            GL_CHECK_LAUNCH("the suite's reference convolution");
        }
        wrong = gl_device_diff_float(p->expected.ptr, p->out[i].ptr, (size_t)p->n, atol, 0.0f,
                                     &first);
        if (wrong)
            gl_check_fail("%s is not right at n = %d in timed round %d (fresh random inputs%s), "
                          "so its speed is not graded: out is wrong at %zu of %d outputs, first "
                          "out[%zu]; every call must compute the whole output from its own input "
                          "(the correctness tests say more)",
                          p->launcher, p->n, round,
                          cm_setter_of(p->launcher) ? ", fresh constant data" : "", wrong, p->n,
                          first);
    }
}

/* Outputs of a timed call: 2^shift, or a quarter of that when the judge's
 * pool (at most half the free memory) cannot hold 2 x PERF_SETS + 3 arrays
 * of them. */
static int perf_n(int shift)
{
    int mib = (int)(((size_t)4 << shift) >> 20);
    return gl_pool_mib() >= (2 * PERF_SETS + 3) * mib + 16 ? 1 << shift : 1 << (shift - 2);
}

static void perf_begin(perf *p, const char *launcher, const char *reference, int n, int ntaps)
{
    size_t in_bytes;
    int i;
    memset(p, 0, sizeof *p);
    p->launcher = launcher;
    p->reference = reference;
    p->poly = cm_is_poly(launcher);
    p->lookup = cm_is_lookup(launcher);
    p->n = n;
    p->ntaps = ntaps;
    p->floats = p->lookup ? CM_TABLE : p->poly ? CM_COEFFS : (size_t)ntaps;
    p->h_data = gl_malloc(PERF_SETS * p->floats * sizeof(float));
    in_bytes = p->lookup ? (size_t)n * sizeof(int)
               : p->poly ? (size_t)n * sizeof(float)
                         : ((size_t)n + ntaps - 1) * sizeof(float);
    for (i = 0; i < PERF_SETS; i++) {
        p->in[i] = gl_buf_alloc(in_bytes, 0);
        p->data[i] = gl_buf_alloc(p->floats * sizeof(float), 0);
        p->out[i] = gl_buf_alloc((size_t)n * sizeof(float), 0);
    }
    p->again = gl_buf_alloc(in_bytes, 0);
    p->again_data = gl_buf_alloc(p->floats * sizeof(float), 0);
    p->expected = gl_buf_alloc((size_t)n * sizeof(float), 0);
}

static void perf_end(perf *p)
{
    int i;
    for (i = 0; i < PERF_SETS; i++) {
        gl_buf_free(&p->in[i]);
        gl_buf_free(&p->data[i]);
        gl_buf_free(&p->out[i]);
    }
    gl_buf_free(&p->again);
    gl_buf_free(&p->again_data);
    gl_buf_free(&p->expected);
    free(p->h_data);
}

/* Milliseconds per call of launcher on n outputs (ntaps taps for a convolution); a student's
 * outputs are verified against the kit's `reference` every round. */
static double ms_per_call(const char *launcher, const char *reference, int n, int ntaps)
{
    perf p;
    gl_timed t = {PERF_SETS, 5, perf_prepare, perf_call, perf_verify, perf_setup};
    int given = gl_launcher_find(launcher)->flags & GL_GIVEN;
    double ms;
    perf_begin(&p, launcher, reference, n, ntaps);
    if (given) {
        if (p.lookup) /* lookup_constant takes about 25 ms a call (H100): 4 make a long round */
            t.calls = 4;
        t.verify = NULL; /* the kit's own */
        ms = gl_time_baseline(&t, &p);
    } else {
        ms = gl_time_student(&t, &p);
    }
    perf_end(&p);
    return ms;
}

/* fast (a student's) must take at most 1 / min_ratio of slow's time (the
 * kit's), on the same problem. */
static void expect_faster(const char *fast, const char *slow, int n, int ntaps, double min_ratio,
                          const char *what, const char *why)
{
    double ts = ms_per_call(slow, slow, n, ntaps), tf = ms_per_call(fast, slow, n, ntaps);
    gl_test_margin(ts / tf, min_ratio, 1);
    if (ts < min_ratio * tf)
        gl_check_fail("at n = %d %s, %s takes %.3f ms, %.2fx faster than the given %s (%.3f ms); "
                      "it should be at least %.2gx. %s",
                      n, what, fast, tf, ts / tf, slow, ts, min_ratio, why);
    gl_test_note("n = %d %s: %s %.3f ms = %.2fx faster than %s %.3f ms (needs %.2gx)", n, what,
                 fast, tf, ts / tf, slow, ts, min_ratio);
}

GL_TEST(constant_vs_global, GL_PERFORMANCE, 4, 120, "constant coefficients faster than global")
{
    char what[32];
    snprintf(what, sizeof what, "with %d coefficients", CM_COEFFS);
    expect_faster("poly_constant", "poly_global", perf_n(24), 0, MIN_CONSTANT_OVER_GLOBAL, what,
                  "Every lane of a warp reads the same coefficient at the same time: read it "
                  "from c_coeffs[k], with the loop unrolled (#pragma unroll), so that the "
                  "coefficient is a broadcast from the constant cache, an operand of the FFMA, "
                  "and not a load from global memory; and evaluate by Horner's rule (acc = acc * "
                  "x + c[k]), one multiply-add per coefficient, as the given kernel does: a sum "
                  "of powers does two per coefficient, and the lab compares like with like");
}

GL_TEST(long_vs_constant_runtime, GL_PERFORMANCE, 4, 120,
        "1024 run-time taps: global faster than constant")
{
    expect_faster("convolve_long", "convolve_constant_runtime", perf_n(22), PERF_LONG_TAPS,
                  MIN_LONG_OVER_RUNTIME, "with 1024 run-time taps",
                  "Read the taps from global memory through `const float *__restrict__` "
                  "pointers: the read-only data cache keeps up where a long run-time loop over "
                  "constant memory does not");
}

GL_TEST(lookup_random_global_vs_constant, GL_PERFORMANCE, 4, 120,
        "random lookup: global faster than constant")
{
    expect_faster("lookup_global", "lookup_constant", perf_n(24), 0,
                  MIN_GLOBAL_OVER_CONSTANT_RANDOM, "with random indices",
                  "When the lanes of a warp read different addresses, constant memory serves "
                  "them one at a time; read the table from global memory through `const float "
                  "*__restrict__` (the read-only data cache serves them together), not from a "
                  "constant copy of it");
}

/* ---- profile: Nsight Compute counters ---- */

GL_TEST(constant_global_loads, GL_PROFILE, 5, 300,
        "constant coefficients: no global coefficient loads")
{
    static const char *const metrics[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                          "smsp__sass_inst_executed_op_global_st.sum"};
    const int n = 1 << 18; /* the counts per warp do not depend on n; SASS counters are slow */
    const char *args[] = {"poly_constant", "262144", NULL};
    double v[2], per_warp;
    gl_profile(metrics, 2, v, args);
    per_warp = v[0] / (n / 32.0);
    gl_test_margin(per_warp, MAX_LOADS_PER_WARP, 0);
    if (per_warp > MAX_LOADS_PER_WARP)
        gl_check_fail("the coefficients come from global memory: poly_constant executed %.0f "
                      "warp-level global load instructions for %d outputs, %.1f per warp of 32 "
                      "outputs, where its x takes 1 and coefficients read from c_coeffs none "
                      "(from global memory they add %d: %d in all). Read c_coeffs[k] in the "
                      "unrolled loop. Stores: %.0f",
                      v[0], n, per_warp, CM_COEFFS, CM_COEFFS + 1, v[1]);
    gl_test_note("%.0f global load instructions for %d outputs: %.1f per warp (at most %d; "
                 "global coefficients: %d); %.0f stores",
                 v[0], n, per_warp, MAX_LOADS_PER_WARP, CM_COEFFS + 1, v[1]);
}

/* Under Nsight Compute: one launcher once on N outputs (and NTAPS taps). */
static const char *run_once(int argc, char **argv)
{
    long n, ntaps = 64;
    const gl_launcher *l = argc >= 1 ? gl_launcher_find(argv[0]) : NULL;
    if (argc < 2 || argc > 3 || !l || !strcmp(l->layout, "h") || !strcmp(l->layout, "hi") ||
        gl_parse_long(argv[1], 0, 1L << 28, &n) ||
        (argc == 3 && gl_parse_long(argv[2], 1, 100000, &ntaps)))
        return "usage: LAUNCHER N [NTAPS]  (a polynomial, a convolution or a lookup; NTAPS "
               "for convolve_long and convolve_constant_runtime, default 64)";
    return check_once(argv[0], "run_once", (int)n, (int)ntaps);
}

/* One call on a small problem, to see which kernels a launcher launches (a
 * setter: the call of the launcher that reads what it sets, which calls it). */
static void probe(const char *launcher)
{
    if (!strcmp(launcher, "set_coeffs"))
        launcher = "poly_constant";
    check_once(launcher, "probe", 1000, 100);
}

/* the largest tests: 8 inputs and 8 outputs of 2^24 floats (or ints) and the expected
 * output, 64 MiB each */
const gl_lab GL_LAB = {.name = "04-constant-memory", .file = "constant_memory.cu",
                       .run_once = run_once, .probe = probe,
                       .pool_mib = (2 * PERF_SETS + 3) * 64 + 64};
