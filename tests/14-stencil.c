/* 14-stencil.c: the grader's suite for lab 14-stencil.
 *
 *   correctness  shared and texture on every class of size (rows and columns each a multiple
 *                of TILE or not, thin, tiny, a pitch wider than the row, large), and one drawn
 *                from the run's seed; the launchers return at once (the work is on the GPU)
 *   technique    shared: a tile with its halo in shared memory, a barrier between loading it
 *                and reading it; texture: tex fetches and no global load, no clamping code
 *   performance  shared against the kit's stencil_global; texture within reach of it, timed
 *                by the judge on fresh inputs every call
 *   profile      global loads per output warp (Nsight Compute): a few for shared, 81 for the
 *                given kernel; the texture kernel's reads go through the texture pipe */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdio.h>

#define HALO_TILE (TILE + 2 * RADIUS)

#define CORRECTNESS(fn, label)                                                                \
    GL_RIGHT(fn##_tiny, 2, 15, label ", 1 x 1, 1 x 1000, 1000 x 1, 2 x 3",                    \
             .run = "stencil_" #fn, .cases = "1 1, 1 1000, 1000 1, 2 3")                      \
    GL_RIGHT(fn##_33x31, 2, 15, label ", 33 x 31 and 31 x 33", .run = "stencil_" #fn,         \
             .cases = "33 31, 31 33")                                                         \
    GL_RIGHT(fn##_64x96, 1, 15, label ", 64 x 96 (whole tiles)", .run = "stencil_" #fn " 64 96") \
    GL_RIGHT(fn##_wide_pitch, 1, 15, label ", 100 x 100, rows 256 floats apart",              \
             .run = "stencil_" #fn " 100 100 256")                                            \
    GL_RIGHT(fn##_1025x2049, 2, 15, label ", 1025 x 2049", .run = "stencil_" #fn " 1025 2049") \
    GL_RIGHT(fn##_4096x4096, 1, 60, label ", 4096 x 4096", .run = "stencil_" #fn " 4096 4096") \
    GL_RIGHT(fn##_random, 1, 15, label ", a size drawn from the seed",                        \
             .run = "stencil_" #fn " 1..3000 1..3000")                                        \
    GL_QUEUED(fn##_async, 2, label ", launcher returns at once", .run = "stencil_" #fn " 1000 1000")

CORRECTNESS(shared, "shared")
CORRECTNESS(texture, "texture")

/* ---- technique: read from the PTX and ptxas report, no GPU needed ---- */

static void check_tile(const char *kernel)
{
    gl_expect_shared_at_least(kernel, (long)(HALO_TILE * HALO_TILE * sizeof(float)),
                              "a (TILE + 2 * RADIUS) x (TILE + 2 * RADIUS) tile of floats: the "
                              "block's pixels and RADIUS more on every side",
                              "Task 1 loads the block's window, its tile and its halo, into "
                              "shared memory once, and computes every pixel from there");
    gl_expect_shared_rw(gl_kernel_entry(kernel), kernel,
                        "the block loads its tile (st.shared) and computes from it (ld.shared)");
}

GL_KERNEL_TEST(shared_halo_tile, 3, "shared: a tile with its halo", "stencil_shared",
               "stencil_shared_kernel", check_tile(k))

/* The given kernel stages nothing; task 1's loads the tile, waits, then reads it. */
static void check_barrier(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    gl_expect_barriers(e, kernel, 1,
                       "between loading the tile and reading it, every thread must wait, or "
                       "it reads elements that other warps have not loaded yet");
    if (gl_ptx_shared_hazard(e) == GL_READ_AFTER_WRITE)
        gl_check_fail("in %s a thread can read the tile (ld.shared) after writing its elements "
                      "(st.shared) with no barrier in between: it may read an element another "
                      "warp has not loaded yet. __syncthreads() after the loading loop",
                      kernel);
}

GL_TEST(shared_barrier, GL_TECHNIQUE, 2, 10, "shared: __syncthreads() after loading")
{
    gl_given_tells_apart(gl_ptx_barriers(gl_given_entry("stencil_global_kernel")) == 0,
                         "stencil_global_kernel", "has a barrier");
    GL_FOR_EACH_KERNEL("stencil_shared", "stencil_shared_kernel", k) check_barrier(k);
}

/* Every read a texture fetch (tex.2d), none a global load (ld.global). */
static void check_fetches(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int fetches = gl_ptx_count(e, "tex"), loads = gl_ptx_count(e, "ld.global");
    if (fetches == 0)
        gl_check_fail("%s has no texture fetch (tex in its PTX): task 2 reads every pixel with "
                      "tex2D<float>(image, x, y) from the texture object",
                      kernel);
    if (loads > 0)
        gl_check_fail("%s has %d global loads (ld.global in its PTX) beside its %d texture "
                      "fetches: task 2 reads the image through the texture alone",
                      kernel, loads, fetches);
    gl_test_note("%d texture fetches, no global load", fetches);
}

GL_TEST(texture_fetches, GL_TECHNIQUE, 3, 10, "texture: tex fetches, no global load")
{
    const gl_ptx_entry *given = gl_given_entry("stencil_global_kernel");
    gl_given_tells_apart(gl_ptx_count(given, "tex") == 0 && gl_ptx_count(given, "ld.global"),
                         "stencil_global_kernel", "has texture fetches, or no global load");
    GL_FOR_EACH_KERNEL("stencil_texture", "stencil_texture_kernel", k) check_fetches(k);
}

/* The given kernel clamps every row and column (min, max); the texture clamps by itself. */
static void check_no_clamp(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int clamps = gl_ptx_count(e, "min") + gl_ptx_count(e, "max");
    if (clamps > 0)
        gl_check_fail("%s clamps indices itself (%d min and max in its PTX): a texture with "
                      "cudaAddressModeClamp takes a coordinate outside the image to its edge "
                      "in hardware, so the kernel needs no edge code",
                      kernel, clamps);
}

GL_TEST(texture_no_edge_code, GL_TECHNIQUE, 2, 10, "texture: no clamping code")
{
    gl_given_tells_apart(gl_ptx_count(gl_given_entry("stencil_global_kernel"), "min") > 0,
                         "stencil_global_kernel", "has no min (its clamped indices)");
    GL_FOR_EACH_KERNEL("stencil_texture", "stencil_texture_kernel", k) check_no_clamp(k);
}

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ---- */

GL_FASTER(shared_vs_global, 5, "shared at least as fast as global", .launcher = "stencil_shared",
          .than = "stencil_global", .factor = 1.0, /* H100: 2.18x (calibrate), 3.45x (the demo) */
          .hint = "Does each block read its tile and halo from global memory once, and then "
                  "only shared memory, with consecutive threadIdx.x on consecutive columns?")

GL_SHARE(texture_vs_global, 3, "texture within reach of global", .launcher = "stencil_texture",
         .than = "stencil_global",
         .percent = 15, /* H100 29.6%, H200 28.8%: the texture unit, 81 fetches a pixel */
         .hint = "One fetch per window pixel, point sampling, one texture object a call: is "
                 "the kernel doing more (several fetches a pixel, filtering)?")

/* ---- profile: Nsight Compute counters ---- */

static void loads_detail(const double *v, char *out, size_t len)
{
    snprintf(out, len, "%.0f global load instructions, %.0f global store instructions (one a "
             "warp of 32 output pixels)", v[0], v[1]);
}

/* 81 for the given kernel (one load a window pixel), under 2 for a 40 x 40 tile */
static const gl_counter loads_per_store = {
    "global load instructions per global store instruction",
    (const char *const[]){"smsp__sass_inst_executed_op_global_ld.sum",
                          "smsp__sass_inst_executed_op_global_st.sum"},
    2, 1u << 0, 1u << 1, loads_detail};

GL_COUNTER(shared_global_loads, 4, "shared: few global loads per output",
           .counter = &loads_per_store, .run = "stencil_shared 2048 2048",
           .at_most = 8, /* reference about 1.6, given 81 */
           .hint = "Its kernel still reads the window from global memory: load the tile and "
                   "its halo once, then read only shared memory",
           .none = "no kernel stored the output with global stores")

static void fetch_detail(const double *v, char *out, size_t len)
{
    snprintf(out, len, "%.0f texture requests, %.0f global load requests", v[0], v[1]);
}

/* 1 when every read is a texture fetch */
static const gl_counter texture_share = {
    "texture requests per read request (texture and global loads)",
    (const char *const[]){"l1tex__t_requests_pipe_tex_mem_texture.sum",
                          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
    2, 1u << 0, 3u, fetch_detail};

GL_COUNTER(texture_pipe, 3, "texture: reads through the texture pipe", .counter = &texture_share,
           .run = "stencil_texture 2048 2048", .at_least = 0.6, /* the reference: 1 */
           .hint = "Its kernel reads the image with global loads: read it with tex2D",
           .none = "no kernel read anything")

/* The timed problem: 4096 x 4096 where the pool holds 18 of them (64 MiB each, 8 inputs and 8
 * outputs a round: beyond any L2), else 2048 x 2048. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static stencil_size z;
    z.rows = z.cols = gl_pool_mib() >= 18 * 65 ? 4096 : 2048;
    z.pitch = 0;
    *p = stencil_problem(launcher, &z);
    return on && *on ? -1 : 0;
}

/* The problem of a profile run or a test (LAUNCHER ROWS COLS [PITCH]) or of a probe
 * (100 x 70). */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static stencil_size z;
    long rows = 100, cols = 70, pitch = 0;
    if (argc != 0 && ((argc != 2 && argc != 3) ||
                      gl_parse_long(argv[0], 1, STENCIL_MAX_DIM, &rows) ||
                      gl_parse_long(argv[1], 1, STENCIL_MAX_DIM, &cols) ||
                      (argc == 3 && (gl_parse_long(argv[2], cols, 1L << 19, &pitch) ||
                                     pitch % STENCIL_PITCH_ALIGN))))
        return -1;
    z.rows = (int)rows;
    z.cols = (int)cols;
    z.pitch = (int)pitch;
    *p = stencil_problem(launcher, &z);
    return 0;
}

const gl_lab GL_LAB = {.name = "14-stencil", .file = "stencil.cu", .problem = problem,
                       .timed = timed, .pool_mib = 18 * 65 + 64};
