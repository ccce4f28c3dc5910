/* 03-bank-conflicts.c: the grader's suite for lab 03-bank-conflicts.
 *
 *   correctness  padded tile Gram matrices on floats and doubles, on row counts a multiple of
 *                the 32-row tile or not (tiny, large, drawn from the run's seed), within the
 *                error bound of a dot product of 32 terms; the launchers return at once;
 *                bank_conflict_degree on strides, broadcasts and random patterns (host code)
 *   technique    the padded tiles in the PTX of the kernels that ran: a float row pitch not a
 *                multiple of 32 words, a double row pitch of an odd number of doubles
 *   performance  padded against the lab's own unpadded kernels, on the judge's clock
 *   profile      shared-memory wavefronts per load (Nsight Compute): 1 for the padded float
 *                tile, at most 2 for the padded double tile */
#include "grader.h"
#include "inspect.h"

#include "lab.h"

#include <stdio.h>
#include <string.h>

/* Thresholds well inside the effect README.md predicts and measures: no verdict flips between runs
 * or GPUs. Per tile, the unpadded kernels take 33792 shared-memory wavefronts, the padded float one
 * 2048 (16.5x fewer), the padded double one 3072 (11x); an unpadded float kernel unrolled into
 * 128-bit loads (README.md "Wide loads") takes 8448 (4x fewer): under the float threshold. */
#define MIN_DOUBLE_PADDED_OVER_UNPADDED 3.0 /* predicted 6x to 11x where FP64 is fast */
#define MIN_DOUBLE_SLOW_FP64 1.3 /* FP64 at 1/32 of FP32 or slower: about 2x predicted */

/* ---- tasks 1 and 3: padded tile Gram matrices (bc_problem's check) ---- */

/* the launchers, and their row counts: a partial last tile; whole tiles only; large; one
 * count from the run's seed */
#define FLOATS "tile_gram_padded"
#define DOUBLES "tile_gram_double_padded"
#define SMALL "1, 31, 33, 100"
#define WHOLE "32, 64, 1024"
#define LARGE "262151, 262144" /* 2^18 + 7, 2^18 */
#define SEEDED " 1..300000"

GL_RIGHT(padded_small, 2, 15, "padded Gram, 1 to 100 rows", .run = FLOATS, .cases = SMALL)
GL_RIGHT(padded_whole, 1, 15, "padded Gram, whole tiles: 32 to 1024 rows", .run = FLOATS,
         .cases = WHOLE)
GL_RIGHT(padded_large, 2, 30, "padded Gram, 2^18 + 7 and 2^18 rows", .run = FLOATS, .cases = LARGE)
GL_RIGHT(padded_random, 1, 15, "padded Gram, rows from the seed", .run = FLOATS SEEDED)
GL_RIGHT(double_small, 2, 15, "padded double Gram, 1 to 100 rows", .run = DOUBLES, .cases = SMALL)
GL_RIGHT(double_whole, 1, 15, "padded double Gram, whole tiles", .run = DOUBLES, .cases = WHOLE)
GL_RIGHT(double_large, 2, 30, "padded double Gram, 2^18 + 7 and 2^18", .run = DOUBLES,
         .cases = LARGE)
GL_RIGHT(double_random, 1, 15, "padded double Gram, rows from the seed", .run = DOUBLES SEEDED)

/* it only enqueues: 100000 rows behind a 150 ms kernel */
GL_QUEUED(padded_async, 2, "padded Gram, launcher returns at once", .run = FLOATS " 100000")
GL_QUEUED(double_async, 1, "padded double Gram, returns at once", .run = DOUBLES " 100000")

/* ---- task 2: bank_conflict_degree (host code, in the student's process) ---- */

static void expect_degree(const char *what, const int *words, int lanes, int want)
{
    int got;
    const char *why = bc_degree_check(what, words, lanes, want, &got);
    if (*why)
        gl_check_fail("%s", why);
}

GL_TEST(degree_strides, GL_CORRECTNESS, 2, 15, "conflict degree: strides")
{
    /* stride s from word 5: gcd(s, 32) lanes share each bank used, at different words */
    static const int strides[] = {1, 2, 3, 4, 8, 16, 17, 32, 33, 64};
    static const int wavefronts[] = {1, 2, 1, 4, 8, 16, 1, 32, 1, 32};
    int words[32], s, l;
    char what[64];
    for (s = 0; s < (int)(sizeof strides / sizeof strides[0]); s++) {
        for (l = 0; l < 32; l++)
            words[l] = 5 + l * strides[s];
        snprintf(what, sizeof what, "stride %d", strides[s]);
        expect_degree(what, words, 32, wavefronts[s]);
    }
    expect_degree("no lane", words, 0, 0);
}

GL_TEST(degree_broadcast, GL_CORRECTNESS, 2, 15, "conflict degree: broadcasts")
{
    int words[4][32], l;
    for (l = 0; l < 32; l++) {
        words[0][l] = 7;
        words[1][l] = l / 2;
        words[2][l] = l % 2 ? 32 : 0;
        words[3][l] = (l % 4) * 32 + (l / 4 == 3) * 1;
    }
    expect_degree("one word for every lane", words[0], 32, 1);
    expect_degree("pairs of lanes on one word", words[1], 32, 1);
    expect_degree("two words of one bank", words[2], 32, 2);
    expect_degree("four words of bank 0, a few of bank 1", words[3], 32, 4);
}

/* The wavefronts of the random test's patterns (always the same), one digit each, worked out
 * once: a count of the kit's own here would be task 2's answer, handed out. */
static const char random_wavefronts[] =
    "323321343432143113232223241123232322222232232322231231323121213212533122213"
    "211323332131132131423221132232423322422332432333313122121332222331221131542"
    "314121332222232212122222211331222222121233242123421331312331311413323221331"
    "332312322233212132222333212333332132224213112232221222132333113123333313232";

GL_TEST(degree_random, GL_CORRECTNESS, 2, 30, "conflict degree: random patterns")
{
    int words[32], lanes, t, l;
    gl_rng rng;
    for (t = 0; t < (int)sizeof random_wavefronts - 1; t++) { /* pattern t: from seed t */
        gl_rng_init(&rng, (uint64_t)t, "03-bank-conflicts: an access pattern");
        lanes = 1 + (int)gl_rng_range(&rng, 0, 31);
        for (l = 0; l < lanes; l++)
            words[l] = (int)gl_rng_range(&rng, 0, t % 3 ? 255 : 2047);
        expect_degree("a random pattern", words, lanes, random_wavefronts[t] - '0');
    }
}

/* ---- technique: the padded tiles in the PTX of the kernels that ran ---- */

/* The padded tile's row pitch, in elements of its type (floats, or doubles: dbl), of a tile of
 * BC_TILE rows (or two buffers of them): for floats not a multiple of 32 words, for doubles odd. */
static void check_pitch(const char *kernel, int dbl)
{
    char lesson[128];
    snprintf(lesson, sizeof lesson, "Task %d loads the tile%s into shared memory and takes the "
             "dot products of its rows from there", dbl ? 3 : 1, dbl ? " of doubles" : "");
    long elems = gl_kernel_shared_bytes(kernel, lesson) / (dbl ? 8 : 4);
    long pitch = gl_tile_pitch(elems, BC_TILE, dbl ? 2 : 32);
    if (pitch == 0)
        gl_check_fail("%s's tile has %ld %s, not %d rows of equal length (nor two buffers of "
                      "them)", kernel, elems, dbl ? "doubles" : "words", BC_TILE);
    if (!dbl && pitch % 32 == 0)
        gl_check_fail("%s's tile rows are %ld words long, a multiple of 32: tile[r][k] is in "
                      "bank (r * %ld + k) %% 32 = k %% 32, so the lanes reading column k hit one "
                      "bank 32 times. Pad each row by one word", kernel, pitch, pitch);
    if (dbl && pitch % 2 == 0)
        gl_check_fail("%s's tile rows are %ld doubles long, an even number: tile[r][k] starts at "
                      "word 2 (%ld r + k), and the 16 lanes of a half-warp reading a column share "
                      "bank pairs. A row of an odd number of doubles (%d + 1) gives them 16 "
                      "different pairs", kernel, pitch, pitch, BC_TILE);
}

GL_KERNEL_TEST(padded_pitch, 3, "float tile: pitch not a multiple of 32", "tile_gram_padded",
               "tile_gram_padded_kernel", check_pitch(k, 0))
GL_KERNEL_TEST(double_pitch, 3, "double tile: an odd number per row", "tile_gram_double_padded",
               "tile_gram_double_padded_kernel", check_pitch(k, 1))

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed): time ratios ---- */

#define FASTER "Removing the bank conflicts of the column reads should make it at least that " \
               "much faster"

GL_FASTER(padded_vs_unpadded, 4, "padded faster than unpadded", .launcher = "tile_gram_padded",
          .than = "tile_gram", .factor = 5.0, /* predicted 8x to 16x */ .hint = FASTER)

/* Where FP64 runs at 1/32 of FP32 or slower (GeForce, T4, L4), the padded double kernel's 32 FP64
 * multiply-adds per thread take longer than its shared loads: padding gains about 2x, not 11x. */
GL_TEST(double_padded_vs_unpadded, GL_PERFORMANCE, 4, 120, "double: padded faster")
{
    int dev = 0, fp64 = 0; /* FP32 throughput over FP64 throughput */
    GL_CUDA(cudaGetDevice(&dev));
    GL_CUDA(cudaDeviceGetAttribute(&fp64, cudaDevAttrSingleToDoublePrecisionPerfRatio, dev));
    gl_claim_faster(&(gl_speed_claim){
        .launcher = DOUBLES, .than = "tile_gram_double",
        .factor = fp64 >= 32 ? MIN_DOUBLE_SLOW_FP64 : MIN_DOUBLE_PADDED_OVER_UNPADDED,
        .hint = fp64 >= 32 ? FASTER " (on this GPU, FP64 arithmetic runs at 1/32 of FP32 or "
                                    "slower, and bounds the padded kernel: the threshold is lower)"
                           : FASTER});
}

/* The largest test's memory (MiB): 8 inputs and 8 outputs of 2^20 rows of 32 floats (or 2^19 of
 * doubles), an input made again and the kit's out of it; on a smaller pool, every size a quarter */
#define POOL_MIB (2304 + 128)

/* The timed problem: 2^20 rows of floats, 2^19 of doubles (the same bytes): 2^15 or 2^14 tiles a
 * call, a round of 8 calls about 2 ms of the padded kernels on an H100 (README.md's estimate). */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static bc_gram_size z;
    z = (bc_gram_size){.rows = (strstr(launcher, "double") ? 1 << 19 : 1 << 20) /
                               (gl_pool_mib() >= POOL_MIB ? 1 : 4), .timed = 1};
    *p = bc_problem(launcher, &z);
    return on && *on ? -1 : 0;
}

/* ---- profile: Nsight Compute counters ---- */

/* 1 with no bank conflicts; the most of the kernels that did the work, each on its own loads */
GL_COUNTER(padded_wavefronts, 3, "float: 1 wavefront per load",
           .counter = &gl_shared_load_wavefronts, .run = "tile_gram_padded 65536",
           .at_most = 1.6, /* 1.0; 2-way conflicts: 2 */
           .hint = "1 is conflict-free; half of the loads are column reads of the tile, and with "
                   "rows of 32 words each of those takes 32 (16.5 on average)")

GL_COUNTER(double_wavefronts, 3, "double: at most 2 wavefronts per load",
           .counter = &gl_shared_load_wavefronts, .run = "tile_gram_double_padded 65536",
           .at_most = 2.35, /* 1.5 or 2.0 (8-byte broadcasts); even pitch 2.5 or more */
           .hint = "A conflict-free 8-byte column read takes 2 (one per half-warp) and a "
                   "broadcast 1 or 2, at most 2 on average; rows of an even number of doubles "
                   "make each column read take 4 or more")

/* The lab's problem of a tile Gram launcher (bc_problem), for the correctness tests,
 * GL_QUEUED and the profile runs: LAUNCHER ROWS, or a probe's 100 rows. */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static bc_gram_size z;
    long rows = 100;
    if (!strstr(launcher, "tile_gram") || !gl_launcher_find(launcher) ||
        (argc != 0 && (argc != 1 || gl_parse_long(argv[0], 1, 1 << 24, &rows))))
        return -1;
    z.rows = (int)rows;
    *p = bc_problem(launcher, &z);
    return 0;
}

const gl_lab GL_LAB = {.name = "03-bank-conflicts", .file = "bank_conflicts.cu",
                       .problem = problem, .timed = timed, .pool_mib = POOL_MIB};
