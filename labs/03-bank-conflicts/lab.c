/* lab.c: lab 03-bank-conflicts described once (lab.h): the launchers, the tile Gram problem
 * with its check and hints, and the conflict degree's patterns and check. */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*gram_fn)(float *out, const float *in, int rows);
typedef void (*gram_double_fn)(double *out, const double *in, int rows);
typedef int (*degree_fn)(const int *words, int lanes);
typedef void (*probe_fn)(int *sink, const int *words, int iters);

static long long call_gram(void *fn, const gl_arg *a)
{
    ((gram_fn)fn)((float *)a[0].p, (const float *)a[1].p, (int)a[2].i);
    return 0;
}

static long long call_gram_double(void *fn, const gl_arg *a)
{
    ((gram_double_fn)fn)((double *)a[0].p, (const double *)a[1].p, (int)a[2].i);
    return 0;
}

/* host code: words is a host array, copied to the callee */
static long long call_degree(void *fn, const gl_arg *a)
{
    return ((degree_fn)fn)((const int *)a[0].p, (int)a[1].i);
}

static long long call_probe(void *fn, const gl_arg *a)
{
    ((probe_fn)fn)((int *)a[0].p, (const int *)a[1].p, (int)a[2].i);
    return 0;
}

const gl_launcher LAB_LAUNCHERS[] = {
    {"tile_gram", "ppi", call_gram, GL_GIVEN},
    {"tile_gram_padded", "ppi", call_gram, 0},
    {"bank_conflict_degree", "hi", call_degree, GL_HOST_CODE},
    {"tile_gram_double", "ppi", call_gram_double, GL_GIVEN},
    {"tile_gram_double_padded", "ppi", call_gram_double, 0},
    {"bank_probe", "ppi", call_probe, GL_GIVEN},
    {NULL, NULL, NULL, 0},
};

void bc_gram(const char *name, float *out, const float *in, int rows)
{
    gl_arg a[] = {GL_P(out), GL_P(in), GL_I(rows)};
    gl_exec(name, a);
}

void bc_gram_double(const char *name, double *out, const double *in, int rows)
{
    gl_arg a[] = {GL_P(out), GL_P(in), GL_I(rows)};
    gl_exec(name, a);
}

int bc_degree(const int *words, int lanes)
{
    gl_arg a[] = {GL_H(words, (size_t)(lanes > 0 ? lanes : 0) * sizeof(int)), GL_I(lanes)};
    return (int)gl_exec("bank_conflict_degree", a);
}

void bc_probe(int *sink, const int *words, int iters)
{
    gl_arg a[] = {GL_P(sink), GL_P(words), GL_I(iters)};
    gl_exec("bank_probe", a);
}

int bc_is_double(const char *launcher)
{
    return strstr(launcher, "double") != NULL;
}

/* ---- tasks 1 and 3: the tile Gram matrices ---- */

/* The correctness tests' input: random floats in [-1, 1), or doubles that are not just floats
 * widened (their low bits random too). */
static void fill_input(gl_rng *rng, size_t n, int dbl, void *in)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (dbl)
            ((double *)in)[i] = gl_rng_float(rng, -1, 1) + 1e-9 * gl_rng_float(rng, -1, 1);
        else
            ((float *)in)[i] = gl_rng_float(rng, -1, 1);
    }
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes + 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
}

/* Floats: T T^T is the product of the tile (its v rows) with its transpose
 * (rows past the end are zeros), so gl_matmul_ref gives each element and its
 * FP32 error bound. */
static void ref_float(const float *in, int rows, float *ref, float *bound)
{
    float tt[BC_TILE * BC_TILE];
    int first, k, j;
    for (first = 0; first < rows; first += BC_TILE) {
        int v = rows - first < BC_TILE ? rows - first : BC_TILE;
        const float *t = in + (size_t)first * BC_TILE;
        for (k = 0; k < BC_TILE; k++)
            for (j = 0; j < BC_TILE; j++)
                tt[k * BC_TILE + j] = j < v ? t[(size_t)j * BC_TILE + k] : 0.0f;
        gl_matmul_ref(t, tt, v, BC_TILE, BC_TILE, ref + (size_t)first * BC_TILE,
                      bound + (size_t)first * BC_TILE);
    }
}

/* Doubles: summed in double as well, so the GPU's error and the reference's
 * add up: 2 gamma_33 (u = 2^-53) times the largest sum of |products|. The
 * matrix is symmetric and each element sums in the same order either way. */
static double ref_double(const double *in, int rows, double *ref)
{
    const double u = ldexp(1.0, -53), gamma = (BC_TILE + 1) * u / (1.0 - (BC_TILE + 1) * u);
    double most = 0.0;
    int first, i, j, k;
    for (first = 0; first < rows; first += BC_TILE) {
        int v = rows - first < BC_TILE ? rows - first : BC_TILE;
        const double *t = in + (size_t)first * BC_TILE;
        double *g = ref + (size_t)first * BC_TILE;
        for (i = 0; i < v; i++) {
            for (j = 0; j <= i; j++) {
                double sum = 0.0, abs_sum = 0.0;
                for (k = 0; k < BC_TILE; k++) {
                    double prod = t[(size_t)i * BC_TILE + k] * t[(size_t)j * BC_TILE + k];
                    sum += prod;
                    abs_sum += fabs(prod);
                }
                g[(size_t)i * BC_TILE + j] = g[(size_t)j * BC_TILE + i] = sum;
                if (abs_sum > most)
                    most = abs_sum;
            }
            for (j = v; j < BC_TILE; j++)
                g[(size_t)i * BC_TILE + j] = 0.0;
        }
    }
    return 2.0 * gamma * most + DBL_MIN;
}

/* Is out[i] (flat index) in a column of the last tile that stands for a row
 * past the end? */
static int past_the_end(size_t i, int rows)
{
    size_t row = i / BC_TILE, col = i % BC_TILE, first = (size_t)(rows - 1) / BC_TILE * BC_TILE;
    return row >= first && first + col >= (size_t)rows;
}

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(const gl_cmp *c, int rows)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (c->unwritten)
        return "Some elements were never written: each tile needs its block of 32 x 32 threads, "
               "and thread (r, s) writes out[first + s][r]";
    if (past_the_end(c->diff[0].index, rows))
        return "The last tile's rows past the end count as rows of zeros: store 0 in the tile "
               "for rows first + s >= rows, so that their dot products are 0";
    return "Thread (r, s) of the block writes out[first + s][r] = the sum over k of tile[s][k] * "
           "tile[r][k], after __syncthreads()";
}

/* The correctness tests' check (buf: in, out, on the GPU): every element against the host's
 * reference, each float within its own error bound, doubles within one bound for all. */
static const char *verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    static const int cols = BC_TILE;
    const bc_gram_size *z = ctx;
    size_t n = (size_t)z->rows * BC_TILE, bytes = n * (z->dbl ? sizeof(double) : sizeof(float));
    void *in = xmalloc(bytes), *ref = xmalloc(bytes), *got = xmalloc(bytes);
    float *bound = z->dbl ? NULL : xmalloc(n * sizeof(float));
    gl_cmp cmp;
    size_t wrong;
    (void)seed;
    why[0] = '\0';
    GL_CUDA(cudaMemcpy(in, buf[0], bytes, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(got, buf[1], bytes, cudaMemcpyDeviceToHost));
    if (z->dbl) {
        double atol = ref_double(in, z->rows, ref);
        wrong = gl_compare_double(ref, got, n, atol, 0.0, &cmp);
    } else {
        ref_float(in, z->rows, ref, bound);
        wrong = gl_compare_float_bound(ref, got, bound, n, &cmp);
    }
    if (wrong) {
        char d[1024];
        gl_cmp_describe(&cmp, "out", gl_index_2d, &cols, d, sizeof d);
        snprintf(why, sizeof why, "%s. %s", d, hint(&cmp, z->rows));
    }
    free(in);
    free(ref);
    free(got);
    free(bound);
    return why;
}

/* The input: the demo's (given), or made from seed: the correctness tests' on the host
 * (fill_input); the timed problem's on the GPU, floats in [-1, 1) or doubles made of pairs of
 * floats in [1, 2), whose high one makes a double in [2^-7, 2) (fresh inputs for 8 calls a
 * round: the host would take longer than the calls). */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const bc_gram_size *z = ctx;
    size_t n = (size_t)z->rows * BC_TILE, bytes = n * (z->dbl ? sizeof(double) : sizeof(float));
    void *in;
    gl_rng rng;
    (void)k; /* the input, the one buffer made */
    if (z->given) {
        GL_CUDA(cudaMemcpy(dst, z->given, bytes, cudaMemcpyHostToDevice));
    } else if (z->timed) {
        if (z->dbl)
            gl_device_fill_float(dst, 2 * n, 1.0f, 2.0f, seed);
        else
            gl_device_fill_float(dst, n, -1.0f, 1.0f, seed);
    } else {
        in = xmalloc(bytes);
        gl_rng_init(&rng, seed, "03-bank-conflicts: in");
        fill_input(&rng, n, z->dbl, in);
        GL_CUDA(cudaMemcpy(dst, in, bytes, cudaMemcpyHostToDevice));
        free(in);
    }
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const bc_gram_size *z = ctx;
    if (z->dbl)
        bc_gram_double(launcher, buf[1], buf[0], z->rows);
    else
        bc_gram(launcher, buf[1], buf[0], z->rows);
}

gl_problem bc_gram_problem(const char *launcher, void *size)
{
    const double u = ldexp(1.0, -24), gamma = (BC_TILE + 1) * u / (1.0 - (BC_TILE + 1) * u);
    bc_gram_size *z = size;
    gl_cmp_kind kind;
    size_t elem, bytes;
    gl_problem p;
    z->dbl = bc_is_double(launcher);
    kind = z->dbl ? GL_CMP_DOUBLE : GL_CMP_FLOAT;
    elem = z->dbl ? sizeof(double) : sizeof(float);
    bytes = (size_t)z->rows * BC_TILE * elem;
    p = (gl_problem){.what = z->what, .sets = 8, .rounds = 5, .inputs = 1, .outputs = 1,
                     .ctx = z, .make = problem_make, .call = problem_call,
                     .inputs_read_only = 1};
    snprintf(z->what, sizeof z->what, "on %d rows", z->rows);
    /* a missing row bound writes the last tile whole: up to 31 rows past the end */
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = bytes, .cmp = kind,
                                .outside = "in is the read-only input",
                                .guard = BC_TILE * BC_TILE * elem};
    p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes, .cmp = kind, .row = BC_TILE,
                                .outside = "the last tile has fewer than 32 rows when rows is "
                                           "not a multiple of 32; warp s writes row first + s of "
                                           "out only if first + s < rows",
                                .guard = BC_TILE * BC_TILE * elem};
    /* The timed problem's reference is the kit's unpadded kernel of the type, on the GPU (the
     * host's of 2^20 rows would take seconds a call). Two right FP32 results of one element
     * differ by at most twice the bound of a dot product of 32 terms (gl_matmul.h), 2 gamma_33
     * (u = 2^-24) times the sum of |products|, below 32 here; doubles (positive inputs): 1e-12
     * relative, far above 2 gamma_33 (u = 2^-53). A dropped or repeated product misses them
     * by far. */
    if (!z->timed) {
        p.verify = verify;
    } else if (z->dbl) {
        p.reference = "tile_gram_double";
        p.buf[1].atol = p.buf[1].rtol = 1e-12;
    } else {
        p.reference = "tile_gram";
        p.buf[1].atol = 2.0 * gamma * BC_TILE;
    }
    return p;
}

void bc_gram_make(gl_rng *rng, int rows, int dbl, bc_problem *p)
{
    size_t n = (size_t)rows * BC_TILE;
    p->rows = rows;
    p->dbl = dbl;
    p->in = xmalloc(n * (dbl ? sizeof(double) : sizeof(float)));
    fill_input(rng, n, dbl, p->in);
}

void bc_gram_free(bc_problem *p)
{
    free(p->in);
    p->in = NULL;
}

const char *bc_gram_check(const char *launcher, const bc_problem *p)
{
    bc_gram_size z = {.rows = p->rows, .given = p->in};
    gl_problem g = bc_gram_problem(launcher, &z);
    return gl_problem_check(launcher, &g, 0);
}

/* ---- the demo's probe: a pattern's cost ---- */

static void probe_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const bc_probe_size *z = ctx;
    int words[32], l;
    (void)k;
    (void)seed; /* the pattern, the same every time */
    for (l = 0; l < 32; l++)
        words[l] = z->first + l * z->stride;
    GL_CUDA(cudaMemcpy(dst, words, sizeof words, cudaMemcpyHostToDevice));
}

static void probe_call(void *ctx, const char *launcher, void *const *buf)
{
    (void)ctx;
    (void)launcher; /* bank_probe */
    bc_probe(buf[1], buf[0], BC_PROBE_ITERS);
}

gl_problem bc_probe_problem(const char *launcher, void *size)
{
    gl_problem p = {.what = "on a pattern of 32 words", .inputs = 1, .outputs = 1, .ctx = size,
                    .make = probe_make, .call = probe_call, .reference = "bank_probe"};
    (void)launcher;
    p.buf[0] = (gl_problem_buf){.name = "words", .bytes = 32 * sizeof(int)};
    p.buf[1] = (gl_problem_buf){.name = "sink", .bytes = sizeof(int), .scratch = 1};
    return p;
}

/* ---- task 2: the conflict degree ---- */

/* The patterns of the random test, each with the wavefronts it takes, worked out once: a
 * count of the kit's own here would be task 2's answer, handed out. */
static const unsigned char random_wavefronts[BC_RANDOM_PATTERNS] = {
    3, 2, 3, 3, 2, 1, 3, 4, 3, 4, 3, 2, 1, 4, 3, 1, 1, 3, 2, 3, 2, 2, 2, 3, 2, 4, 1, 1, 2, 3,
    2, 3, 2, 3, 2, 2, 2, 2, 2, 2, 3, 2, 2, 3, 2, 3, 2, 2, 2, 3, 1, 2, 3, 1, 3, 2, 3, 1, 2, 1,
    2, 1, 3, 2, 1, 2, 5, 3, 3, 1, 2, 2, 2, 1, 3, 2, 1, 1, 3, 2, 3, 3, 3, 2, 1, 3, 1, 1, 3, 2,
    1, 3, 1, 4, 2, 3, 2, 2, 1, 1, 3, 2, 2, 3, 2, 4, 2, 3, 3, 2, 2, 4, 2, 2, 3, 3, 2, 4, 3, 2,
    3, 3, 3, 3, 1, 3, 1, 2, 2, 1, 2, 1, 3, 3, 2, 2, 2, 2, 3, 3, 1, 2, 2, 1, 1, 3, 1, 5, 4, 2,
    3, 1, 4, 1, 2, 1, 3, 3, 2, 2, 2, 2, 2, 3, 2, 2, 1, 2, 1, 2, 2, 2, 2, 2, 2, 1, 1, 3, 3, 1,
    2, 2, 2, 2, 2, 2, 1, 2, 1, 2, 3, 3, 2, 4, 2, 1, 2, 3, 4, 2, 1, 3, 3, 1, 3, 1, 2, 3, 3, 1,
    3, 1, 1, 4, 1, 3, 3, 2, 3, 2, 2, 1, 3, 3, 1, 3, 3, 2, 3, 1, 2, 3, 2, 2, 2, 3, 3, 2, 1, 2,
    1, 3, 2, 2, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 3, 3, 2, 1, 3, 2, 2, 2, 4, 2, 1, 3, 1, 1, 2,
    2, 3, 2, 2, 2, 1, 2, 2, 2, 1, 3, 2, 3, 3, 3, 1, 1, 3, 1, 2, 3, 3, 3, 3, 3, 1, 3, 2, 3, 2
};

int bc_random_pattern(int t, int *words, int *lanes)
{
    gl_rng rng;
    int l, span = t % 3 ? 256 : 2048;
    gl_rng_init(&rng, (uint64_t)t, "03-bank-conflicts: an access pattern");
    *lanes = 1 + (int)gl_rng_range(&rng, 0, 31);
    for (l = 0; l < *lanes; l++)
        words[l] = (int)gl_rng_range(&rng, 0, span - 1);
    return random_wavefronts[t];
}

const char *bc_degree_check(const char *what, const int *words, int lanes, int want)
{
    static char why[1024];
    int got = bc_degree(words, lanes), i;
    char list[400];
    size_t w = 0;
    why[0] = '\0';
    if (got == want)
        return why;
    if (lanes == 0) {
        snprintf(why, sizeof why, "bank_conflict_degree with 0 lanes returned %d, not 0", got);
        return why;
    }
    list[0] = '\0';
    for (i = 0; i < lanes && w < sizeof list - 8; i++)
        w += (size_t)snprintf(list + w, sizeof list - w, "%s%d", i ? " " : "", words[i]);
    snprintf(why, sizeof why,
             "bank_conflict_degree for %s (%d lanes reading words %s) returned %d; the access "
             "takes %d wavefront%s. %s",
             what, lanes, list, got, want, want == 1 ? "" : "s",
             want == 1 && got > 1
                 ? "Lanes reading the same word share it: a broadcast, not a conflict"
             : want == 1 ? "With no two different words in a bank, one wavefront serves the warp"
                         : "Count, for each bank (word % 32), the different words read in it; "
                           "the busiest bank sets the count");
    return why;
}
