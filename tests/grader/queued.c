/* queued.c: gl_expect_queued (grader.h), the test that a launcher only enqueues its work on
 * the default stream and returns: the subject runs a kernel of the kit's that waits before
 * it copies the launcher's input in (gl_next_call_delayed, judge_calls.c), and the launcher
 * is called right behind it. */
#include "grader.h"

#include "gl_buffer.h"
#include "gl_check.h"

void gl_expect_queued(const char *launcher, void (*launch)(void *ctx), int (*right)(void *ctx),
                      void *ctx, const gl_queue_buffers *b)
{
    const double delay_ms = 150.0; /* a launcher takes microseconds; half of it is plenty */
    double waited_ms;

    GL_CUDA(cudaMemcpy(b->input, b->staged, b->in_bytes, cudaMemcpyDefault));
    launch(ctx); /* warm-up: loads the module */
    GL_CHECK_LAUNCH(launcher);
    GL_CUDA(cudaMemset(b->input, GL_POISON_BYTE, b->in_bytes));
    GL_CUDA(cudaMemset(b->output, GL_POISON_BYTE, b->out_bytes));
    GL_CUDA(cudaDeviceSynchronize());

    /* where the launcher runs (the subject), a kernel of the kit's waits 150 ms, then copies
     * the input in; the launcher is called right after it on the same default stream */
    gl_next_call_delayed(b->input, b->staged, b->in_bytes, delay_ms);
    launch(ctx);
    waited_ms = gl_last_launcher_ms();
    if (waited_ms > delay_ms / 2)
        gl_fail("%s returned only after %.0f ms, when a %.0f ms kernel launched before it had "
                "not finished: it waited for the GPU (cudaDeviceSynchronize, cudaMemcpy) or did "
                "the work on the host. A launcher only launches its kernels and returns; the "
                "caller synchronises",
                launcher, waited_ms, delay_ms);
    if (!right(ctx))
        gl_fail("%s returned at once, but its result is wrong when earlier work on the default "
                "stream writes its input: launch on the default stream (no stream of your own), "
                "and do not read the input on the host",
                launcher);
}
