/* 09-matmul-tiling.c: the grader's suite for lab 09-matmul-tiling.
 *
 *   correctness  every launcher on tiny, odd and empty-sum (k = 0) sizes,
 *                against a CPU reference in double with the FP32 error bound
 *                of each element (gl_matmul.h); the study's block shapes; the
 *                launchers return at once
 *   technique    the tiled kernel has two TILE x TILE __shared__ tiles and a
 *                barrier after writing them and one after reading them; the
 *                naive kernel does not scale threadIdx.x by a row length (the
 *                given swapped kernel does, so the test can tell)
 *   performance  against the lab's own given kernels and the empty launch,
 *                measured in one run
 *   profile      global load requests (Nsight Compute): the tiled kernel
 *                issues TILE times fewer than the naive one; sectors per
 *                request show the naive kernel's coalescing */
#include "grader.h"
#include "inspect.h"

#include "gpulabs.h"
#include "matmul_tiling.h"

#include <ctype.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*matmul_fn)(float *c, const float *a, const float *b, int m, int n, int k);
typedef void (*shape_fn)(float *c, const float *a, const float *b, int m, int n, int k,
                         int block_rows, int block_cols);
typedef void (*empty_fn)(int launches);

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define PERF_DIM 2048 /* m = n = k of the timed products */
#define MIN_NAIVE_OVER_SWAPPED 3.0 /* time ratio, PERF_DIM^3; H200: 5.63 */
#define MIN_TILED_OVER_NAIVE 1.3   /* time ratio, PERF_DIM^3; H200: 1.69 */
#define LAUNCH_DIM 512             /* block_launches: (512 / 16)^2 = 1024 launches */
#define MIN_LAUNCH_SHARE 0.5       /* of launches x the empty launch's time, at least; H200:
                                      19.6 ms more against 3.0 ms of launches (6.5x) */
#define PROFILE_DIM "512"          /* m = n = k under Nsight Compute */
#define MIN_LOAD_REDUCTION 16.0    /* naive / tiled global load requests: TILE = 32 predicts 32;
                                      H200: 32.0 */
#define MAX_NAIVE_SECTORS 4.0      /* sectors per global load request; 16 x 16 blocks predict 2;
                                      H200: 2.00 */
#define MIN_SWAPPED_SECTORS 6.0    /* the given swapped kernel: predicted 8.5; H200: 8.50 */

/* ---- the launchers under test ---- */

typedef enum { NAIVE, SHAPE, TILED, GRID1D, BLOCKS, GIVEN } family;

typedef struct {
    const char *name; /* the launcher's name, for messages */
    family what;
    matmul_fn fn;     /* all but SHAPE */
    shape_fn shape;   /* SHAPE */
    int rows, cols;   /* SHAPE: the block, rows x cols of threads */
} launcher;

static launcher submission(const char *name, family what)
{
    launcher l = {name, what, NULL, NULL, 0, 0};
    l.fn = (matmul_fn)gl_submission_fn(name);
    return l;
}

static launcher shape(int rows, int cols)
{
    launcher l = {"matmul_naive_shape", SHAPE, NULL, NULL, rows, cols};
    l.shape = (shape_fn)gl_submission_fn("matmul_naive_shape");
    return l;
}

static void call(const launcher *l, float *c, const float *a, const float *b, int m, int n,
                 int k)
{
    if (l->what == SHAPE)
        l->shape(c, a, b, m, n, k, l->rows, l->cols);
    else
        l->fn(c, a, b, m, n, k);
}

static const char *label(const launcher *l)
{
    static char buf[96];
    if (l->what != SHAPE)
        return l->name;
    snprintf(buf, sizeof buf, "matmul_naive_shape with %d x %d blocks", l->rows, l->cols);
    return buf;
}

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(const launcher *l, const gl_cmp *cmp, int k)
{
    if (cmp->unwritten == cmp->n && k == 0)
        return "With k = 0 every element of C is an empty sum, 0: the launcher still launches "
               "(only m or n == 0 launches nothing) and every thread inside C writes its sum";
    if (cmp->unwritten == cmp->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (cmp->unwritten) {
        switch (l->what) {
        case SHAPE:
            return "Some elements were never written: the grid must cover every column (grid.x "
                   "= n / block_cols, rounded up) and every row (grid.y = m / block_rows, "
                   "rounded up) of C, and the kernel must use blockDim, not NAIVE_BLOCK";
        case TILED:
            return "Some elements were never written: every thread whose (row, col) is inside C "
                   "writes its sum, also in the last tiles, which stick out of C";
        case GRID1D:
            return "Some elements were never written: blocks_per_row = n / NAIVE_BLOCK rounded "
                   "up, and the grid is blocks_per_row times m / NAIVE_BLOCK rounded up; block "
                   "b takes block row b / blocks_per_row, block column b % blocks_per_row";
        case BLOCKS:
            return "Some elements were never written: the host loop must launch every block of "
                   "C, the last partial block row and block column included";
        default:
            return "Some elements were never written: row = blockIdx.y * blockDim.y + "
                   "threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x, and every thread "
                   "with row < m and col < n writes";
        }
    }
    if (l->what == TILED)
        return "Wrong values: a tile element outside A or B must be loaded as 0 (a skipped load "
               "leaves the previous step's value in the tile); the tiles are a_tile[ty][tx] = "
               "a[row * k + t + tx] and b_tile[ty][tx] = b[(t + ty) * n + col]; the loop runs "
               "while t < k, the last partial tile included; and both barriers must be there "
               "(a missing one reads an element before it is written or after the next step "
               "overwrote it)";
    return "Wrong values: element (row, col) of C is the sum over i < k of a[row * k + i] * "
           "b[i * n + col] (A has k columns, B and C have n); does the loop run over all k?";
}

/* Runs the launcher once on m x n x k random floats in [-1, 1) and checks
 * everything about the result: C against the reference within each
 * element's bound, the guards around C, A and B unchanged. Returns "" or why
 * not (a static buffer). */
static const char *run_and_check(const launcher *l, int m, int n, int k)
{
    static char why[2048];
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    size_t ba = (na ? na : 1) * sizeof(float), bb = (nb ? nb : 1) * sizeof(float),
           bc = (nc ? nc : 1) * sizeof(float);
    /* a missing bounds test writes up to a block's height past the last row */
    size_t guard = (size_t)32 * ((size_t)n + 32) * sizeof(float) + 4096;
    float *h_a = gl_malloc(ba), *h_b = gl_malloc(bb), *h_ref = gl_malloc(bc),
          *h_bound = gl_malloc(bc), *h_c = gl_malloc(bc), *h_back_a = gl_malloc(ba),
          *h_back_b = gl_malloc(bb);
    gl_buf a = gl_buf_alloc(ba, 0), b = gl_buf_alloc(bb, 0), c = gl_buf_alloc(bc, guard);
    gl_guard_report g;
    gl_cmp cmp;
    gl_rng rng;

    why[0] = '\0';
    gl_test_rng(&rng);
    gl_fill_float(&rng, h_a, ba / sizeof(float), -1.0f, 1.0f);
    gl_fill_float(&rng, h_b, bb / sizeof(float), -1.0f, 1.0f);
    gl_matmul_ref(h_a, h_b, m, n, k, h_ref, h_bound);
    gl_buf_upload(&a, h_a);
    gl_buf_upload(&b, h_b);
    gl_buf_poison(&c);
    call(l, c.ptr, a.ptr, b.ptr, m, n, k);
    GL_CHECK_LAUNCH(l->name);
    if (gl_buf_check_guards(&c, &g)) {
        char d[512];
        gl_guard_describe(&g, nc * sizeof(float), sizeof(float), "c", d, sizeof d);
        snprintf(why, sizeof why, "%s: only elements with row < m and col < n are written (the "
                 "last blocks stick out of C: test each thread's row and column)", d);
    } else if (gl_buf_check_guards(&a, &g) || gl_buf_check_guards(&b, &g)) {
        snprintf(why, sizeof why, "wrote outside a or b, which are read-only inputs");
    } else {
        gl_buf_download(&a, h_back_a);
        gl_buf_download(&b, h_back_b);
        gl_buf_download(&c, h_c);
        if (memcmp(h_back_a, h_a, ba) != 0 || memcmp(h_back_b, h_b, bb) != 0) {
            snprintf(why, sizeof why, "changed a or b: the inputs are read-only");
        } else if (gl_compare_float_bound(h_ref, h_c, h_bound, nc, &cmp)) {
            char d[1024];
            size_t w = 0;
            gl_cmp_describe(&cmp, "c", gl_index_2d, &n, d, sizeof d);
            w = (size_t)snprintf(why, sizeof why, "%s", d);
            if (cmp.shown > 0 && !cmp.diff[0].unwritten && w < sizeof why)
                w += (size_t)snprintf(why + w, sizeof why - w,
                                      " (c[%zu][%zu] may differ from the reference by %.3g: the "
                                      "FP32 error bound of its sum, in any order)",
                                      cmp.diff[0].index / (size_t)n,
                                      cmp.diff[0].index % (size_t)n,
                                      (double)h_bound[cmp.diff[0].index]);
            if (w < sizeof why)
                snprintf(why + w, sizeof why - w, ". %s", hint(l, &cmp, k));
        }
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&c);
    free(h_a);
    free(h_b);
    free(h_ref);
    free(h_bound);
    free(h_c);
    free(h_back_a);
    free(h_back_b);
    return why;
}

typedef struct {
    int m, n, k;
} dims;

/* tiny, one dimension at a time, and k = 0 (C = 0: an empty sum) */
static const dims edges[] = {{1, 1, 1}, {1, 1, 300}, {33, 1, 17}, {1, 77, 5}, {7, 5, 0}};
/* multiples of 32, then sizes that are not multiples of 16 or 32 */
static const dims sizes[] = {{64, 64, 64}, {100, 37, 123}, {129, 257, 65}, {300, 301, 302}};

static void check_dims(const launcher *l, const dims *d, int count)
{
    int i;
    for (i = 0; i < count; i++) {
        const char *why = run_and_check(l, d[i].m, d[i].n, d[i].k);
        if (*why)
            gl_check_fail("%s with m x n x k = %d x %d x %d: %s", label(l), d[i].m, d[i].n,
                          d[i].k, why);
    }
}

#define CORRECTNESS(test, launcher_name, kind)                                                \
    GL_TEST(test##_edges)                                                                     \
    {                                                                                         \
        launcher l = submission(launcher_name, kind);                                         \
        check_dims(&l, edges, 5);                                                             \
    }                                                                                         \
    GL_TEST(test##_sizes)                                                                     \
    {                                                                                         \
        launcher l = submission(launcher_name, kind);                                         \
        check_dims(&l, sizes, 4);                                                             \
    }

CORRECTNESS(naive, "matmul_naive", NAIVE)
CORRECTNESS(tiled, "matmul_tiled", TILED)
CORRECTNESS(grid1d, "matmul_naive_grid1d", GRID1D)
CORRECTNESS(block_launches, "matmul_naive_block_launches", BLOCKS)

/* The study's block shapes (rows x cols of threads), then one thread, an odd
 * shape and one column of 1024 threads, on one odd size. */
GL_TEST(naive_shapes)
{
    static const int shapes[][2] = {{1, 2},  {2, 4}, {4, 8}, {8, 16},   {16, 16},
                                    {16, 32}, {32, 32}, {1, 1}, {3, 5}, {1024, 1}};
    static const dims odd = {129, 257, 65};
    int s;
    for (s = 0; s < 10; s++) {
        launcher l = shape(shapes[s][0], shapes[s][1]);
        check_dims(&l, &odd, 1);
    }
}

/* The launcher only enqueues its kernel (gl_expect_queued): A and B share
 * one allocation, which a delayed copy fills. */
typedef struct {
    launcher l;
    float *c;
    const float *a, *b;
    const float *ref, *bound;
    int m, n, k;
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    call(&q->l, q->c, q->a, q->b, q->m, q->n, q->k);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    size_t nc = (size_t)q->m * q->n;
    float *h = gl_malloc(nc * sizeof(float));
    gl_cmp cmp;
    int right;
    GL_CUDA(cudaMemcpy(h, q->c, nc * sizeof(float), cudaMemcpyDeviceToHost));
    right = gl_compare_float_bound(q->ref, h, q->bound, nc, &cmp) == 0;
    free(h);
    return right;
}

static void check_async(const char *name, family what)
{
    const int m = 300, n = 301, k = 302;
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    size_t in_bytes = (na + nb) * sizeof(float), out_bytes = nc * sizeof(float);
    float *h_in = gl_malloc(in_bytes), *h_ref = gl_malloc(out_bytes),
          *h_bound = gl_malloc(out_bytes);
    gl_buf staged = gl_buf_alloc(in_bytes, 0), in = gl_buf_alloc(in_bytes, 0),
           out = gl_buf_alloc(out_bytes, 0);
    queued q;
    gl_queue_buffers bufs = {in.ptr, staged.ptr, in_bytes, out.ptr, out_bytes};
    gl_rng rng;

    q.l = submission(name, what);
    q.c = out.ptr;
    q.a = in.ptr;
    q.b = (const float *)in.ptr + na;
    q.ref = h_ref;
    q.bound = h_bound;
    q.m = m;
    q.n = n;
    q.k = k;
    gl_test_rng(&rng);
    gl_fill_float(&rng, h_in, na + nb, -1.0f, 1.0f);
    gl_matmul_ref(h_in, h_in + na, m, n, k, h_ref, h_bound);
    gl_buf_upload(&staged, h_in);
    gl_expect_queued(name, queued_launch, queued_right, &q, &bufs);
    gl_buf_free(&staged);
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_in);
    free(h_ref);
    free(h_bound);
}

GL_TEST(naive_async)
{
    check_async("matmul_naive", NAIVE);
}

GL_TEST(tiled_async)
{
    check_async("matmul_tiled", TILED);
}

/* ---- technique: read from the PTX and the ptxas report, no GPU needed ---- */

GL_TEST(tiled_shared_tiles)
{
    gl_ptx_shared sh[8];
    gl_ptx_entry e;
    char *ptx;
    long total = 0;
    int i, count;

    gl_kernel_shared_bytes("matmul_tiled_kernel",
                           "Task 2 stages a TILE x TILE tile of A and one of B in shared "
                           "memory: __shared__ float a_tile[TILE][TILE], b_tile[TILE][TILE]");
    ptx = gl_kernel_ptx("matmul_tiled_kernel", &e);
    count = gl_ptx_shared_arrays(ptx, &e, sh, 8);
    for (i = 0; i < count; i++)
        total += sh[i].bytes;
    if (total < 2L * TILE * TILE * (long)sizeof(float))
        gl_check_fail("matmul_tiled_kernel's __shared__ arrays hold %ld bytes in all, less than "
                      "two %d x %d tiles of floats (%ld bytes): one tile of A and one of B",
                      total, TILE, TILE, 2L * TILE * TILE * (long)sizeof(float));
    if (gl_ptx_count(&e, "st.shared") == 0 || gl_ptx_count(&e, "ld.shared") == 0)
        gl_check_fail("matmul_tiled_kernel declares shared tiles but does not both write them "
                      "and read them (st.shared: %d, ld.shared: %d in the PTX)",
                      gl_ptx_count(&e, "st.shared"), gl_ptx_count(&e, "ld.shared"));
    gl_test_note("%d __shared__ arrays, %ld bytes", count, total);
    free(ptx);
}

/* The entry's shared-memory stores ('S'), loads ('L') and barriers ('B'), in
 * the order of the PTX text. Returns how many (at most max). */
static int shared_events(const gl_ptx_entry *e, char *ev, int max)
{
    const char *p = e->body, *end = e->body + e->body_len;
    int n = 0;
    while (p < end && n < max) {
        const char *eol = memchr(p, '\n', (size_t)(end - p)), *t = p;
        const char *stop = eol ? eol : end;
        while (t < stop && isspace((unsigned char)*t))
            t++;
        if (t < stop && *t == '@') { /* a guard predicate: @%p1 or @!%p1 */
            while (t < stop && !isspace((unsigned char)*t))
                t++;
            while (t < stop && isspace((unsigned char)*t))
                t++;
        }
        if (!strncmp(t, "st.shared", 9))
            ev[n++] = 'S';
        else if (!strncmp(t, "ld.shared", 9))
            ev[n++] = 'L';
        else if (!strncmp(t, "bar.sync", 8) || !strncmp(t, "barrier.sync", 12))
            ev[n++] = 'B';
        p = stop + 1;
    }
    return n;
}

/* Reading the events as the loop runs them (the end wraps around to the
 * start: the next step), a store must be followed by a barrier before any
 * load, and a load by a barrier before any store. */
GL_TEST(tiled_barriers)
{
    static char ev[100000];
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx("matmul_tiled_kernel", &e);
    int n = shared_events(&e, ev, (int)sizeof ev), i, j, barriers = gl_ptx_barriers(&e);

    if (barriers < 2)
        gl_check_fail("matmul_tiled_kernel has %d barrier%s (__syncthreads, bar.sync in the "
                      "PTX): each step of the loop needs two, one after writing the tiles "
                      "(before any thread reads them) and one after reading them (before the "
                      "next step overwrites them)",
                      barriers, barriers == 1 ? "" : "s");
    for (i = 0; i < n; i++) {
        if (ev[i] == 'B')
            continue;
        for (j = 1; j < n; j++) {
            char next = ev[(i + j) % n];
            if (next == 'B')
                break;
            if (next != ev[i]) {
                if (ev[i] == 'S')
                    gl_check_fail("in matmul_tiled_kernel a thread can read the tiles (ld.shared) "
                                  "after writing its elements (st.shared) with no barrier in "
                                  "between: it may read an element another thread has not "
                                  "written yet. __syncthreads() after loading the tiles "
                                  "(read after write)");
                gl_check_fail("in matmul_tiled_kernel a thread can write the next step's tile "
                              "elements (st.shared) after reading the tiles (ld.shared) with no "
                              "barrier in between: it may overwrite an element another thread "
                              "still needs. __syncthreads() after the inner loop (write after "
                              "read)");
            }
        }
    }
    gl_test_note("%d barriers; shared stores and loads separated by them", barriers);
    free(ptx);
}

GL_TEST(naive_coalesced)
{
    gl_ptx_entry e;
    char why[256], *ptx = gl_read_file(gl_baseline_ptx());
    if (!ptx || gl_ptx_entry_find(ptx, "matmul_naive_swapped_kernel", &e) != 0)
        gl_check_fail("grader: the baselines' PTX (%s) is missing: rebuild the kit with make",
                      gl_baseline_ptx());
    if (!gl_ptx_scales_tid_x(&e, why, sizeof why))
        gl_check_fail("grader: the given matmul_naive_swapped_kernel does not show threadIdx.x "
                      "multiplied by a row length in its PTX: this compiler writes it another "
                      "way, and the test cannot tell the mappings apart");
    free(ptx);
    ptx = gl_kernel_ptx("matmul_naive_kernel", &e);
    if (!strstr(e.body, "%tid.x"))
        gl_check_fail("matmul_naive_kernel does not use threadIdx.x: is it still a TODO?");
    if (gl_ptx_scales_tid_x(&e, why, sizeof why))
        gl_check_fail("in matmul_naive_kernel a value computed from threadIdx.x is multiplied by "
                      "a run-time value (%s): threadIdx.x picks the row, so a warp's loads of "
                      "a and stores to c are a whole row apart, as in the given swapped kernel. "
                      "Let threadIdx.x pick the column: col = blockIdx.x * blockDim.x + "
                      "threadIdx.x",
                      why);
    free(ptx);
}

/* ---- performance: one run, ratios only ---- */

typedef struct {
    launcher l;
    float *c;
    const float *a, *b;
    int m, n, k;
} job;

static void run_job(void *arg)
{
    job *j = arg;
    call(&j->l, j->c, j->a, j->b, j->m, j->n, j->k);
}

typedef struct {
    empty_fn fn;
    int launches;
} empty_job;

static void run_empty(void *arg)
{
    empty_job *j = arg;
    j->fn(j->launches);
}

typedef struct {
    int dim;
    gl_buf a, b, c;
    float *h_a, *h_b, *h_c;
} perf_setup;

static void perf_begin(perf_setup *p, int dim)
{
    size_t count = (size_t)dim * dim, bytes = count * sizeof(float);
    gl_device_info info;
    gl_rng rng;
    gl_device_require(&info);
    p->dim = dim;
    p->h_a = gl_malloc(bytes);
    p->h_b = gl_malloc(bytes);
    p->h_c = gl_malloc(bytes);
    gl_test_rng(&rng);
    gl_fill_float(&rng, p->h_a, count, -1.0f, 1.0f);
    gl_fill_float(&rng, p->h_b, count, -1.0f, 1.0f);
    p->a = gl_buf_alloc(bytes, 0);
    p->b = gl_buf_alloc(bytes, 0);
    p->c = gl_buf_alloc(bytes, 0);
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

/* Is p->c right after the timed runs? Every element written, and the first
 * and last rows and columns and 1024 random elements within their bound (the
 * full reference of a 2048^3 product would take the CPU seconds). "" or why
 * not. */
static const char *verify_sampled(perf_setup *p)
{
    static char why[1024];
    int d = p->dim;
    size_t e, count = (size_t)d * d;
    gl_rng rng;
    gl_cmp cmp;
    why[0] = '\0';
    gl_buf_download(&p->c, p->h_c);
    for (e = 0; e < count; e++)
        if (isnan(p->h_c[e])) {
            snprintf(why, sizeof why, "c[%zu][%zu] was never written", e / d, e % d);
            return why;
        }
    gl_test_rng(&rng);
    if (gl_matmul_check(p->h_a, p->h_b, p->h_c, d, d, d, 0, 1024, &rng, &cmp))
        gl_cmp_describe(&cmp, "c", gl_index_2d, &d, why, sizeof why);
    return why;
}

/* The median time of a launcher at p->dim^3; a submission's result must be
 * right after the timed runs, or its speed is not graded. */
static double time_ms(perf_setup *p, const launcher *l, int check)
{
    job j = {*l, p->c.ptr, p->a.ptr, p->b.ptr, p->dim, p->dim, p->dim};
    const char *why;
    double ms;
    gl_buf_poison(&p->c);
    ms = gl_time_ms(run_job, &j, gl_timing_default());
    if (check && *(why = verify_sampled(p)))
        gl_check_fail("%s is not right at %d x %d x %d after the timed runs (%s), so its speed "
                      "is not graded (the correctness tests say more)",
                      l->name, p->dim, p->dim, p->dim, why);
    return ms;
}

static launcher given(const char *name)
{
    launcher l = {name, GIVEN, NULL, NULL, 0, 0};
    l.fn = (matmul_fn)gl_baseline_fn(name);
    return l;
}

static double gflops(int d, double ms)
{
    return 2.0 * d * (double)d * d / ms / 1e6;
}

GL_TEST(naive_vs_swapped)
{
    perf_setup p;
    launcher swapped = given("matmul_naive_swapped"), naive = submission("matmul_naive", NAIVE);
    double ts, tn;
    perf_begin(&p, PERF_DIM);
    ts = time_ms(&p, &swapped, 0);
    tn = time_ms(&p, &naive, 1);
    if (ts < MIN_NAIVE_OVER_SWAPPED * tn)
        gl_check_fail("at %d^3, matmul_naive takes %.3f ms (%.0f GFLOP/s), %.2fx faster than "
                      "the given matmul_naive_swapped (%.3f ms); it should be at least %.1fx. "
                      "Does threadIdx.x walk along the columns of C (col = blockIdx.x * "
                      "blockDim.x + threadIdx.x), so that a warp's loads of b and stores to c "
                      "are consecutive floats?",
                      PERF_DIM, tn, gflops(PERF_DIM, tn), ts / tn, ts, MIN_NAIVE_OVER_SWAPPED);
    gl_test_note("naive %.3f ms (%.0f GFLOP/s) = %.2fx swapped %.3f ms (needs %.1fx)", tn,
                 gflops(PERF_DIM, tn), ts / tn, ts, MIN_NAIVE_OVER_SWAPPED);
    perf_end(&p);
}

/* Against the student's own naive kernel (task 1 is not given): a naive
 * kernel slowed down to pass this test fails naive_vs_swapped. */
GL_TEST(tiled_vs_naive)
{
    perf_setup p;
    launcher naive = submission("matmul_naive", NAIVE), tiled = submission("matmul_tiled", TILED);
    double tn, tt;
    perf_begin(&p, PERF_DIM);
    tn = time_ms(&p, &naive, 1);
    tt = time_ms(&p, &tiled, 1);
    if (tn < MIN_TILED_OVER_NAIVE * tt)
        gl_check_fail("at %d^3, matmul_tiled takes %.3f ms (%.0f GFLOP/s), %.2fx faster than "
                      "your matmul_naive (%.3f ms); it should be at least %.2fx. Does each "
                      "thread load one element of each tile per step, and the inner loop read "
                      "only the shared tiles (TILE uses of each loaded element)?",
                      PERF_DIM, tt, gflops(PERF_DIM, tt), tn / tt, tn, MIN_TILED_OVER_NAIVE);
    gl_test_note("tiled %.3f ms (%.0f GFLOP/s) = %.2fx naive %.3f ms (needs %.2fx)", tt,
                 gflops(PERF_DIM, tt), tn / tt, tn, MIN_TILED_OVER_NAIVE);
    perf_end(&p);
}

/* A stream runs its kernels one after another, and each launch costs its
 * overhead: one launch per block must cost at least a share of the launches'
 * overhead more than one launch of the whole grid. */
GL_TEST(block_launches_pay_per_launch)
{
    const int blocks = (LAUNCH_DIM + NAIVE_BLOCK - 1) / NAIVE_BLOCK;
    const int launches = blocks * blocks;
    perf_setup p;
    launcher naive = submission("matmul_naive", NAIVE),
             per_block = submission("matmul_naive_block_launches", BLOCKS);
    empty_job ej = {(empty_fn)gl_baseline_fn("matmul_empty_launch"), launches};
    double tg, tb, te, overhead_ms;
    perf_begin(&p, LAUNCH_DIM);
    tg = time_ms(&p, &naive, 1);
    tb = time_ms(&p, &per_block, 1);
    te = gl_time_ms(run_empty, &ej, gl_timing_default());
    overhead_ms = MIN_LAUNCH_SHARE * te;
    if (tb - tg < overhead_ms)
        gl_check_fail("at %d^3, matmul_naive_block_launches takes %.3f ms, only %.3f ms more "
                      "than one launch of the whole grid (matmul_naive, %.3f ms), where its %d "
                      "launches alone cost %.3f ms (%.2f us each, measured with an empty "
                      "kernel): does it launch one grid of one block per block of C?",
                      LAUNCH_DIM, tb, tb - tg, tg, launches, te, 1e3 * te / launches);
    gl_test_note("block_launches %.3f ms, 2D grid %.3f ms: %.3f ms more; %d empty launches "
                 "%.3f ms (%.2f us each; needs at least %.0f%% of it)",
                 tb, tg, tb - tg, launches, te, 1e3 * te / launches, 100.0 * MIN_LAUNCH_SHARE);
    perf_end(&p);
}

/* ---- profile: Nsight Compute counters ---- */

static const char *const load_metrics[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"};

/* Global load requests and sectors of one launcher's kernels at PROFILE_DIM^3. */
static void global_loads(const char *launcher_spec, double *requests, double *sectors)
{
    const char *args[] = {launcher_spec, PROFILE_DIM, PROFILE_DIM, PROFILE_DIM, NULL};
    double v[2];
    gl_profile(load_metrics, 2, v, args);
    if (v[0] <= 0)
        gl_check_fail("%s made no global load requests (Nsight Compute)", launcher_spec);
    *requests = v[0];
    *sectors = v[1];
}

GL_TEST(tiled_global_loads)
{
    double naive_req, naive_sec, tiled_req, tiled_sec;
    /* the given swapped kernel issues exactly the naive kernel's loads: 2k per thread */
    global_loads("given:matmul_naive_swapped", &naive_req, &naive_sec);
    global_loads("matmul_tiled", &tiled_req, &tiled_sec);
    if (tiled_req * MIN_LOAD_REDUCTION > naive_req)
        gl_check_fail("matmul_tiled issues %.0f global load requests at %s^3, only %.1fx fewer "
                      "than the naive product (%.0f); loading each element of A and B once per "
                      "tile and using it TILE = %d times should make it at least %.0fx fewer. "
                      "Does the inner loop read only the shared tiles?",
                      tiled_req, PROFILE_DIM, naive_req / tiled_req, naive_req, TILE,
                      MIN_LOAD_REDUCTION);
    gl_test_note("global load requests: tiled %.0f, naive %.0f: %.1fx fewer (needs %.0fx); "
                 "sectors %.0f and %.0f",
                 tiled_req, naive_req, naive_req / tiled_req, MIN_LOAD_REDUCTION, tiled_sec,
                 naive_sec);
}

GL_TEST(naive_sectors_per_request)
{
    double sw_req, sw_sec, req, sec;
    global_loads("given:matmul_naive_swapped", &sw_req, &sw_sec);
    global_loads("matmul_naive", &req, &sec);
    if (sw_sec / sw_req < MIN_SWAPPED_SECTORS)
        gl_check_fail("grader: the given matmul_naive_swapped reads only %.2f sectors per global "
                      "load request, where its rows k floats apart predict about 8.5: the "
                      "counter does not show the mapping on this GPU",
                      sw_sec / sw_req);
    if (sec / req > MAX_NAIVE_SECTORS)
        gl_check_fail("matmul_naive reads %.2f sectors of 32 bytes per global load request (the "
                      "given swapped kernel %.2f): a warp whose threads walk along a row of C "
                      "reads 16 consecutive floats of one row of B (2 sectors; its two rows of "
                      "threads read the same ones) and one float of each of two rows of A (2): "
                      "2. Does threadIdx.x pick the column?",
                      sec / req, sw_sec / sw_req);
    gl_test_note("sectors per global load request: naive %.2f (at most %.1f), given swapped "
                 "%.2f",
                 sec / req, MAX_NAIVE_SECTORS, sw_sec / sw_req);
}

/* Under Nsight Compute: one launcher ("given:NAME" for the lab's own), once,
 * on M x N x K; checked. */
static const char *run_once(int argc, char **argv)
{
    static const char *names[] = {"matmul_naive", "matmul_tiled", "matmul_naive_grid1d",
                                  "matmul_naive_block_launches", "matmul_naive_swapped"};
    static const family families[] = {NAIVE, TILED, GRID1D, BLOCKS, GIVEN};
    launcher l;
    const char *name;
    long m, n, k;
    int i;

    if (argc != 4 || gl_parse_long(argv[1], 1, 4096, &m) || gl_parse_long(argv[2], 1, 4096, &n) ||
        gl_parse_long(argv[3], 0, 4096, &k))
        return "usage: --run [given:]LAUNCHER M N K";
    name = gl_launcher_name(argv[0]);
    for (i = 0; i < 5; i++)
        if (!strcmp(name, names[i]))
            break;
    if (i == 5)
        return "usage: --run [given:]LAUNCHER M N K (no such launcher)";
    l.name = name;
    l.what = families[i];
    l.fn = (matmul_fn)gl_launcher_fn(argv[0]);
    l.shape = NULL;
    l.rows = l.cols = 0;
    return run_and_check(&l, (int)m, (int)n, (int)k);
}

static void add_tests(void)
{
    GL_ADD(naive_edges, GL_CORRECTNESS, 2, 15, "naive, tiny sizes and k = 0");
    GL_ADD(naive_sizes, GL_CORRECTNESS, 2, 15, "naive, 64^3 and odd sizes");
    GL_ADD(naive_shapes, GL_CORRECTNESS, 3, 15, "naive, every block shape");
    GL_ADD(naive_async, GL_CORRECTNESS, 1, 30, "naive, launcher returns at once");
    GL_ADD(tiled_edges, GL_CORRECTNESS, 3, 15, "tiled, tiny sizes and k = 0");
    GL_ADD(tiled_sizes, GL_CORRECTNESS, 3, 15, "tiled, 64^3 and odd sizes");
    GL_ADD(tiled_async, GL_CORRECTNESS, 2, 30, "tiled, launcher returns at once");
    GL_ADD(grid1d_edges, GL_CORRECTNESS, 1, 15, "1D grid, tiny sizes and k = 0");
    GL_ADD(grid1d_sizes, GL_CORRECTNESS, 2, 15, "1D grid, 64^3 and odd sizes");
    GL_ADD(block_launches_edges, GL_CORRECTNESS, 1, 15, "block launches, tiny sizes and k = 0");
    GL_ADD(block_launches_sizes, GL_CORRECTNESS, 2, 15, "block launches, 64^3 and odd sizes");
    GL_ADD(tiled_shared_tiles, GL_TECHNIQUE, 3, 10, "tiled: two shared tiles");
    GL_ADD(tiled_barriers, GL_TECHNIQUE, 3, 10, "tiled: a barrier after writing, after reading");
    GL_ADD(naive_coalesced, GL_TECHNIQUE, 3, 10, "naive: threadIdx.x along the columns");
    GL_ADD(naive_vs_swapped, GL_PERFORMANCE, 4, 120, "naive faster than swapped");
    GL_ADD(tiled_vs_naive, GL_PERFORMANCE, 4, 120, "tiled faster than naive");
    GL_ADD(block_launches_pay_per_launch, GL_PERFORMANCE, 3, 120,
           "block launches pay a launch per block");
    GL_ADD(tiled_global_loads, GL_PROFILE, 4, 300, "tiled: TILE times fewer global loads");
    GL_ADD(naive_sectors_per_request, GL_PROFILE, 3, 300, "naive: coalesced loads");
}

const gl_lab GL_LAB = {"09-matmul-tiling", "matmul_tiling.cu", add_tests, run_once};
