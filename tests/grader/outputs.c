/* outputs.c: the outputs of a timed round or of a profiled run: the buffers the judge
 * poisoned while it prepared them (gl_buf_poison tells it).
 *
 * The end of a timed round is the judge's to establish (GRADING.md rule 9): at the moment the
 * subject answers that its device is idle, the judge fingerprints every output of the round
 * with a keyed hash, on its own side of the GPU; after it has verified them, it fingerprints
 * them again. Outputs that changed in between were not complete when the subject answered,
 * and the round fails: an early "done" cannot stop the clock on work still running. For a
 * profiled run, the bytes of its outputs that were written: the kernels Nsight Compute saw
 * must have stored at least as many (rule 10); of an output updated in place, the words that
 * differ from it as made. */
#define _GNU_SOURCE
#include "outputs.h"

#include "grader.h"
#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_device_data.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define MAX_OUTPUTS 256

static struct {
    void *ptr;
    size_t bytes;
    unsigned long long sealed;
    gl_buf as_made; /* an output updated in place: its contents as made (else no bytes) */
} out[MAX_OUTPUTS];
static int nout, collecting, too_many;
static unsigned long long key;

static void poisoned(void *ptr, size_t bytes)
{
    int i;
    if (!collecting)
        return;
    for (i = 0; i < nout; i++)
        if (out[i].ptr == ptr) {
            out[i].bytes = bytes;
            return;
        }
    if (nout == MAX_OUTPUTS) {
        too_many = 1;
        return;
    }
    out[nout].ptr = ptr;
    out[nout].bytes = bytes;
    out[nout].sealed = 0;
    memset(&out[nout].as_made, 0, sizeof out[nout].as_made);
    nout++;
}

/* An output made after it was poisoned: a copy of it as made, the judge's own */
static void made(void *ptr, size_t bytes)
{
    int i;
    for (i = 0; collecting && i < nout; i++)
        if (out[i].ptr == ptr && bytes % 4 == 0 && !out[i].as_made.bytes) {
            out[i].as_made = gl_buf_alloc(bytes, 0);
            GL_CUDA(cudaMemcpy(out[i].as_made.ptr, ptr, bytes, cudaMemcpyDefault));
        }
}

static void forget_made(void)
{
    int i;
    for (i = 0; i < nout; i++)
        if (out[i].as_made.bytes) {
            gl_buf_free(&out[i].as_made);
            memset(&out[i].as_made, 0, sizeof out[i].as_made);
        }
}

void gl_outputs_begin(void)
{
    if (!key && getrandom(&key, sizeof key, 0) != (ssize_t)sizeof key)
        key = (unsigned long long)time(NULL) * 0x9e3779b97f4a7c15ull ^ (unsigned long long)getpid();
    nout = too_many = 0; /* copies as made left by a run that failed: the pool's, taken back */
    collecting = 1;
    gl_buf_set_poison_hook(poisoned);
    gl_buf_set_made_hook(made);
}

void gl_outputs_end(void)
{
    collecting = 0;
    forget_made(); /* in the test that made them: the pool is taken back at the next one */
}

void gl_outputs_seal(void)
{
    int i;
    if (too_many)
        gl_kit_error("grader bug: more than %d outputs in one timed round", MAX_OUTPUTS);
    for (i = 0; i < nout; i++)
        out[i].sealed = gl_device_hash(out[i].ptr, out[i].bytes, key);
}

void gl_outputs_check(const char *launcher)
{
    int i;
    for (i = 0; i < nout; i++)
        if (gl_device_hash(out[i].ptr, out[i].bytes, key) != out[i].sealed)
            gl_fail("%s's outputs changed after the answer that its work was done: they were "
                    "not complete when the round ended (work still running: on another "
                    "stream, in another context, or an answer sent before the device was "
                    "idle). The grader ends a round itself, when its outputs are complete",
                    launcher);
}

size_t gl_outputs_written(void)
{
    size_t n = 0;
    int i;
    size_t first;
    for (i = 0; i < nout; i++)
        n += out[i].as_made.bytes /* updated in place: the words that changed */
                 ? 4 * gl_device_diff_words(out[i].as_made.ptr, out[i].ptr, out[i].bytes / 4,
                                            &first)
                 : gl_device_count_not(out[i].ptr, out[i].bytes, GL_POISON_BYTE);
    return n;
}
