/* lab.c: lab 12-streams described once (lab.h). */
#include "lab.h"

#include <stdio.h>

GL_INVOKER(call_process, process_serial, a, a[0].p, a[1].p, a[2].p, (int)a[3].i)

/* 'H': pinned host memory the judge owns. The student's launchers may copy between it and
 * the device and use streams of their own; never take host memory of their own (their CPU
 * could then bring its own results to the GPU), and a copy from or to pageable memory fails. */
const gl_launcher LAB_LAUNCHERS[] = {
    {"process_serial", "HHpi", call_process, GL_GIVEN},
    {"process_async", "HHpi", call_process, GL_MAY_COPY | GL_MAY_STREAM},
    {"process_pipelined", "HHpi", call_process, GL_MAY_COPY | GL_MAY_STREAM},
    {NULL, NULL, NULL, 0},
};

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const streams_size *z = ctx;
    gl_arg a[] = {GL_P(buf[1]), GL_P(buf[0]), GL_P(buf[2]), GL_I(z->n)};
    gl_exec(launcher, a);
}

gl_problem streams_problem(const char *launcher, void *size)
{
    streams_size *z = size;
    size_t bytes = (size_t)z->n * sizeof(float);
    /* a wrong last chunk reaches up to a chunk past the end */
    size_t guard = bytes / NCHUNKS + 4096;
    gl_problem p = {.what = z->what, .inputs = 1, .outputs = 2, .ctx = z,
                    .call = problem_call, .reference = "process_serial", .inputs_read_only = 1,
                    .work = 2.0 * (double)bytes, .sets = 3, .rounds = 3};
    (void)launcher;
    snprintf(z->what, sizeof z->what, "at n = %d", z->n);
    p.buf[0] = (gl_problem_buf){.name = "in_host", .bytes = bytes, .host = 1, .guard = guard,
                                .outside = "in_host is the read-only input"};
    p.buf[1] = (gl_problem_buf){.name = "out_host", .bytes = bytes, .host = 1,
                                .cmp = GL_CMP_FLOAT, .atol = 1e-6, .rtol = 1e-5, .guard = guard,
                                .outside = "a chunk's copy reaches past the end: the last "
                                           "chunk is shorter when n is not a multiple of "
                                           "NCHUNKS"};
    p.buf[2] = (gl_problem_buf){.name = "dev", .bytes = bytes, .scratch = 1, .guard = guard,
                                .outside = "a chunk's copy or kernel reaches past the end of "
                                           "dev: the last chunk is shorter"};
    /* what usually causes what the comparison found, in the lab's terms */
    p.hint_none = "out_host was never written: is the launcher still a TODO, or does the copy "
                  "back (cudaMemcpyAsync dev -> out_host) never run?";
    p.hint_partly = "Some elements never came back: a chunk is missing (the last one, when n "
                    "is not a multiple of NCHUNKS, or the chunks stop early), or a copy moves "
                    "fewer bytes than its chunk holds (count * sizeof(float))";
    p.hint = "Wrong values: a kernel ran before its chunk had arrived, or a copy back left "
             "before its kernel finished. A chunk's three steps must go on the same stream, in "
             "order; on a cudaStreamNonBlocking stream the work does not wait for what the "
             "caller queued before on the default stream";
    return p;
}
