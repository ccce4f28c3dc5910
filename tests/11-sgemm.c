/* 11-sgemm.c: the grader's suite for lab 11-sgemm.
 *
 *   correctness  the four launchers on tiny, odd and tile-sized shapes, on the
 *                128-bit path (k and n multiples of 4) and the scalar one, on
 *                misaligned pointers; against a CPU reference in double with
 *                the FP32 error bound of each element (gl_matmul.h); the
 *                launcher returns at once
 *   technique    from the PTX and the ptxas report: shared tiles, barriers,
 *                multiply-adds per shared load (the register reuse of tasks 1
 *                and 2), 128-bit global and shared loads (tasks 3 and 4), two
 *                buffers (task 4), and no local memory in the register-tiled
 *                kernels
 *   performance  at 4096^3, one run: each step against the one before, and
 *                tasks 3 and 4 as a share of cuBLAS FP32 (the lab's given
 *                sgemm_cublas, measured in the same process)
 *   profile      shared-memory wavefronts per load instruction of task 3
 *                (Nsight Compute): the quadrants' 128-bit loads take the
 *                minimum, an 8 x 8 square per thread conflicts on B */
#include "grader.h"
#include "inspect.h"

#include "gpulabs.h"
#include "sgemm.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sgemm_fn)(float *c, const float *a, const float *b, int m, int n, int k);

/* Thresholds. The performance ones are time ratios at 4096^3 in one run,
 * set well inside the measured effect (README.md has the numbers; the
 * comments give the NVIDIA H200's). A verdict must not flip between runs. */
#define MIN_1D_OVER_TILED 1.5             /* H200: 1.94 */
#define MIN_2D_OVER_1D 1.5                /* H200: 1.88 */
#define MIN_VECTORIZED_OVER_2D 1.08       /* H200: 1.17 */
#define MIN_VECTORIZED_PCT_OF_CUBLAS 55.0 /* H200: 73.6% */
#define MIN_PREFETCH_PCT_OF_CUBLAS 65.0   /* H200: 83.5% */
/* Multiply-adds per shared-load instruction in the PTX (static counts): the
 * given 32 x 32 tiled kernel has 0.5, task 1's reference 0.89 (TM1 = 8 FMAs
 * for 8 + 1 loads), task 2's 4 (64 FMAs for 16 loads). */
#define MIN_1D_FMA_PER_SHARED_LOAD 0.75
#define MIN_2D_FMA_PER_SHARED_LOAD 2.0
/* Shared-memory wavefronts per load instruction of sgemm_vectorized. A
 * wavefront returns at most 128 bytes: a warp's 128-bit load returns 512, so
 * it takes at least 4 wavefronts, one per quarter-warp (8 threads x 16
 * bytes), unless neighbouring threads read the same float4 (a broadcast),
 * which halves that to 2; within a quarter-warp, float4 in the same banks at
 * different addresses add wavefronts (conflicts). Per step i a warp (two
 * values of ty, tx 0 to 15) issues two loads of A, as[i][ty * 4] and
 * as[i][64 + ty * 4] (2 distinct float4, each read by a whole half-warp: 2
 * wavefronts each), and two of B, bs[i][tx * 4] and bs[i][64 + tx * 4] (16
 * consecutive float4, 8 per quarter-warp in a 128-byte span: 4 wavefronts
 * each, no conflict): (2 + 2 + 4 + 4) / 4 = 3.00, the minimum for these
 * accesses, and the H200 measured 3.00 (0 bank conflicts). An 8 x 8 square
 * per thread reads B at bs[i][tx * 8] and bs[i][tx * 8 + 4]: a quarter-warp's
 * 8 float4 lie 32 bytes apart, 256 bytes, 2 wavefronts per quarter-warp, 8 per
 * load: (2 + 2 + 8 + 8) / 4 = 5.00, measured
 * on the H200 by the wrong solution vectorized_square_tile. */
#define MAX_VECTORIZED_WAVEFRONTS 3.5

#define PERF_DIM 4096          /* the performance tests' m = n = k */
#define FULL_CHECK (1 << 20)   /* every element of C up to this m * n; a sample above */
#define SAMPLE_RANDOM 4096     /* the sample: C's first and last rows and columns, and
                                  this many more (gl_matmul_check) */

/* ---- inputs, reference, checks ---- */

typedef struct {
    const char *launcher;
    int task;
} lab_fn;

/* What usually causes a wrong C, per task, in the lab's terms. */
static const char *hint(const char *launcher, const gl_cmp *c)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO?";
    if (c->unwritten) {
        if (strstr(launcher, "vectorized") || strstr(launcher, "prefetch"))
            return "Some elements of C were never written: each thread stores four quadrants, "
                   "rows ty * 4 and 64 + ty * 4, columns tx * 4 and 64 + tx * 4 of the block's "
                   "tile; the edge tests compare with m and n, element by element";
        return "Some elements of C were never written: does every thread store all of its "
               "results, at the right rows and columns of the block's tile, and do the edge "
               "tests compare with m and n?";
    }
    if (strstr(launcher, "1d"))
        return "Wrong values: thread t owns rows (t / BN1) * TM1 .. + TM1 - 1 of column t % BN1; "
               "the tiles are zero outside A and B, and a __syncthreads() follows both the "
               "loads and the math of every step";
    if (strstr(launcher, "2d"))
        return "Wrong values: thread (ty, tx) owns rows ty * TM .. and columns tx * TN .. of the "
               "block's tile; the tiles are zero outside A and B (the last tile of k is "
               "partial), and a __syncthreads() follows both the loads and the math";
    if (strstr(launcher, "vectorized"))
        return "Wrong values: as is A's tile transposed (as[i][r] = A(row0 + r, k0 + i)), so "
               "a float4 of as[i][ty * 4] holds four rows; the quadrant at +64 rows and columns "
               "uses acc[r][q] with r or q >= 4; past the edges load4 gives zeros";
    return "Wrong values: the next tile goes into the other buffer (buf ^ 1), the math reads "
           "buffer buf, and every tile, the last one too, is used once";
}

/* A random matrix of rows x cols floats in [-1, 1]. */
static float *random_matrix(gl_rng *rng, size_t count)
{
    float *h = gl_malloc(count * sizeof(float));
    gl_fill_float(rng, h, count, -1.0f, 1.0f);
    return h;
}

/* Runs launcher once on m x n x k, with a, b and c that many floats past a
 * 16-byte boundary, and checks everything about the result. Returns "" or
 * why not (a static buffer). */
static const char *run_and_check(sgemm_fn fn, const char *launcher, int m, int n, int k,
                                 int a_off, int b_off, int c_off)
{
    static char why[2048];
    size_t na = (size_t)m * k + a_off, nb = (size_t)k * n + b_off, nc = (size_t)m * n + c_off;
    /* a missing edge test writes up to a block tile (128 rows or columns) too far */
    size_t guard = (size_t)BM * (size_t)(n + BN) * sizeof(float) + 4096;
    gl_buf a = gl_buf_alloc(na * sizeof(float), 0), b = gl_buf_alloc(nb * sizeof(float), 0),
           c = gl_buf_alloc(nc * sizeof(float), guard);
    float *h_a, *h_b, *h_c = gl_malloc(nc * sizeof(float)), *h_back;
    gl_guard_report g;
    gl_cmp cmp;
    gl_rng rng;
    int i;

    why[0] = '\0';
    gl_test_rng(&rng);
    h_a = random_matrix(&rng, na);
    h_b = random_matrix(&rng, nb);
    gl_buf_upload(&a, h_a);
    gl_buf_upload(&b, h_b);
    gl_buf_poison(&c);
    fn((float *)c.ptr + c_off, (const float *)a.ptr + a_off, (const float *)b.ptr + b_off, m, n,
       k);
    GL_CHECK_LAUNCH(launcher);
    if (gl_buf_check_guards(&c, &g)) {
        char d[512];
        gl_guard_describe(&g, c.bytes, sizeof(float), "C's allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: a store of the last, partial tiles is missing its edge "
                 "test (row < m, column < n)", d);
    } else if (gl_buf_check_guards(&a, &g) || gl_buf_check_guards(&b, &g)) {
        snprintf(why, sizeof why, "wrote outside A or B, which are read-only inputs");
    } else {
        gl_buf_download(&c, h_c);
        h_back = gl_malloc((na > nb ? na : nb) * sizeof(float));
        gl_buf_download(&a, h_back);
        if (memcmp(h_back, h_a, na * sizeof(float)) != 0)
            snprintf(why, sizeof why, "changed A: the inputs are read-only");
        gl_buf_download(&b, h_back);
        if (!why[0] && memcmp(h_back, h_b, nb * sizeof(float)) != 0)
            snprintf(why, sizeof why, "changed B: the inputs are read-only");
        free(h_back);
        for (i = 0; !why[0] && i < c_off; i++) {
            unsigned bits;
            memcpy(&bits, &h_c[i], sizeof bits);
            if (bits != 0xffffffffu)
                snprintf(why, sizeof why, "wrote c[%d], before C's first element: only C's "
                         "m * n elements are written", i - c_off);
        }
        if (!why[0] && gl_matmul_check(h_a + a_off, h_b + b_off, h_c + c_off, m, n, k, FULL_CHECK,
                                        SAMPLE_RANDOM, &rng, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, "C", gl_index_2d, &n, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d, hint(launcher, &cmp));
        }
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(h_a);
    free(h_b);
    free(h_c);
    return why;
}

typedef struct {
    int m, n, k;
} shape;

static void check(const char *launcher, const shape *shapes, int nshapes, int a_off, int b_off,
                  int c_off)
{
    sgemm_fn fn = (sgemm_fn)gl_submission_fn(launcher);
    int s;
    for (s = 0; s < nshapes; s++) {
        const shape *p = &shapes[s];
        const char *why = run_and_check(fn, launcher, p->m, p->n, p->k, a_off, b_off, c_off);
        if (*why)
            gl_check_fail("%s with m = %d, n = %d, k = %d%s: %s", launcher, p->m, p->n, p->k,
                          a_off ? ", a one float past a 16-byte boundary"
                          : b_off ? ", b one float past a 16-byte boundary"
                          : c_off ? ", c one float past a 16-byte boundary" : "",
                          why);
    }
}

/* tiny ones, k = 0 (C = 0), exactly one 128 x 128 x 8 tile */
static const shape small[] = {{1, 1, 1}, {1, 1, 300}, {7, 5, 0}, {4, 4, 1024}, {128, 128, 8}};
/* n or k not a multiple of 4 (the scalar path), nor of the tiles */
static const shape odd[] = {{129, 127, 9}, {300, 301, 302}, {257, 1000, 33}};
/* k and n multiples of 4 (the 128-bit path); m, n, k not multiples of the tiles */
static const shape vector_path[] = {{256, 256, 256}, {260, 132, 68}};

static void check_misaligned(const char *launcher)
{
    check(launcher, &vector_path[1], 1, 1, 0, 0);
    check(launcher, &vector_path[1], 1, 0, 1, 0);
    check(launcher, &vector_path[1], 1, 0, 0, 1);
}

#define CORRECTNESS(fn)                                                                       \
    GL_TEST(fn##_small)                                                                       \
    {                                                                                         \
        check("sgemm_" #fn, small, 5, 0, 0, 0);                                               \
    }                                                                                         \
    GL_TEST(fn##_odd_sizes)                                                                   \
    {                                                                                         \
        check("sgemm_" #fn, odd, 3, 0, 0, 0);                                                 \
    }                                                                                         \
    GL_TEST(fn##_vector_path)                                                                 \
    {                                                                                         \
        check("sgemm_" #fn, vector_path, 2, 0, 0, 0);                                         \
    }                                                                                         \
    GL_TEST(fn##_misaligned)                                                                  \
    {                                                                                         \
        check_misaligned("sgemm_" #fn);                                                       \
    }

CORRECTNESS(blocktiled_1d)
CORRECTNESS(blocktiled_2d)
CORRECTNESS(vectorized)
CORRECTNESS(prefetch)

/* The launcher only enqueues its kernel (gl_expect_queued). */
typedef struct {
    sgemm_fn fn;
    float *c;
    const float *a, *b, *ref, *bound;
    int dim;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    q->fn(q->c, q->a, q->b, q->dim, q->dim, q->dim);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    size_t n = (size_t)q->dim * q->dim;
    float *h = gl_malloc(n * sizeof(float));
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->c, n * sizeof(float), cudaMemcpyDeviceToHost));
    right = gl_compare_float_bound(q->ref, h, q->bound, n, &cmp) == 0;
    free(h);
    return right;
}

GL_TEST(prefetch_async)
{
    const int dim = 512;
    size_t n = (size_t)dim * dim, bytes = n * sizeof(float);
    float *h_a, *h_b, *h_ref = gl_malloc(bytes), *h_bound = gl_malloc(bytes);
    gl_buf staged = gl_buf_alloc(bytes, 0), a = gl_buf_alloc(bytes, 0),
           b = gl_buf_alloc(bytes, 0), c = gl_buf_alloc(bytes, 0);
    queued q = {(sgemm_fn)gl_submission_fn("sgemm_prefetch"), c.ptr, a.ptr, b.ptr, h_ref,
                h_bound, dim};
    gl_queue_buffers qb = {a.ptr, staged.ptr, bytes, c.ptr, bytes};
    gl_rng rng;

    gl_test_rng(&rng);
    h_a = random_matrix(&rng, n);
    h_b = random_matrix(&rng, n);
    gl_matmul_ref(h_a, h_b, dim, dim, dim, h_ref, h_bound);
    gl_buf_upload(&staged, h_a); /* A arrives only after the 300 ms wait */
    gl_buf_upload(&b, h_b);
    gl_expect_queued("sgemm_prefetch", queued_launch, queued_right, &q, &qb);
    gl_buf_free(&staged);
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(h_a);
    free(h_b);
    free(h_ref);
    free(h_bound);
}

/* ---- technique: read from the PTX and the ptxas report, no GPU needed ---- */

/* Total bytes of the kernel's __shared__ arrays, and ptxas's count. */
static long shared_total(const char *kernel, const char *lesson)
{
    gl_ptx_entry e;
    gl_ptx_shared sh[8];
    char *ptx = gl_kernel_ptx(kernel, &e);
    long total = 0;
    int i, n = gl_ptx_shared_arrays(ptx, &e, sh, 8);
    for (i = 0; i < n; i++) {
        if (sh[i].bytes < 0)
            gl_check_fail("%s's tiles are extern (dynamic) shared memory: declare them with "
                          "their sizes, so that their shapes can be checked", kernel);
        total += sh[i].bytes;
    }
    free(ptx);
    if (total == 0)
        gl_check_fail("%s has no __shared__ array. %s", kernel, lesson);
    return total;
}

static void ptxas_usage(const char *kernel, gl_ptxas_usage *u)
{
    char *report = gl_read_file(gl_artifact("log"));
    if (!report || gl_ptxas_usage_of(report, kernel, u) != 0)
        gl_check_fail("grader: no ptxas report for %s in %s", kernel, gl_artifact("log"));
    free(report);
}

/* The tiles: both in shared memory, used (ptxas reserves them), with a
 * barrier after the loads and one after the math. */
static void check_tiles(const char *kernel, long min_bytes, const char *tiles, int task)
{
    char lesson[256];
    gl_ptxas_usage u;
    gl_ptx_entry e;
    char *ptx;
    long bytes;
    snprintf(lesson, sizeof lesson, "Task %d stages %s in shared memory", task, tiles);
    bytes = shared_total(kernel, lesson);
    if (bytes < min_bytes)
        gl_check_fail("%s's __shared__ arrays have %ld bytes in all, less than %s (%ld bytes)",
                      kernel, bytes, tiles, min_bytes);
    ptxas_usage(kernel, &u);
    if (u.smem_bytes < min_bytes)
        gl_check_fail("%s declares %ld bytes of __shared__ tiles, but ptxas reserves only %ld: "
                      "they are not all used. %s",
                      kernel, bytes, u.smem_bytes, lesson);
    ptx = gl_kernel_ptx(kernel, &e);
    if (gl_ptx_barriers(&e) < 2)
        gl_check_fail("%s has %d barriers (__syncthreads) in its PTX: it needs one after the "
                      "tiles are loaded, before any thread reads what another wrote, and one "
                      "after the math, before the next step overwrites the tiles",
                      kernel, gl_ptx_barriers(&e));
    free(ptx);
}

/* Multiply-adds per shared-load instruction, static counts in the PTX. */
static double fma_per_shared_load(const gl_ptx_entry *e, int *fma, int *loads)
{
    *fma = gl_ptx_count(e, "fma.rn.f32");
    *loads = gl_ptx_count(e, "ld.shared");
    return *loads > 0 ? (double)*fma / *loads : 0.0;
}

GL_TEST(blocktiled_1d_register_reuse)
{
    gl_ptx_entry e;
    char *ptx;
    int fma, loads, given_fma, given_loads;
    double r, given;

    check_tiles("sgemm_blocktiled_1d_kernel", (long)(BM1 * BK1 + BK1 * BN1) * 4,
                "a BM1 x BK1 tile of A and a BK1 x BN1 tile of B", 1);
    ptx = gl_read_file(gl_baseline_ptx());
    if (!ptx || gl_ptx_entry_find(ptx, "sgemm_tiled_kernel", &e) != 0)
        gl_check_fail("grader: the baselines' PTX (%s) is missing: rebuild the kit with make",
                      gl_baseline_ptx());
    given = fma_per_shared_load(&e, &given_fma, &given_loads);
    free(ptx);
    if (given >= MIN_1D_FMA_PER_SHARED_LOAD)
        gl_check_fail("grader: the given sgemm_tiled_kernel has %.2f multiply-adds per shared "
                      "load in its PTX on this compiler: the test cannot tell it from task 1",
                      given);
    ptx = gl_kernel_ptx("sgemm_blocktiled_1d_kernel", &e);
    r = fma_per_shared_load(&e, &fma, &loads);
    free(ptx);
    if (r < MIN_1D_FMA_PER_SHARED_LOAD)
        gl_check_fail("sgemm_blocktiled_1d_kernel has %d fma.rn.f32 for %d shared loads in its "
                      "PTX (%.2f per load, like the given tiled kernel's %.2f): read each value "
                      "of B into a register once per step i and use it for the thread's TM1 = "
                      "%d results, in a float[TM1] indexed by unrolled loops",
                      fma, loads, r, given, TM1);
    gl_test_note("%.2f multiply-adds per shared load (needs %.2f; the given tiled kernel %.2f)",
                 r, MIN_1D_FMA_PER_SHARED_LOAD, given);
}

GL_TEST(blocktiled_2d_register_tile)
{
    gl_ptx_entry e;
    char *ptx;
    int fma, loads;
    double r;

    check_tiles("sgemm_blocktiled_2d_kernel", (long)(BM * BK + BK * BN) * 4,
                "a BM x BK tile of A and a BK x BN tile of B", 2);
    ptx = gl_kernel_ptx("sgemm_blocktiled_2d_kernel", &e);
    r = fma_per_shared_load(&e, &fma, &loads);
    free(ptx);
    if (r < MIN_2D_FMA_PER_SHARED_LOAD)
        gl_check_fail("sgemm_blocktiled_2d_kernel has %d fma.rn.f32 for %d shared loads in its "
                      "PTX (%.2f per load): per step i, load TM values of A and TN of B into "
                      "registers and do all TM x TN = %d multiply-adds with them (%d per load)",
                      fma, loads, r, TM * TN, TM * TN / (TM + TN));
    gl_test_note("%.2f multiply-adds per shared load (needs %.2f)", r,
                 MIN_2D_FMA_PER_SHARED_LOAD);
}

/* 128-bit loads from global memory (ld.global.v4.f32, or .nc) and from
 * shared memory (ld.shared.v4). */
static void check_128bit(const char *kernel, int task)
{
    gl_ptx_entry e;
    char *ptx;
    int global_v4, shared_v4;
    check_tiles(kernel, (long)(BM * BK + BK * BN) * 4,
                "a BK x BM tile of A (transposed) and a BK x BN tile of B", task);
    ptx = gl_kernel_ptx(kernel, &e);
    global_v4 = gl_ptx_count_with(&e, "ld.global", ".v4");
    shared_v4 = gl_ptx_count_with(&e, "ld.shared", ".v4");
    free(ptx);
    if (global_v4 == 0)
        gl_check_fail("%s has no 128-bit global load (ld.global.v4) in its PTX: load each "
                      "thread's float4 of A and of B with load4, which issues one where the "
                      "float4 is aligned and inside the matrix",
                      kernel);
    if (shared_v4 == 0)
        gl_check_fail("%s has no 128-bit shared load (ld.shared.v4) in its PTX: with A's tile "
                      "transposed (as[i][r]), a thread's 4 values of A for one i are "
                      "consecutive; read them, and B's, as float4 "
                      "(*reinterpret_cast<const float4 *>(&as[i][ty * 4]))",
                      kernel);
    gl_test_note("%d ld.global.v4 and %d ld.shared.v4 in the PTX", global_v4, shared_v4);
}

GL_TEST(vectorized_128bit_loads)
{
    check_128bit("sgemm_vectorized_kernel", 3);
}

GL_TEST(prefetch_128bit_loads)
{
    check_128bit("sgemm_prefetch_kernel", 4);
}

GL_TEST(prefetch_two_buffers)
{
    long need = 2L * (BM + BN) * BK * 4;
    gl_ptxas_usage u;
    long bytes = shared_total("sgemm_prefetch_kernel",
                              "Task 4 keeps two buffers of each tile in shared memory");
    ptxas_usage("sgemm_prefetch_kernel", &u);
    if (bytes < need || u.smem_bytes < need)
        gl_check_fail("sgemm_prefetch_kernel has %ld bytes of __shared__ tiles (ptxas reserves "
                      "%ld): two buffers of each tile need %ld, "
                      "as[2][BK][BM] and bs[2][BK][BN]: the next tile is stored into one while "
                      "the math reads the other",
                      bytes, u.smem_bytes, need);
    gl_test_note("%ld bytes of shared tiles (needs %ld)", u.smem_bytes, need);
}

/* A register array indexed by a value the compiler cannot resolve at compile
 * time (a loop it does not unroll, a run-time index) is placed in local
 * memory: per-thread memory in DRAM, behind the L1. */
static void check_no_local_memory(const char *kernel)
{
    gl_ptxas_usage u;
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    int local = gl_ptx_count(&e, "ld.local") + gl_ptx_count(&e, "st.local");
    int fma = gl_ptx_count(&e, "fma.rn.f32");
    free(ptx);
    if (fma < TM * TN)
        gl_check_fail("%s has %d multiply-adds (fma.rn.f32) in its PTX, fewer than one step of "
                      "its %d x %d register tile: is the kernel still a TODO?",
                      kernel, fma, TM, TN);
    ptxas_usage(kernel, &u);
    if (local > 0 || u.stack_bytes > 0 || u.spill_stores > 0 || u.spill_loads > 0)
        gl_check_fail("%s uses local memory: %d ld.local/st.local in its PTX; ptxas: %ld bytes "
                      "stack frame, %ld bytes spill stores, %ld bytes spill loads. The register "
                      "tile acc[TM][TN] must be indexed only by loops with constant bounds "
                      "that the compiler unrolls (#pragma unroll): one run-time index (a loop "
                      "kept rolled with #pragma unroll 1, an index computed at run time) puts "
                      "the whole array in local memory",
                      kernel, local, u.stack_bytes, u.spill_stores, u.spill_loads);
    gl_test_note("%d registers, no local memory", u.registers);
}

GL_TEST(blocktiled_2d_no_local_memory)
{
    check_no_local_memory("sgemm_blocktiled_2d_kernel");
}

GL_TEST(vectorized_no_local_memory)
{
    check_no_local_memory("sgemm_vectorized_kernel");
}

GL_TEST(prefetch_no_local_memory)
{
    check_no_local_memory("sgemm_prefetch_kernel");
}

/* ---- performance: one run at PERF_DIM^3, ratios only ---- */

typedef struct {
    sgemm_fn fn;
    float *c;
    const float *a, *b;
    int dim;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    j->fn(j->c, j->a, j->b, j->dim, j->dim, j->dim);
}

typedef struct {
    int dim;
    gl_buf a, b, c;
    float *h_a, *h_b, *h_c;
    gl_rng rng;
} perf_setup;

static void perf_begin(perf_setup *p)
{
    gl_device_info info;
    size_t n;
    gl_device_require(&info);
    p->dim = PERF_DIM;
    n = (size_t)p->dim * p->dim;
    gl_test_rng(&p->rng);
    p->h_a = random_matrix(&p->rng, n);
    p->h_b = random_matrix(&p->rng, n);
    p->h_c = gl_malloc(n * sizeof(float));
    p->a = gl_buf_alloc(n * sizeof(float), 0);
    p->b = gl_buf_alloc(n * sizeof(float), 0);
    p->c = gl_buf_alloc(n * sizeof(float), 0);
    gl_buf_upload(&p->a, p->h_a);
    gl_buf_upload(&p->b, p->h_b);
}

static void perf_end(perf_setup *p)
{
    gl_buf_free(&p->a);
    gl_buf_free(&p->b);
    gl_buf_free(&p->c);
    free(p->h_a);
    free(p->h_b);
    free(p->h_c);
}

/* The median time of a launcher at PERF_DIM^3 (given: the lab's own), whose
 * C after the timed runs must be right (checked on a sample: C's first and
 * last rows and columns and SAMPLE_RANDOM random elements). */
static double time_ms(perf_setup *p, const char *launcher, int given)
{
    job j = {(sgemm_fn)(given ? gl_baseline_fn(launcher) : gl_submission_fn(launcher)),
             p->c.ptr, p->a.ptr, p->b.ptr, p->dim};
    gl_cmp cmp;
    double ms;

    gl_buf_poison(&p->c);
    ms = gl_time_ms(run_job, &j, gl_timing_default());
    gl_buf_download(&p->c, p->h_c);
    if (gl_matmul_check(p->h_a, p->h_b, p->h_c, p->dim, p->dim, p->dim, FULL_CHECK, SAMPLE_RANDOM,
                        &p->rng, &cmp)) {
        if (given)
            gl_check_fail("grader: the given %s is wrong at %d^3 (%zu of the sampled elements "
                          "of C)", launcher, p->dim, cmp.wrong);
        gl_check_fail("%s is not right at m = n = k = %d (%zu of the sampled elements of C are "
                      "wrong after the timed runs, %zu never written), so its speed is not "
                      "graded (the correctness tests say more)",
                      launcher, p->dim, cmp.wrong, cmp.unwritten);
    }
    return ms;
}

static double tflops(int dim, double ms)
{
    return 2.0 * dim * (double)dim * dim / ms / 1e9;
}

static void expect_faster(const char *fast, const char *slow, int slow_given, double min_ratio,
                          const char *why)
{
    perf_setup p;
    double s, f;
    perf_begin(&p);
    s = time_ms(&p, slow, slow_given);
    f = time_ms(&p, fast, 0);
    if (s < min_ratio * f)
        gl_check_fail("at m = n = k = %d, %s takes %.3f ms (%.1f TFLOP/s), %.2fx faster than %s%s "
                      "(%.3f ms); it should be at least %.2fx. %s",
                      p.dim, fast, f, tflops(p.dim, f), s / f, slow_given ? "the given " : "",
                      slow, s, min_ratio, why);
    gl_test_note("%s %.3f ms (%.1f TFLOP/s) = %.2fx faster than %s %.3f ms (needs %.2fx)", fast,
                 f, tflops(p.dim, f), s / f, slow, s, min_ratio);
    perf_end(&p);
}

static void expect_share_of_cublas(const char *launcher, double min_pct, const char *why)
{
    perf_setup p;
    double roof, ms, pct;
    perf_begin(&p);
    roof = time_ms(&p, "sgemm_cublas", 1);
    ms = time_ms(&p, launcher, 0);
    pct = 100.0 * roof / ms;
    if (pct < min_pct)
        gl_check_fail("at m = n = k = %d, %s takes %.3f ms (%.1f TFLOP/s), %.1f%% of cuBLAS "
                      "FP32 (%.3f ms, %.1f TFLOP/s); it should reach %.0f%%. %s",
                      p.dim, launcher, ms, tflops(p.dim, ms), pct, roof, tflops(p.dim, roof),
                      min_pct, why);
    gl_test_note("%s %.3f ms (%.1f TFLOP/s) = %.1f%% of cuBLAS FP32 %.3f ms (%.1f TFLOP/s; "
                 "needs %.0f%%)",
                 launcher, ms, tflops(p.dim, ms), pct, roof, tflops(p.dim, roof), min_pct);
    perf_end(&p);
}

GL_TEST(blocktiled_1d_vs_tiled)
{
    expect_faster("sgemm_blocktiled_1d", "sgemm_tiled", 1, MIN_1D_OVER_TILED,
                  "Each value of B read from shared memory should serve TM1 multiply-adds: "
                  "is it read once per step i into a register, and acc a float[TM1] in "
                  "registers (no local memory)?");
}

GL_TEST(blocktiled_2d_vs_1d)
{
    expect_faster("sgemm_blocktiled_2d", "sgemm_blocktiled_1d", 0, MIN_2D_OVER_1D,
                  "Each thread should compute its TM x TN results from TM + TN registers per "
                  "step i, with acc[TM][TN] in registers (the technique tests check local "
                  "memory)");
}

GL_TEST(vectorized_vs_2d)
{
    expect_faster("sgemm_vectorized", "sgemm_blocktiled_2d", 0, MIN_VECTORIZED_OVER_2D,
                  "A's tile transposed, float4 loads from global and shared memory, and the "
                  "four quadrants (not an 8 x 8 square) so a half-warp reads 16 consecutive "
                  "float4 of B");
}

GL_TEST(vectorized_vs_cublas)
{
    expect_share_of_cublas("sgemm_vectorized", MIN_VECTORIZED_PCT_OF_CUBLAS,
                           "Are the 128-bit loads really taken (k and n multiples of 4 here), "
                           "and acc in registers?");
}

GL_TEST(prefetch_vs_cublas)
{
    expect_share_of_cublas("sgemm_prefetch", MIN_PREFETCH_PCT_OF_CUBLAS,
                           "The next tile's global loads should be issued before the math on "
                           "this one and stored into the other buffer after it, with one "
                           "barrier per step");
}

/* ---- profile: Nsight Compute counters ---- */

static const char *const shared_metrics[] = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
};

GL_TEST(vectorized_shared_wavefronts)
{
    const char *args[] = {"sgemm_vectorized", "512", NULL};
    double v[3], w;
    gl_profile(shared_metrics, 3, v, args);
    if (v[1] <= 0)
        gl_check_fail("sgemm_vectorized's kernel executed no shared-memory load (Nsight "
                      "Compute): the tiles in shared memory are the lesson");
    w = v[0] / v[1];
    if (w > MAX_VECTORIZED_WAVEFRONTS)
        gl_check_fail("sgemm_vectorized_kernel's shared loads take %.2f wavefronts each "
                      "(%.0f loads, %.0f wavefronts, %.0f counted as bank conflicts), more than "
                      "%.2f; the quadrants take 3.00. A wavefront returns 128 "
                      "bytes, a quarter-warp's 8 float4: with the quadrants the 8 threads of "
                      "a quarter-warp read 8 consecutive float4 of bs[i][tx * 4] (one "
                      "wavefront). An 8 x 8 square per thread reads bs[i][tx * 8]: float4 "
                      "32 bytes apart, two in the same banks, two wavefronts per quarter-warp "
                      "(about 5 per load in all). Own four 4 x 4 quadrants: rows ty * 4 and 64 + ty * 4, "
                      "columns tx * 4 and 64 + tx * 4",
                      w, v[1], v[0], v[2], MAX_VECTORIZED_WAVEFRONTS);
    gl_test_note("%.2f wavefronts per shared load (at most %.2f): %.0f loads, %.0f wavefronts, "
                 "%.0f counted as bank conflicts",
                 w, MAX_VECTORIZED_WAVEFRONTS, v[1], v[0], v[2]);
}

/* Under Nsight Compute: one launcher ("given:NAME" for the lab's own), once,
 * on m = n = k = DIM; checked. */
static const char *run_once(int argc, char **argv)
{
    long dim;
    if (argc != 2 || gl_parse_long(argv[1], 1, 8192, &dim))
        return "usage: --run [given:]LAUNCHER DIM";
    return run_and_check((sgemm_fn)gl_launcher_fn(argv[0]), gl_launcher_name(argv[0]),
                         (int)dim, (int)dim, (int)dim, 0, 0, 0);
}

static void add_tests(void)
{
    GL_ADD(blocktiled_1d_small, GL_CORRECTNESS, 1, 15, "1D tiles: tiny, k = 0, one tile");
    GL_ADD(blocktiled_1d_odd_sizes, GL_CORRECTNESS, 2, 15, "1D tiles: odd sizes");
    GL_ADD(blocktiled_1d_vector_path, GL_CORRECTNESS, 1, 15, "1D tiles: k, n multiples of 4");
    GL_ADD(blocktiled_1d_misaligned, GL_CORRECTNESS, 1, 15, "1D tiles: misaligned a, b, c");
    GL_ADD(blocktiled_2d_small, GL_CORRECTNESS, 1, 15, "2D tiles: tiny, k = 0, one tile");
    GL_ADD(blocktiled_2d_odd_sizes, GL_CORRECTNESS, 2, 15, "2D tiles: odd sizes");
    GL_ADD(blocktiled_2d_vector_path, GL_CORRECTNESS, 1, 15, "2D tiles: k, n multiples of 4");
    GL_ADD(blocktiled_2d_misaligned, GL_CORRECTNESS, 1, 15, "2D tiles: misaligned a, b, c");
    GL_ADD(vectorized_small, GL_CORRECTNESS, 1, 15, "vectorized: tiny, k = 0, one tile");
    GL_ADD(vectorized_odd_sizes, GL_CORRECTNESS, 2, 15, "vectorized: odd sizes (scalar path)");
    GL_ADD(vectorized_vector_path, GL_CORRECTNESS, 1, 15, "vectorized: the 128-bit path");
    GL_ADD(vectorized_misaligned, GL_CORRECTNESS, 1, 15, "vectorized: misaligned a, b, c");
    GL_ADD(prefetch_small, GL_CORRECTNESS, 1, 15, "prefetch: tiny, k = 0, one tile");
    GL_ADD(prefetch_odd_sizes, GL_CORRECTNESS, 2, 15, "prefetch: odd sizes (scalar path)");
    GL_ADD(prefetch_vector_path, GL_CORRECTNESS, 1, 15, "prefetch: the 128-bit path");
    GL_ADD(prefetch_misaligned, GL_CORRECTNESS, 1, 15, "prefetch: misaligned a, b, c");
    GL_ADD(prefetch_async, GL_CORRECTNESS, 2, 30, "prefetch: launcher returns at once");
    GL_ADD(blocktiled_1d_register_reuse, GL_TECHNIQUE, 2, 10,
           "1D tiles: shared tiles, barriers, FMAs per shared load");
    GL_ADD(blocktiled_2d_register_tile, GL_TECHNIQUE, 2, 10,
           "2D tiles: shared tiles, barriers, FMAs per shared load");
    GL_ADD(vectorized_128bit_loads, GL_TECHNIQUE, 3, 10, "vectorized: ld.global.v4, ld.shared.v4");
    GL_ADD(prefetch_128bit_loads, GL_TECHNIQUE, 2, 10, "prefetch: ld.global.v4, ld.shared.v4");
    GL_ADD(prefetch_two_buffers, GL_TECHNIQUE, 2, 10, "prefetch: two buffers of each tile");
    GL_ADD(blocktiled_2d_no_local_memory, GL_TECHNIQUE, 1, 10, "2D tiles: no local memory");
    GL_ADD(vectorized_no_local_memory, GL_TECHNIQUE, 1, 10, "vectorized: no local memory");
    GL_ADD(prefetch_no_local_memory, GL_TECHNIQUE, 1, 10, "prefetch: no local memory");
    GL_ADD(blocktiled_1d_vs_tiled, GL_PERFORMANCE, 3, 120, "1D tiles faster than 32 x 32 tiles");
    GL_ADD(blocktiled_2d_vs_1d, GL_PERFORMANCE, 3, 120, "2D tiles faster than 1D");
    GL_ADD(vectorized_vs_2d, GL_PERFORMANCE, 3, 120, "vectorized faster than 2D tiles");
    GL_ADD(vectorized_vs_cublas, GL_PERFORMANCE, 3, 120, "vectorized: share of cuBLAS");
    GL_ADD(prefetch_vs_cublas, GL_PERFORMANCE, 4, 120, "prefetch: share of cuBLAS");
    GL_ADD(vectorized_shared_wavefronts, GL_PROFILE, 5, 300,
           "vectorized: conflict-free 128-bit shared loads");
}

const gl_lab GL_LAB = {"11-sgemm", "sgemm.cu", add_tests, run_once};
