/* 02-coalescing.c: the grader's suite for lab 02-coalescing.
 *
 *   correctness  strided copy, structure-of-arrays kick (only vx changes) and
 *                matrix add on every class of size (n a multiple of the block
 *                or of 32 or neither; rows a multiple of 32, of 8 or neither,
 *                columns a multiple of 32 or not, each separately), tiny and
 *                large ones, and one drawn from the run's seed; the launchers
 *                return at once (the work is on the GPU)
 *   technique    the kick reads arrays of floats, not 32-byte records; the
 *                matrix add does not scale threadIdx.x by the row length
 *   performance  against the lab's own kernels (copy_float, kick_aos,
 *                matrix_add_naive), timed by the judge on fresh inputs every call
 *   profile      global-load sectors per request (Nsight Compute): 4 when a
 *                warp reads 32 consecutive floats, up to 32 when strided */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thresholds, well inside what the reference shows (README.md has the
 * measured numbers): a verdict must not flip between runs. */
#define MIN_STRIDE1_PCT_OF_COPY 60.0 /* the reference: 99% of copy_float */
#define MIN_SOA_OVER_AOS 1.3         /* bandwidth ratios; the reference: 2.7x (1.4x at 1/4 SMs) */
#define MIN_ADD_OVER_NAIVE 1.8       /* the reference: 2.9x (H200), 3.1x (H100) */
#define MAX_COALESCED_SECTORS 6.0 /* global-load sectors per request: 4 = 32 floats; stride 2: 8 */
#define MIN_STRIDED_SECTORS 16.0

/* ---- one run of a launcher, checked (lab.c); "" or why not ---- */

static const char *copy_once(gl_rng *rng, const char *launcher, int n, int stride)
{
    size_t len = n ? (size_t)(n - 1) * stride + 1 : 1;
    float *h_in = gl_malloc(len * sizeof(float));
    gl_buf in = gl_buf_alloc(len * sizeof(float), 0);
    const char *why;
    gl_fill_float(rng, h_in, len, -1.0f, 1.0f);
    gl_buf_upload(&in, h_in);
    why = co_copy_check(launcher, &in, h_in, 0, n, stride);
    gl_buf_free(&in);
    free(h_in);
    return why;
}

static const char *kick_once(gl_rng *rng, const char *launcher, int n)
{
    float *fields, *ref;
    const char *why;
    co_particles_make(rng, n, &fields, &ref);
    why = co_kick_check(launcher, n, fields, ref);
    free(fields);
    free(ref);
    return why;
}

static const char *add_once(gl_rng *rng, const char *launcher, int rows, int cols)
{
    float *a, *b, *ref;
    const char *why;
    co_add_make(rng, rows, cols, &a, &b, &ref);
    why = co_add_check(launcher, rows, cols, a, b, ref);
    free(a);
    free(b);
    free(ref);
    return why;
}

/* ---- task 1: strided copy ---- */

static void check_strided(const int (*cases)[2], int ncases)
{
    gl_rng rng;
    int c;
    gl_test_rng(&rng);
    for (c = 0; c < ncases; c++) {
        const char *why = copy_once(&rng, "strided_copy", cases[c][0], cases[c][1]);
        if (*why)
            gl_check_fail("strided_copy with n = %d, stride = %d: %s", cases[c][0], cases[c][1],
                          why);
    }
}

GL_TEST(strided_small, GL_CORRECTNESS, 2, 15, "strided copy, tiny and odd n and strides")
{
    static const int cases[][2] = {{0, 1}, {1, 1}, {1, 7}, {2, 64}, {33, 2}, {1000, 3}, {255, 32}};
    check_strided(cases, 7);
}

/* n a multiple of the block (CO_BLOCK), or of 32 but not of the block */
GL_TEST(strided_whole, GL_CORRECTNESS, 1, 15, "strided copy, n a multiple of 256 or of 32")
{
    static const int cases[][2] = {{256, 1}, {512, 5}, {4096, 32}, {32, 3}, {96, 1}, {8224, 33}};
    check_strided(cases, 6);
}

GL_TEST(strided_large, GL_CORRECTNESS, 2, 30, "strided copy, n = 2^20 + 1 and 2^20")
{
    static const int cases[][2] = {
        {(1 << 20) + 1, 1}, {(1 << 20) + 1, 32}, {100003, 33}, {1 << 20, 2}};
    check_strided(cases, 4);
}

GL_TEST(strided_random, GL_CORRECTNESS, 1, 15, "strided copy, n and stride from the seed")
{
    gl_rng rng;
    int c[1][2];
    gl_test_rng(&rng);
    c[0][0] = (int)gl_rng_range(&rng, 1, 300000);
    c[0][1] = (int)gl_rng_range(&rng, 1, 40);
    check_strided(c, 1);
}

/* ---- task 2: structure of arrays ---- */

static void check_soa(const int *sizes, int nsizes)
{
    gl_rng rng;
    int i;
    gl_test_rng(&rng);
    for (i = 0; i < nsizes; i++) {
        const char *why = kick_once(&rng, "kick_soa", sizes[i]);
        if (*why)
            gl_check_fail("kick_soa with n = %d: %s", sizes[i], why);
    }
}

GL_TEST(soa_small, GL_CORRECTNESS, 1, 15, "SoA kick, n = 1, 31 and 1000")
{
    static const int sizes[] = {1, 31, 1000};
    check_soa(sizes, 3);
}

GL_TEST(soa_whole, GL_CORRECTNESS, 1, 15, "SoA kick, n a multiple of 256 or of 32")
{
    static const int sizes[] = {32, 96, 256, 4096};
    check_soa(sizes, 4);
}

GL_TEST(soa_large, GL_CORRECTNESS, 2, 30, "SoA kick, n = 2^20 + 3")
{
    static const int sizes[] = {(1 << 20) + 3};
    check_soa(sizes, 1);
}

GL_TEST(soa_random, GL_CORRECTNESS, 1, 15, "SoA kick, n from the seed")
{
    gl_rng rng;
    int n[1];
    gl_test_rng(&rng);
    n[0] = (int)gl_rng_range(&rng, 1, 300000);
    check_soa(n, 1);
}

/* ---- task 3: matrix add (blocks of 32 x 8 threads) ---- */

static void check_add(const int (*sizes)[2], int nsizes)
{
    gl_rng rng;
    int i;
    gl_test_rng(&rng);
    for (i = 0; i < nsizes; i++) {
        const char *why = add_once(&rng, "matrix_add", sizes[i][0], sizes[i][1]);
        if (*why)
            gl_check_fail("matrix_add on %d x %d: %s", sizes[i][0], sizes[i][1], why);
    }
}

GL_TEST(add_small, GL_CORRECTNESS, 2, 15, "matrix add, 1 x 1 to 33 x 31")
{
    static const int sizes[][2] = {{1, 1}, {1, 1000}, {1000, 1}, {33, 31}};
    check_add(sizes, 4);
}

/* rows a multiple of 32 (and of 8), columns not a multiple of 32 */
GL_TEST(add_whole_rows, GL_CORRECTNESS, 1, 15, "matrix add, rows a multiple of 32")
{
    static const int sizes[][2] = {{64, 33}, {32, 1}, {256, 1000}};
    check_add(sizes, 3);
}

/* columns a multiple of 32; rows a multiple of 8 but not of 32, or of neither */
GL_TEST(add_whole_cols, GL_CORRECTNESS, 2, 15, "matrix add, columns a multiple of 32")
{
    static const int sizes[][2] = {{33, 64}, {5, 32}, {40, 96}, {1027, 1024}};
    check_add(sizes, 4);
}

GL_TEST(add_whole, GL_CORRECTNESS, 1, 15, "matrix add, both multiples of 32")
{
    static const int sizes[][2] = {{32, 32}, {64, 96}, {256, 1024}};
    check_add(sizes, 3);
}

GL_TEST(add_large, GL_CORRECTNESS, 2, 30, "matrix add, 1025 x 2049")
{
    static const int sizes[][2] = {{1025, 2049}};
    check_add(sizes, 1);
}

GL_TEST(add_random, GL_CORRECTNESS, 1, 15, "matrix add, a size drawn from the seed")
{
    gl_rng rng;
    int s[1][2];
    gl_test_rng(&rng);
    s[0][0] = (int)gl_rng_range(&rng, 1, 3000);
    s[0][1] = (int)gl_rng_range(&rng, 1, 3000);
    check_add(s, 1);
}

/* ---- the launchers only enqueue their kernels (gl_perf_queued) ---- */

/* 1000 elements, particles, or 1000 x 1000 for the matrix add, behind a 150 ms kernel. */
static void check_async(const char *launcher)
{
    co_size z = {.n = 1000, .stride = 1, .rows = 1000, .cols = 1000};
    gl_problem p = co_problem(launcher, &z);
    gl_perf_queued(launcher, &p);
}

GL_TEST(strided_async, GL_CORRECTNESS, 1, 30, "strided copy, launcher returns at once")
{
    check_async("strided_copy");
}

GL_TEST(soa_async, GL_CORRECTNESS, 1, 30, "SoA kick, launcher returns at once")
{
    check_async("kick_soa");
}

GL_TEST(add_async, GL_CORRECTNESS, 2, 30, "matrix add, launcher returns at once")
{
    check_async("matrix_add");
}

/* ---- technique: read from the PTX of the kernels that ran ---- */

/* An index times 32 (the record size) is an array of structures. */
static int record_stride(const gl_ptx_entry *e)
{
    const char *p = e->body, *end = e->body + e->body_len;
    while ((p = strstr(p, "mul.wide.")) != NULL && p < end) {
        const char *eol = strchr(p, ';');
        if (eol && eol - p > 4 && !strncmp(eol - 4, ", 32", 4))
            return 1;
        p += 9;
    }
    return 0;
}

static void check_soa_layout(const char *kernel)
{
    gl_ptx_entry e;
    char *ptx = gl_kernel_ptx(kernel, &e);
    if (gl_ptx_count(&e, "ld.global") < 3)
        gl_check_fail("%s has %d global loads in its PTX: it should read vx, mass and charge "
                      "from their arrays",
                      kernel, gl_ptx_count(&e, "ld.global"));
    if (record_stride(&e))
        gl_check_fail("%s steps 32 bytes per particle (an index times 32 in its PTX): it still "
                      "reads records of 8 floats, an array of structures. Read p.vx[i], "
                      "p.mass[i] and p.charge[i]: 4 bytes per particle per field",
                      kernel);
    free(ptx);
}

static void check_add_mapping(const char *kernel)
{
    gl_ptx_entry e;
    char why[256], *ptx = gl_kernel_ptx(kernel, &e);
    if (!strstr(e.body, "%tid.x"))
        gl_check_fail("%s does not use threadIdx.x", kernel);
    if (gl_ptx_scales_tid_x(&e, why, sizeof why))
        gl_check_fail("in %s a value computed from threadIdx.x is multiplied by a run-time value "
                      "(%s): threadIdx.x picks the row, so the 32 threads of a warp are a whole "
                      "row apart. Let threadIdx.x pick the column: col = blockIdx.x * "
                      "blockDim.x + threadIdx.x",
                      kernel, why);
    free(ptx);
}

GL_TEST(soa_layout, GL_TECHNIQUE, 3, 10, "SoA kick: arrays of floats, no records")
{
    GL_FOR_EACH_KERNEL("kick_soa", "kick_soa_kernel", k) check_soa_layout(k);
}

GL_TEST(add_mapping, GL_TECHNIQUE, 3, 10, "matrix add: threadIdx.x along a row")
{
    GL_FOR_EACH_KERNEL("matrix_add", "matrix_add_kernel", k) check_add_mapping(k);
}

/* ---- performance: the judge's clock, fresh inputs every call (gl_perf_ms) ---- */

/* The largest test's memory (MiB), in buffers of 256 MiB (257 with their guards): the SoA
 * kick's 12 calls of 2^24 particles of 32 bytes, the particles made again and the reference's
 * records, 28 (8 calls of a copy of 2^26 floats, its in and out and both made again, 18; 5
 * calls of a matrix add of 8192 x 8192, a, b, c and the three made again, 18). On a smaller
 * pool every size is a quarter. */
#define POOL_MIB (28 * 257 + 64)

static int quarter(void)
{
    return gl_pool_mib() >= POOL_MIB ? 1 : 4;
}

/* Effective bandwidth (useful GB/s) of a launcher on its problem at z (lab.c), each output of
 * a student's checked after every round (a wrong kernel's speed means nothing). */
static double gbps(const char *launcher, co_size z)
{
    gl_problem p = co_problem(launcher, &z);
    return gl_gbps(p.work, gl_perf_ms(launcher, &p));
}

GL_TEST(stride1_vs_copy, GL_PERFORMANCE, 4, 120, "stride 1 as fast as the kit's copy")
{
    int n = (1 << 26) / quarter();
    double copy = gbps("copy_float", (co_size){.n = n}),
           mine = gbps("strided_copy", (co_size){.n = n, .stride = 1});
    gl_test_margin(gl_percent(mine, copy), MIN_STRIDE1_PCT_OF_COPY, 1);
    if (gl_percent(mine, copy) < MIN_STRIDE1_PCT_OF_COPY)
        gl_check_fail("at n = %d, strided_copy at stride 1 moves %.0f GB/s, %.0f%% of the kit's "
                      "copy_float (%.0f GB/s); it should reach %.0f%%. At stride 1 the strided "
                      "copy is a plain copy: do consecutive threads copy consecutive floats "
                      "(thread i copies element i, not a block of elements of its own)?",
                      n, mine, gl_percent(mine, copy), copy, MIN_STRIDE1_PCT_OF_COPY);
    gl_test_note("stride 1: %.0f GB/s = %.1f%% of copy_float %.0f GB/s (needs %.0f%%)", mine,
                 gl_percent(mine, copy), copy, MIN_STRIDE1_PCT_OF_COPY);
}

GL_TEST(soa_vs_aos, GL_PERFORMANCE, 4, 120, "SoA kick faster than AoS")
{
    int n = (1 << 24) / quarter();
    /* useful bytes: vx, mass and charge read, vx written */
    double aos = gbps("kick_aos", (co_size){.n = n}), soa = gbps("kick_soa", (co_size){.n = n});
    gl_test_margin(soa / aos, MIN_SOA_OVER_AOS, 1);
    if (soa < MIN_SOA_OVER_AOS * aos)
        gl_check_fail("at n = %d, kick_soa moves %.0f useful GB/s, %.2fx the given kick_aos "
                      "(%.0f GB/s), where reading 3 arrays of floats should be at least %.1fx "
                      "faster than reading 3 fields of 32-byte records",
                      n, soa, soa / aos, aos, MIN_SOA_OVER_AOS);
    gl_test_note("SoA %.0f GB/s = %.2fx AoS %.0f GB/s (needs %.1fx)", soa, soa / aos, aos,
                 MIN_SOA_OVER_AOS);
}

GL_TEST(add_vs_naive, GL_PERFORMANCE, 4, 120, "matrix add faster than naive mapping")
{
    int rows = 8192 / (quarter() == 1 ? 1 : 2), cols = rows;
    double naive = gbps("matrix_add_naive", (co_size){.rows = rows, .cols = cols}),
           mine = gbps("matrix_add", (co_size){.rows = rows, .cols = cols});
    gl_test_margin(mine / naive, MIN_ADD_OVER_NAIVE, 1);
    if (mine < MIN_ADD_OVER_NAIVE * naive)
        gl_check_fail("on %d x %d, matrix_add moves %.0f GB/s, %.2fx the given matrix_add_naive "
                      "(%.0f GB/s), where letting threadIdx.x walk along the rows should make it "
                      "at least %.1fx faster",
                      rows, cols, mine, mine / naive, naive, MIN_ADD_OVER_NAIVE);
    gl_test_note("matrix_add %.0f GB/s = %.2fx naive %.0f GB/s (needs %.1fx)", mine,
                 mine / naive, naive, MIN_ADD_OVER_NAIVE);
}

/* ---- profile: Nsight Compute counters ---- */

/* Sectors per global load request of the kernel that did the work with the worst (larger:
 * the least, else the most). */
static double sectors_per_request(const char *const *args, int larger)
{
    static const char *const metrics[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"};
    double v[2], r;
    char kernel[224];
    r = gl_profile_ratio(metrics, 2, 1u << 0, 1u << 1, larger, args, v, kernel, sizeof kernel);
    if (r < 0)
        gl_check_fail("%s made no global load requests (Nsight Compute)", args[0]);
    gl_test_note("%.2f sectors per global load request (%.0f sectors, %.0f requests)", r, v[0],
                 v[1]);
    return r;
}

GL_TEST(stride1_sectors, GL_PROFILE, 2, 300, "stride 1: 4 sectors per request")
{
    const char *args[] = {"strided_copy", "1048576", "1", NULL};
    double s = sectors_per_request(args, 0);
    gl_test_margin(s, MAX_COALESCED_SECTORS, 0);
    if (s > MAX_COALESCED_SECTORS)
        gl_check_fail("strided_copy at stride 1 reads %.2f sectors of 32 bytes per load request: "
                      "a warp reading 32 consecutive floats needs 4. Does thread i read element "
                      "i?",
                      s);
}

GL_TEST(stride32_sectors, GL_PROFILE, 2, 300, "stride 32: 32 sectors per request")
{
    const char *args[] = {"strided_copy", "1048576", "32", NULL};
    double s = sectors_per_request(args, 1);
    gl_test_margin(s, MIN_STRIDED_SECTORS, 1);
    if (s < MIN_STRIDED_SECTORS)
        gl_check_fail("strided_copy at stride 32 reads only %.2f sectors per load request: with "
                      "floats 128 bytes apart, every thread of a warp needs a sector of its own "
                      "(32). Does it read in[i * stride]?",
                      s);
}

GL_TEST(soa_sectors, GL_PROFILE, 2, 300, "SoA kick: 4 sectors per request")
{
    const char *args[] = {"kick_soa", "1048576", NULL};
    double s = sectors_per_request(args, 0);
    gl_test_margin(s, MAX_COALESCED_SECTORS, 0);
    if (s > MAX_COALESCED_SECTORS)
        gl_check_fail("kick_soa reads %.2f sectors per load request, where 32 consecutive floats "
                      "of one array need 4: is every field read from its own array?",
                      s);
}

GL_TEST(add_sectors, GL_PROFILE, 2, 300, "matrix add: 4 sectors per request")
{
    const char *args[] = {"matrix_add", "2048", "2048", NULL};
    double s = sectors_per_request(args, 0);
    gl_test_margin(s, MAX_COALESCED_SECTORS, 0);
    if (s > MAX_COALESCED_SECTORS)
        gl_check_fail("matrix_add reads %.2f sectors per load request, where a warp reading 32 "
                      "consecutive floats of a row needs 4: does threadIdx.x walk along the row?",
                      s);
}

/* The problem of a profile run (strided_copy N [STRIDE], kick_soa N, matrix_add ROWS COLS) or
 * of a probe (1000 elements at stride 3, 1000 particles, 40 x 70). */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static co_size z;
    int add = !strncmp(launcher, "matrix_add", 10), kick = !strncmp(launcher, "kick_", 5);
    long x = add ? 40 : 1000, y = add ? 70 : argc == 0 ? 3 : 1;
    if (!gl_launcher_find(launcher) ||
        (argc != 0 && (argc > (kick ? 1 : 2) || gl_parse_long(argv[0], 1, 1 << 24, &x) ||
                       (argc > 1 && gl_parse_long(argv[1], 1, 1 << 16, &y)))) ||
        x * y >= 1L << 31)
        return -1;
    z = (co_size){.n = (int)x, .stride = (int)y};
    if (add)
        z = (co_size){.rows = (int)x, .cols = (int)y};
    *p = co_problem(launcher, &z);
    return 0;
}

const gl_lab GL_LAB = {.name = "02-coalescing", .file = "coalescing.cu", .problem = problem,
                       .pool_mib = POOL_MIB};
