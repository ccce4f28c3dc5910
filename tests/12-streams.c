/* 12-streams.c: the grader's suite for lab 12-streams.
 *
 *   correctness  async and pipelined on every class of n (1, fewer than NCHUNKS, not a
 *                multiple of NCHUNKS or of BLOCK, large, drawn from the run's seed), the input
 *                and output in pinned host memory the judge owns (the subject's CPU cannot
 *                touch it); the launchers return at once and follow the caller's earlier
 *                work on the default stream
 *   technique    from the GPU's record of the calls: async's copies and kernel on a stream
 *                of its own; pipelined's work cut into NCHUNKS kernels and 2 x NCHUNKS copies
 *   performance  pipelined against the kit's serial launcher, timed by the judge on fresh
 *                inputs every call; the share of pipelined's copy time under its kernels */
#include "grader.h"

#include "lab.h"

#include <stdio.h>

GL_RIGHT(async_1, 1, 15, "async, n = 1", .run = "process_async 1")
GL_RIGHT(async_small, 2, 15, "async, n = 2, 31, 33, 1000", .run = "process_async",
         .cases = "2, 31, 33, 1000")
GL_RIGHT(async_large, 3, 30, "async, n = 2^22 + 3", .run = "process_async 4194307")
GL_RIGHT(async_random, 1, 30, "async, n drawn from the seed",
         .run = "process_async 1..5000000")
GL_RIGHT(pipelined_1, 1, 15, "pipelined, n = 1", .run = "process_pipelined 1")
GL_RIGHT(pipelined_tiny, 2, 15, "pipelined, fewer elements than chunks",
         .run = "process_pipelined", .cases = "2, 7, 9, 15")
GL_RIGHT(pipelined_odd, 4, 15, "pipelined, n not a multiple of NCHUNKS",
         .run = "process_pipelined", .cases = "1001, 4099, 65537, 1000003")
GL_RIGHT(pipelined_large, 3, 30, "pipelined, n = 2^23", .run = "process_pipelined 8388608")
GL_RIGHT(pipelined_random, 2, 30, "pipelined, n drawn from the seed",
         .run = "process_pipelined 1..5000000")

/* The launcher only enqueues its work, and that work follows the caller's: its input arrives
 * by a copy the judge queued on the default stream behind a 150 ms kernel. */
GL_QUEUED(async_queued, 3, "async, returns at once, after the caller's work",
          .run = "process_async 1000000")
GL_QUEUED(pipelined_queued, 3, "pipelined, returns at once, after the caller's work",
          .run = "process_pipelined 1000000")

/* ---- technique: the library's calls (no GPU needed), the GPU's record of the calls ---- */

GL_TEST(makes_streams, GL_TECHNIQUE, 2, 10, "streams created, copies asynchronous")
{
    static const char *const create[] = {"cudaStreamCreate", "cudaStreamCreateWithFlags",
                                         "cudaStreamCreateWithPriority"};
    static const char *const copy[] = {"cudaMemcpyAsync", "cudaMemcpyAsync_ptsz",
                                       "cudaMemcpy2DAsync", "cudaMemcpy2DAsync_ptsz",
                                       "cudaMemcpy3DAsync", "cudaMemcpy3DAsync_ptsz"};
    const char *made = gl_library_imports(create, 3), *copied;
    char streams[64];
    if (!made)
        gl_check_fail("streams.cu never creates a stream: both tasks run their work on streams "
                      "of their own (cudaStreamCreate)");
    snprintf(streams, sizeof streams, "%s", made); /* the next call reuses its buffer */
    if (!(copied = gl_library_imports(copy, 6)))
        gl_check_fail("streams.cu never copies asynchronously: a copy that can overlap a kernel "
                      "is a cudaMemcpyAsync on a stream, from or to pinned memory");
    gl_test_note("streams.cu calls %s and %s", streams, copied);
}

/* The launcher's calls on the lab's probe problem, as the GPU's record saw them. */
static gl_timeline probe_timeline(const char *launcher)
{
    gl_timeline t;
    if (!gl_have_gpu())
        gl_skip("the streams and chunks are read from the GPU's record of a call: no GPU here");
    gl_forget_timeline(launcher);
    gl_lab_probe(launcher);
    if (!gl_launcher_timeline(launcher, &t))
        gl_skip("the GPU's record (CUPTI) is not available here");
    return t;
}

GL_TEST(async_own_stream, GL_TECHNIQUE, 4, 30, "async: copies and kernel on a stream of its own")
{
    gl_timeline t = probe_timeline("process_async");
    if (t.copies < 2 * t.calls || t.kernels < t.calls)
        gl_check_fail("process_async made %llu copies and %llu kernels in %llu calls: each call "
                      "copies in_host to dev, runs process_kernel, copies dev to out_host",
                      t.copies, t.kernels, t.calls);
    if (t.other_stream < t.copies + t.kernels)
        gl_check_fail("process_async ran %llu of its %llu copies and kernels on the legacy "
                      "default stream: task 1 puts all three steps on a stream it creates "
                      "(cudaStreamCreate, the stream as cudaMemcpyAsync's last argument and as "
                      "the kernel's fourth <<< >>> argument)",
                      t.copies + t.kernels - t.other_stream, t.copies + t.kernels);
}

GL_TEST(pipelined_chunks, GL_TECHNIQUE, 3, 30, "pipelined: a kernel and two copies per chunk")
{
    gl_timeline t = probe_timeline("process_pipelined");
    if (t.kernels < (unsigned long long)NCHUNKS * t.calls ||
        t.copies < 2ull * NCHUNKS * t.calls || t.other_stream < t.copies + t.kernels)
        gl_check_fail("process_pipelined made %.1f kernels and %.1f copies a call, %llu of them "
                      "on the legacy default stream: task 2 cuts the data into NCHUNKS = %d "
                      "chunks, each copied in, processed and copied out on a stream of its "
                      "own (%d kernels and %d copies a call, none on the default stream)",
                      (double)t.kernels / (double)t.calls, (double)t.copies / (double)t.calls,
                      t.copies + t.kernels - t.other_stream, NCHUNKS, NCHUNKS, 2 * NCHUNKS);
}

/* ---- performance: the judge's clock, fresh inputs every call (GL_LAB.timed) ---- */

GL_FASTER(pipelined_vs_serial, 8, "pipelined faster than serial",
          .launcher = "process_pipelined", .than = "process_serial",
          .than_is = "the serial copy-kernel-copy",
          .factor = 1.2, /* H100 2.2x (1.50x at a quarter of its SMs), H200 1.82x */
          .hint = "Copies in one direction, copies in the other and kernels can all run at "
                  "once (two copy engines and the SMs): only when they are on different "
                  "streams and the host memory is pinned. Are the chunks on NSTREAMS "
                  "streams, each chunk's three steps on its own stream?")

GL_OVERLAP(pipelined_overlap, 6, "pipelined: copies under kernels",
           .launcher = "process_pipelined", .percent = 5, /* H100: 39.5 (the reference), 12.9
                                                        * (breadth-first issue: right too) */
           .hint = "While a chunk's kernel runs, the next chunk's copy in and the previous "
                   "chunk's copy out should move: issue each chunk's copy in, kernel and "
                   "copy out on the chunk's stream, chunks on different streams")

/* The timed problem: n = 2^24 floats (64 MiB each way, 1.2 ms at 55 GB/s). */
static int timed(const char *launcher, const char *on, gl_problem *p)
{
    static streams_size z;
    z.n = 1 << 24;
    *p = streams_problem(launcher, &z);
    return on && *on ? -1 : 0;
}

/* The problem of a probe (n = 100003) or of a run (LAUNCHER N). */
static int problem(const char *launcher, int argc, char **argv, gl_problem *p)
{
    static streams_size z;
    long n = 100003;
    if (argc != 0 && (argc != 1 || gl_parse_long(argv[0], 1, 1 << 26, &n)))
        return -1;
    z.n = (int)n;
    *p = streams_problem(launcher, &z);
    return 0;
}

/* pools: a timed round's 3 calls and the expected outputs, 64 MiB a buffer */
const gl_lab GL_LAB = {.name = "12-streams", .file = "streams.cu", .problem = problem,
                       .timed = timed, .pool_mib = 6 * 65 + 64, .host_pool_mib = 10 * 65 + 64};
