/* judge_calls.c: every call of a lab's launcher (gl_exec's backend): a given one (the kit's
 * baselines) runs here, from the kit's own build, or in a subject of the kit's own when it
 * is timed; a student's runs in the subject (judge_subject.c), its arguments offsets in the
 * pool, and its answer is checked against the lab (record.c): the CUDA status, what the call
 * asked for, what the GPU ran, any taint. And the clock's timed rounds (clock.c): their calls
 * sent at once, answered at the round's end. */
#define _GNU_SOURCE
#include "grader.h"
#include "judge.h"
#include "judge_state.h"
#include "link.h"
#include "record.h"

#include "gl_check.h"
#include "gl_exec.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* ---- calls ---- */

static void describe_status(const char *launcher, int status)
{
    char why[1024];
    gl_cuda_describe((cudaError_t)status, why, sizeof why);
    switch ((cudaError_t)status) { /* the machine's state, not anything a student's code does */
    case cudaErrorDevicesUnavailable:
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorSystemNotReady:
    case cudaErrorSystemDriverMismatch:
        gl_kit_error("calling %s, the GPU was not usable: %s", launcher, why);
    default:
        break;
    }
    gl_fail("%s: the kernel failed: %s", launcher, why);
}

/* A taint the subject raised (a context or code of its own): this subject is done. */
static void check_taint(const char *launcher)
{
    char what[512];
    uint32_t t = J.subject_kit ? 0 : gl_link_taint(what, sizeof what);
    if (t) {
        gl_link_kill();
        gl_record_check_taint(launcher, t, what);
    }
}

/* A call's answer: the launcher exists, what it did belongs to the lab, no CUDA error. */
static long long answered(const gl_launcher *l, const gl_reply *rp, uint64_t seq)
{
    if (rp->missing)
        gl_fail("%s does not define %s(): keep every function declared in the lab's header, "
                "with the same name and arguments",
                GL_LAB.file, l->name);
    J.last_launcher_ms = rp->launcher_ms;
    if (!J.subject_kit) {
        check_taint(l->name);
        gl_record_check_answer(l, rp);
        gl_record_check_gpu(l, gl_link_gpu(), rp->ngpu, rp->gpu_overflow, seq, seq + 1);
    }
    if (rp->status != 0) {
        if (rp->sticky)
            gl_link_kill();
        describe_status(l->name, rp->status);
    }
    return rp->ret;
}

static long long call_remote(const gl_launcher *l, const gl_arg *args)
{
    static unsigned char blob[GL_PROTO_BLOB];
    int pieces[GL_PROTO_ARGS], npieces = 0;
    unsigned long long touched = 0;
    gl_request rq;
    gl_reply rp;
    size_t nb = 0, off;
    uint64_t seq;
    int i, r, n = (int)strlen(l->layout);

    memset(&rq, 0, sizeof rq);
    rq.op = GL_OP_CALL;
    rq.flags = J.batch ? 0 : GL_CALL_SYNC;
    snprintf(rq.launcher, sizeof rq.launcher, "%s", l->name);
    rq.nargs = (uint32_t)n;
    for (i = 0; i < n && i < GL_PROTO_ARGS; i++) {
        gl_wire_arg *w = &rq.args[i];
        w->kind = (uint32_t)l->layout[i];
        if (l->layout[i] == 'p') {
            if (!args[i].p) {
                w->off = ~(uint64_t)0;
            } else if (in_pool(args[i].p, &off)) {
                int k, p = piece_of(off);
                w->off = off;
                for (k = 0; k < npieces && pieces[k] != p; k++)
                    ;
                if (p >= 0 && k == npieces) { /* each buffer once: the bytes the call has */
                    pieces[npieces++] = p;
                    touched += used[p].bytes;
                }
            } else {
                gl_kit_error("grader bug: argument %d of %s is not in the judge's memory pool",
                             i, l->name);
            }
        } else if (l->layout[i] == 'H') { /* pinned host memory: an offset in the host pool */
            if (!args[i].p)
                w->off = ~(uint64_t)0;
            else if (in_host_pool(args[i].p, &off))
                w->off = off;
            else
                gl_kit_error("grader bug: argument %d of %s is not in the judge's host pool", i,
                             l->name);
        } else if (l->layout[i] == 'h') {
            if (nb + args[i].n > sizeof blob)
                gl_kit_error("grader bug: the host arrays of %s exceed %zu bytes", l->name,
                             sizeof blob);
            memcpy(blob + nb, args[i].p, args[i].n);
            w->off = nb;
            w->n = args[i].n;
            nb += (args[i].n + 15) / 16 * 16;
        } else if (l->layout[i] == 'f') {
            w->f = args[i].f;
        } else {
            w->i = args[i].i;
        }
    }
    if (J.preparing && !J.kit)
        gl_kit_error("grader bug: %s was called while a timed round's inputs were being made: "
                     "a student's code runs before the inputs exist (gl_timed.setup) or on the "
                     "clock, never in between",
                     l->name);
    if (!J.kit && J.plan)
        gl_skip("planned"); /* the plan times the kit's baselines only */
    if (gl_link_running() && J.subject_kit != J.kit)
        gl_link_kill(); /* a student's call after the kit's baselines, or the reverse */
    if (!gl_link_loaded())
        subject_start(l->name);
    if (!J.kit)
        gl_record_bytes(touched);
    if (J.delay.set) {
        rq.flags |= GL_CALL_DELAY | (J.delay.host ? GL_CALL_DELAY_HOST : 0);
        rq.delay_dst = J.delay.dst;
        rq.delay_src = J.delay.src;
        rq.delay_bytes = J.delay.bytes;
        rq.delay_ms = J.delay.ms;
        J.delay.set = 0;
    }
    rq.blob_bytes = (uint32_t)nb;
    J.batch_launcher = l;
    /* the judge's own writes (inputs, poison, guards) land before the student's kernels (a
     * timed round synchronised once, before its first call) */
    if (!J.batch)
        GL_CUDA(cudaDeviceSynchronize());
    if (J.batch && J.npending >= GL_PROTO_SLOTS - 1)
        gl_kit_error("grader bug: more than %d calls in one timed round", GL_PROTO_SLOTS - 1);
    seq = gl_link_post(&rq, blob, nb);
    if (J.batch) { /* its answer is read at the end of the round: one round trip per round */
        if (J.npending == 0)
            J.batch_first = seq;
        J.pending[J.npending++] = seq;
        return 0;
    }
    if ((r = gl_link_wait(seq, J.deadline, &rp)) != 0)
        subject_died(r, "during the call", l->name);
    return answered(l, &rp, seq);
}

/* Ends a timed round: the round's answers, then the subject's device idle. */
static void remote_sync(const char *what)
{
    gl_request rq;
    gl_reply rp;
    uint64_t seq;
    int i, r;
    for (i = 0; i < J.npending; i++) { /* the round's calls, answered in order */
        if ((r = gl_link_wait(J.pending[i], J.deadline, &rp)) != 0)
            subject_died(r, "during the timed calls", what);
        if (J.batch_launcher)
            answered(J.batch_launcher, &rp, J.pending[i]);
    }
    J.npending = 0;
    memset(&rq, 0, sizeof rq);
    rq.op = GL_OP_SYNC;
    seq = gl_link_post(&rq, NULL, 0);
    if ((r = gl_link_wait(seq, J.deadline, &rp)) != 0)
        subject_died(r, "while its kernels ran", what);
    if (!J.subject_kit) {
        check_taint(what);
        if (rp.outside)
            gl_fail("%s: your file started GPU work outside the launcher's call (a thread of "
                    "its own?)",
                    what);
    }
    if (rp.status != 0) {
        if (rp.sticky)
            gl_link_kill();
        describe_status(what, rp.status);
    }
}

/* After the clock: what the GPU ran during the round (CUPTI), checked against the lab. */
static void remote_flush(const char *what)
{
    gl_request rq;
    gl_reply rp;
    uint64_t seq;
    int r;
    if (!gl_link_loaded())
        return;
    memset(&rq, 0, sizeof rq);
    rq.op = GL_OP_FLUSH;
    seq = gl_link_post(&rq, NULL, 0);
    if ((r = gl_link_wait(seq, J.deadline, &rp)) != 0)
        subject_died(r, "after the timed calls", what);
    if (J.batch_launcher && !J.subject_kit) {
        check_taint(what);
        gl_record_check_gpu(J.batch_launcher, gl_link_gpu(), rp.ngpu, rp.gpu_overflow,
                            J.batch_first, seq);
        if (rp.outside)
            gl_fail("%s: your file started GPU work outside the launcher's call (a thread of "
                    "its own?)",
                    what);
    }
}

static void *baseline_fn(const char *name)
{
    void *fn;
    if (!J.baseline_lib && !(J.baseline_lib = dlopen(J.baseline, RTLD_NOW | RTLD_LOCAL)))
        gl_kit_error("the grader's baselines %s could not be loaded: %s (rebuild the kit with "
                     "make)",
                     J.baseline, dlerror());
    if (!(fn = dlsym(J.baseline_lib, name)))
        gl_kit_error("the lab's own %s() is missing from %s (rebuild the kit with make)", name,
                     J.baseline);
    return fn;
}

long long judge_backend(const gl_launcher *l, const gl_arg *args)
{
    long long ret;
    if ((l->flags & GL_GIVEN) && J.kit) /* timed: in the kit's own subject */
        return call_remote(l, args);
    if (l->flags & GL_GIVEN) { /* the kit's own code, here */
        ret = l->invoke(l->flags & GL_BUILTIN ? NULL : baseline_fn(l->name), args);
        if (!J.batch)
            GL_CHECK_LAUNCH(l->name);
        return ret;
    }
    if (J.in_process) { /* not isolated: only where the runner allowed it */
        void *fn = dlsym(J.in_process_lib, l->name);
        if (!fn)
            gl_fail("%s does not define %s(): keep every function declared in the lab's "
                    "header, with the same name and arguments",
                    GL_LAB.file, l->name);
        ret = l->invoke(fn, args);
        if (!J.batch)
            GL_CHECK_LAUNCH(l->name);
        return ret;
    }
    return call_remote(l, args);
}

void gl_next_call_delayed(void *dst, const void *src, size_t bytes, double ms)
{
    J.delay.host = in_host_pool(dst, &J.delay.dst); /* an input in pinned host memory */
    if ((!J.delay.host && !in_pool(dst, &J.delay.dst)) || !in_pool(src, &J.delay.src))
        gl_kit_error("grader bug: the delayed copy's buffers are not in the pool");
    J.delay.bytes = bytes;
    J.delay.ms = ms;
    J.delay.set = 1;
}

double gl_last_launcher_ms(void)
{
    return J.last_launcher_ms;
}

/* ---- for the clock (clock.c) ---- */

int gl_judge_round_begin(int student)
{
    if (student && J.plan)
        gl_skip("planned");
    if (!student && !J.in_process)
        J.kit = 1; /* the kit's baselines: no student's subject alive (call_remote ends it), and
                    * a subject of the kit's own runs them, so both sides of a ratio cross the
                    * same process boundary */
    return !J.in_process;
}

void gl_judge_round_phase(int phase)
{
    J.preparing = phase == GL_ROUND_PREPARE;
    J.batch = phase == GL_ROUND_CALLS;
}

int gl_judge_round_end(const char *what)
{
    if (!J.in_process && gl_link_loaded()) {
        remote_sync(what);
        return !J.subject_kit;
    }
    GL_CUDA(cudaDeviceSynchronize());
    return 0;
}

void gl_judge_round_record(const char *what)
{
    if (!J.in_process)
        remote_flush(what);
}

void gl_judge_round_done(void)
{
    J.kit = 0; /* the kit subject stays, for the next baseline */
}

const char *gl_judge_round_launcher(void)
{
    return J.batch_launcher ? J.batch_launcher->name : "the timed launcher";
}

void gl_judge_plan(int on)
{
    J.plan = on;
}

const char *gl_judge_test_id(int *baselines)
{
    if (baselines)
        *baselines = J.test_baselines++;
    return J.test;
}
