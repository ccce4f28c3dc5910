/* 02-coalescing.c: the grader's suite for lab 02-coalescing: the strided copy, the SoA kick (only
 * vx changes) and the matrix add on every class of size, tiny, large and drawn from the run's seed,
 * each call checked on the lab's problem (lab.c: guards, inputs read-only), and returning at once;
 * in the PTX, the kick's arrays of floats (not 32-byte records) and the add's threadIdx.x not
 * scaled by the row length; timed claims against the kit's kernels (copy_float, kick_aos,
 * matrix_add_naive) on fresh inputs every call; global-load sectors per request (Nsight Compute):
 * 4 when a warp reads 32 consecutive floats, up to 32 when strided. */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <string.h>

/* ---- correctness: each case on the lab's problem (lab.c), inputs from the test's seed ---- */

/* task 1, each case "n stride": n a multiple of the block (CO_BLOCK), or of 32 but not of the
 * block, or neither */
GL_RIGHT(strided_small, 2, 15, "strided copy, tiny and odd n and strides", .run = "strided_copy",
         .cases = "0 1, 1 1, 1 7, 2 64, 33 2, 1000 3, 255 32")
GL_RIGHT(strided_whole, 1, 15, "strided copy, n a multiple of 256 or of 32",
         .run = "strided_copy", .cases = "256 1, 512 5, 4096 32, 32 3, 96 1, 8224 33")
GL_RIGHT(strided_large, 2, 30, "strided copy, n = 2^20 + 1 and 2^20", .run = "strided_copy",
         .cases = "1048577 1, 1048577 32, 100003 33, 1048576 2")
GL_RIGHT(strided_random, 1, 15, "strided copy, n and stride from the seed",
         .run = "strided_copy 1..300000 1..40")

/* task 2: structure of arrays, each case n */
GL_RIGHT(soa_small, 1, 15, "SoA kick, n = 1, 31 and 1000", .run = "kick_soa",
         .cases = "1, 31, 1000")
GL_RIGHT(soa_whole, 1, 15, "SoA kick, n a multiple of 256 or of 32", .run = "kick_soa",
         .cases = "32, 96, 256, 4096")
GL_RIGHT(soa_large, 2, 30, "SoA kick, n = 2^20 + 3", .run = "kick_soa 1048579")
GL_RIGHT(soa_random, 1, 15, "SoA kick, n from the seed", .run = "kick_soa 1..300000")

/* task 3: matrix add (blocks of 32 x 8 threads), each case "rows cols": rows a multiple of 32 with
 * columns not; columns a multiple of 32 with rows a multiple of 8 but not of 32, or of neither */
GL_RIGHT(add_small, 2, 15, "matrix add, 1 x 1 to 33 x 31", .run = "matrix_add",
         .cases = "1 1, 1 1000, 1000 1, 33 31")
GL_RIGHT(add_whole_rows, 1, 15, "matrix add, rows a multiple of 32", .run = "matrix_add",
         .cases = "64 33, 32 1, 256 1000")
GL_RIGHT(add_whole_cols, 2, 15, "matrix add, columns a multiple of 32", .run = "matrix_add",
         .cases = "33 64, 5 32, 40 96, 1027 1024")
GL_RIGHT(add_whole, 1, 15, "matrix add, both multiples of 32", .run = "matrix_add",
         .cases = "32 32, 64 96, 256 1024")
GL_RIGHT(add_large, 2, 30, "matrix add, 1025 x 2049", .run = "matrix_add 1025 2049")
GL_RIGHT(add_random, 1, 15, "matrix add, a size drawn from the seed",
         .run = "matrix_add 1..3000 1..3000")

/* the launchers only enqueue: 1000 elements or particles, or 1000 x 1000, behind a 150 ms kernel */
GL_QUEUED(strided_async, 1, "strided copy, launcher returns at once", .run = "strided_copy 1000 1")
GL_QUEUED(soa_async, 1, "SoA kick, launcher returns at once", .run = "kick_soa 1000")
GL_QUEUED(add_async, 2, "matrix add, launcher returns at once", .run = "matrix_add 1000 1000")

/* ---- technique: read from the PTX of the kernels that ran ---- */

static void check_soa_layout(const char *kernel)
{
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    const char *end = e->body + e->body_len;
    if (gl_ptx_count(e, "ld.global") < 3)
        gl_check_fail("%s has %d global loads in its PTX: it should read vx, mass and charge "
                      "from their arrays", kernel, gl_ptx_count(e, "ld.global"));
    /* an index times 32 (the record size) is an array of structures */
    for (const char *p = e->body; (p = strstr(p, "mul.wide.")) != NULL && p < end; p += 9) {
        const char *eol = strchr(p, ';');
        if (eol && eol - p > 4 && !strncmp(eol - 4, ", 32", 4))
            gl_check_fail("%s steps 32 bytes per particle (an index times 32 in its PTX): it "
                          "still reads records of 8 floats, an array of structures. Read p.vx[i], "
                          "p.mass[i] and p.charge[i]: 4 bytes per particle per field", kernel);
    }
}

GL_KERNEL_TEST(soa_layout, 3, "SoA kick: arrays of floats, no records", "kick_soa",
               "kick_soa_kernel", check_soa_layout(k))
GL_KERNEL_TEST(add_mapping, 3, "matrix add: threadIdx.x along a row", "matrix_add",
               "matrix_add_kernel", gl_expect_tid_x_along_row(gl_kernel_entry(k), k, "the 32 "
               "threads of a warp are a whole row apart"))

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ---- */

GL_SHARE(stride1_vs_copy, 4, "stride 1 as fast as the kit's copy", .launcher = "strided_copy",
         .than = "copy_float", .than_is = "the kit's copy_float",
         .percent = 60, /* the reference: 99% of copy_float */
         .hint = "At stride 1 the strided copy is a plain copy: do consecutive threads copy "
                 "consecutive floats (thread i copies element i, not a block of elements of its "
                 "own)?")

GL_FASTER(soa_vs_aos, 4, "SoA kick faster than AoS", .launcher = "kick_soa", .than = "kick_aos",
          .factor = 1.3, /* the reference: 2.7x, 1.4x at 1/4 SMs */
          .hint = "Reading 3 arrays of floats should be that much faster than reading 3 fields "
                  "of 32-byte records (useful bytes: vx, mass and charge read, vx written)")

GL_FASTER(add_vs_naive, 4, "matrix add faster than naive mapping", .launcher = "matrix_add",
          .than = "matrix_add_naive", .factor = 1.8, /* the reference: 2.9x (H200), 3.1x (H100) */
          .hint = "Letting threadIdx.x walk along the rows should make it that much faster")

/* ---- profile: Nsight Compute counters ---- */

static const gl_counter *const sectors = &gl_global_load_sectors; /* sectors per load request */

GL_COUNTER(stride1_sectors, 2, "stride 1: 4 sectors per request", .counter = sectors,
           .run = "strided_copy 1048576 1", .at_most = 6.0, /* 4 = 32 floats; stride 2: 8 */
           .hint = "A warp reading 32 consecutive floats needs 4: does thread i read element i?")

GL_COUNTER(stride32_sectors, 2, "stride 32: 32 sectors per request", .counter = sectors,
           .run = "strided_copy 1048576 32", .at_least = 16.0,
           .hint = "With floats 128 bytes apart, every thread of a warp needs a sector of its "
                   "own (32): does it read in[i * stride]?")

GL_COUNTER(soa_sectors, 2, "SoA kick: 4 sectors per request", .counter = sectors,
           .run = "kick_soa 1048576", .at_most = 6.0, .hint = "32 consecutive floats of one "
           "array need 4: is every field read from its own array?")

GL_COUNTER(add_sectors, 2, "matrix add: 4 sectors per request", .counter = sectors,
           .run = "matrix_add 2048 2048", .at_most = 6.0, .hint = "A warp reading 32 consecutive "
           "floats of a row needs 4: does threadIdx.x walk along the row?")

/* The largest timed problem's memory (MiB), in buffers of 256 MiB (257 with their guards): the
 * SoA kick's 12 calls of 2^24 particles of 32 bytes, the particles made again and the reference's
 * records, 28 (8 calls of a copy of 2^26 floats, its in and out and both made again, 18; 5 calls
 * of a matrix add of 8192 x 8192, a, b, c and the three made again, 18). */
#define POOL_MIB (28 * 257 + 64)

/* The timed problem: the copies on 2^26 floats (strided_copy at stride 1), the kicks on 2^24
 * particles, the matrix adds on 8192 x 8192; on a smaller pool every size is a quarter. */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static co_size z;
    int quarter = gl_pool_mib() >= POOL_MIB ? 1 : 4, side = quarter == 1 ? 8192 : 4096;
    int n = !strncmp(launcher, "kick_", 5) ? 1 << 24 : 1 << 26;
    z = (co_size){.n = n / quarter, .stride = 1, .rows = side, .cols = side};
    *p = co_problem(launcher, &z);
    return on && *on ? -1 : 0;
}

/* The problem of a correctness test or a profile run (strided_copy N [STRIDE], N from 0; kick_soa
 * N; matrix_add ROWS COLS) or of a probe (1000 elements at stride 3, 1000 particles, 40 x 70). */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static co_size z;
    int add = !strncmp(launcher, "matrix_add", 10), kick = !strncmp(launcher, "kick_", 5);
    long x = add ? 40 : 1000, y = add ? 70 : argc == 0 ? 3 : 1;
    if (!gl_launcher_find(launcher) || argc > (kick ? 1 : 2) ||
        (argc > 0 && gl_parse_long(argv[0], add || kick ? 1 : 0, 1 << 24, &x)) ||
        (argc > 1 && gl_parse_long(argv[1], 1, 1 << 16, &y)) || x * y >= 1L << 31)
        return -1;
    /* the words are N [STRIDE] or ROWS COLS: each launcher reads its own */
    z = (co_size){.n = (int)x, .stride = (int)y, .rows = (int)x, .cols = (int)y};
    *p = co_problem(launcher, &z);
    return 0;
}

const gl_lab GL_LAB = {.name = "02-coalescing", .file = "coalescing.cu", .problem = problem,
                       .timed = timed, .pool_mib = POOL_MIB};
