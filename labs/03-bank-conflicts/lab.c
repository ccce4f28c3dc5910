/* lab.c: lab 03-bank-conflicts described once (lab.h): the launchers, the tile Gram problem
 * with its check and hints, and the conflict degree's check. */
#include "lab.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GL_INVOKER(call_gram, tile_gram, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_double, tile_gram_double, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_probe, bank_probe, a, a[0].p, a[1].p, (int)a[2].i)

/* host code: words is a host array, copied to the callee */
static long long call_degree(void *fn, const gl_arg *a)
{
    return ((int (*)(const int *, int))fn)(a[0].p, (int)a[1].i);
}

const gl_launcher LAB_LAUNCHERS[] = {
    {"tile_gram", "ppi", call_gram, GL_GIVEN},
    {"tile_gram_padded", "ppi", call_gram, 0},
    {"bank_conflict_degree", "hi", call_degree, GL_HOST_CODE},
    {"tile_gram_double", "ppi", call_double, GL_GIVEN},
    {"tile_gram_double_padded", "ppi", call_double, 0},
    {"bank_probe", "ppi", call_probe, GL_GIVEN},
    {NULL, NULL, NULL, 0},
};

/* ---- tasks 1 and 3: the tile Gram matrices ---- */

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(const gl_cmp *c, int rows)
{
    size_t i = c->diff[0].index, last = (size_t)(rows - 1) / BC_TILE * BC_TILE;
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (c->unwritten)
        return "Some elements were never written: each tile needs its block of 32 x 32 threads, "
               "and thread (r, s) writes out[first + s][r]";
    if (i / BC_TILE >= last && last + i % BC_TILE >= (size_t)rows) /* a row past the end */
        return "The last tile's rows past the end count as rows of zeros: store 0 in the tile "
               "for rows first + s >= rows, so that their dot products are 0";
    return "Thread (r, s) of the block writes out[first + s][r] = the sum over k of tile[s][k] * "
           "tile[r][k], after __syncthreads()";
}

/* in's element i, a float or a double */
static double element(const void *in, int dbl, size_t i)
{
    return dbl ? ((const double *)in)[i] : ((const float *)in)[i];
}

/* The correctness tests' check (buf: in, out, on the GPU): every element against the host's
 * reference, summed in double (a row past the last one is a row of zeros). A float within its own
 * FP32 error bound (gl_matmul.h: T T^T is a matrix product); a double within 2 gamma_33 (u = 2^-53)
 * times the largest sum of |products|: the GPU's error and the reference's. */
static const char *verify(void *ctx, void *const *buf, unsigned long long seed)
{
    static char why[2048];
    const double u = ldexp(1.0, -53), gamma = (BC_TILE + 1) * u / (1.0 - (BC_TILE + 1) * u);
    const bc_gram_size *z = ctx;
    size_t n = (size_t)z->rows * BC_TILE, bytes = n * (z->dbl ? sizeof(double) : sizeof(float));
    void *in = gl_host_alloc(2 * bytes), *got = (char *)in + bytes;
    double *ref = gl_host_alloc(n * sizeof(double)), most = 0.0;
    float *ref_float = gl_host_alloc(2 * n * sizeof(float)), *bound = ref_float + n;
    char found[1024];
    gl_cmp cmp;
    (void)seed; /* every element is compared */
    GL_CUDA(cudaMemcpy(in, buf[0], bytes, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(got, buf[1], bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) { /* out[row][j]: row's dot product with the tile's row j */
        size_t row = i / BC_TILE, other = row / BC_TILE * BC_TILE + i % BC_TILE;
        double sum = 0.0, abs_sum = 0.0;
        for (size_t k = 0; other < (size_t)z->rows && k < BC_TILE; k++) {
            double prod = element(in, z->dbl, row * BC_TILE + k) *
                          element(in, z->dbl, other * BC_TILE + k);
            sum += prod;
            abs_sum += fabs(prod);
        }
        ref[i] = sum;
        ref_float[i] = (float)sum;
        bound[i] = gl_matmul_bound(BC_TILE, abs_sum);
        most = fmax(most, abs_sum);
    }
    size_t wrong = z->dbl ? gl_compare_double(ref, got, n, 2.0 * gamma * most + DBL_MIN, 0.0, &cmp)
                          : gl_compare_float_bound(ref_float, got, bound, n, &cmp);
    why[0] = '\0';
    if (wrong) {
        gl_cmp_describe(&cmp, "out", gl_index_2d, &(int){BC_TILE}, found, sizeof found);
        snprintf(why, sizeof why, "%s. %s", found, hint(&cmp, z->rows));
    }
    free(in);
    free(ref);
    free(ref_float);
    return why;
}

/* The input, made from seed: floats in [-1, 1) on the GPU; the correctness tests' doubles on
 * the host, not just floats widened (their low bits random too); the timed problem's on the
 * GPU, made of pairs of floats in [1, 2), whose high one makes a double in [2^-7, 2) (fresh
 * inputs for 8 calls a round: the host would take longer than the calls). */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const bc_gram_size *z = ctx;
    size_t n = (size_t)z->rows * BC_TILE;
    (void)k; /* the input, the one buffer made */
    if (!z->dbl) {
        gl_device_fill_float(dst, n, -1.0f, 1.0f, seed);
    } else if (z->timed) {
        gl_device_fill_float(dst, 2 * n, 1.0f, 2.0f, seed);
    } else {
        double *in = gl_host_alloc(n * sizeof(double));
        gl_rng rng;
        gl_rng_init(&rng, seed, "03-bank-conflicts: in");
        for (size_t i = 0; i < n; i++)
            in[i] = gl_rng_float(&rng, -1, 1) + 1e-9 * gl_rng_float(&rng, -1, 1);
        GL_CUDA(cudaMemcpy(dst, in, n * sizeof(double), cudaMemcpyHostToDevice));
        free(in);
    }
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    gl_arg a[] = {GL_P(buf[1]), GL_P(buf[0]), GL_I(((const bc_gram_size *)ctx)->rows)};
    gl_exec(launcher, a);
}

gl_problem bc_problem(const char *launcher, void *size)
{
    const double u = ldexp(1.0, -24), gamma = (BC_TILE + 1) * u / (1.0 - (BC_TILE + 1) * u);
    bc_gram_size *z = size;
    if (!strcmp(launcher, "bank_probe"))
        return (gl_problem){.what = ""}; /* the demo's probe, called on arguments of its own */
    z->dbl = strstr(launcher, "double") != NULL;
    gl_cmp_kind kind = z->dbl ? GL_CMP_DOUBLE : GL_CMP_FLOAT;
    size_t elem = z->dbl ? sizeof(double) : sizeof(float), bytes = (size_t)z->rows * BC_TILE * elem;
    /* The timed problem's reference is the kit's unpadded kernel of the type, on the GPU (the
     * host's of 2^20 rows would take seconds a call). Two right FP32 results of one element
     * differ by at most twice the bound of a dot product of 32 terms (gl_matmul.h), 2 gamma_33
     * (u = 2^-24) times the sum of |products|, below 32 here; doubles (positive inputs): 1e-12
     * relative, far above 2 gamma_33 (u = 2^-53). A dropped or repeated product misses them
     * by far. */
    gl_problem p = {.what = z->what, .sets = 8, .rounds = 5, .inputs = 1, .outputs = 1,
                    .ctx = z, .make = problem_make, .call = problem_call, .inputs_read_only = 1,
                    .verify = z->timed ? NULL : verify,
                    .reference = !z->timed ? NULL : z->dbl ? "tile_gram_double" : "tile_gram",
                    .work = z->timed ? 0.0 : 2.0 * (double)bytes}; /* the demo's: in + out */
    snprintf(z->what, sizeof z->what, "on %d rows", z->rows);
    /* a missing row bound writes the last tile whole: up to 31 rows past the end */
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = bytes, .cmp = kind,
                                .outside = "in is the read-only input",
                                .guard = BC_TILE * BC_TILE * elem};
    p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes, .cmp = kind, .row = BC_TILE,
                                .atol = !z->timed ? 0.0 : z->dbl ? 1e-12 : 2.0 * gamma * BC_TILE,
                                .rtol = z->timed && z->dbl ? 1e-12 : 0.0,
                                .outside = "the last tile has fewer than 32 rows when rows is "
                                           "not a multiple of 32; warp s writes row first + s of "
                                           "out only if first + s < rows",
                                .guard = BC_TILE * BC_TILE * elem};
    return p;
}

/* ---- task 2: the conflict degree ---- */

const char *bc_degree_check(const char *what, const int *words, int lanes, int want, int *got)
{
    static char why[1024];
    gl_arg a[] = {GL_H(words, (size_t)(lanes > 0 ? lanes : 0) * sizeof(int)), GL_I(lanes)};
    char list[400] = "";
    size_t w = 0;
    *got = (int)gl_exec("bank_conflict_degree", a);
    why[0] = '\0';
    if (*got != want && lanes == 0)
        snprintf(why, sizeof why, "bank_conflict_degree with 0 lanes returned %d, not 0", *got);
    if (*got == want || lanes == 0)
        return why;
    for (int i = 0; i < lanes && w < sizeof list - 8; i++)
        w += (size_t)snprintf(list + w, sizeof list - w, "%s%d", i ? " " : "", words[i]);
    snprintf(why, sizeof why,
             "bank_conflict_degree for %s (%d lanes reading words %s) returned %d; the access "
             "takes %d wavefront%s. %s",
             what, lanes, list, *got, want, want == 1 ? "" : "s",
             want == 1 && *got > 1
                 ? "Lanes reading the same word share it: a broadcast, not a conflict"
             : want == 1 ? "With no two different words in a bank, one wavefront serves the warp"
                         : "Count, for each bank (word % 32), the different words read in it; "
                           "the busiest bank sets the count");
    return why;
}
