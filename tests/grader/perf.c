/* perf.c: a launcher run by the grader on its lab's problem (common/gl_problem.h): timed on
 * fresh inputs and checked against the reference (gl_perf_ms), or shown to only enqueue its
 * work (gl_perf_queued). It owns the timed problem's buffers, the making of its inputs from the
 * seed and the check of each round's outputs and guard zones; the clock is clock.c's, the
 * delayed copy the harness's. */
#include "grader.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_device_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SETS 31

typedef struct {
    const gl_problem *p;
    const char *launcher;
    gl_buf set[MAX_SETS][GL_PROBLEM_BUFS]; /* each call's buffers */
    gl_buf again[GL_PROBLEM_BUFS];         /* inputs made again, and the expected outputs */
} run;

static int nbufs(const gl_problem *p)
{
    return p->inputs + p->outputs;
}

static int is_made(const gl_problem *p, int k)
{
    return k < p->inputs || p->buf[k].made;
}

static void malformed(const char *who, const char *launcher, const gl_problem *p)
{
    if (nbufs(p) > GL_PROBLEM_BUFS || p->outputs < 1 ||
        (!p->reference && !p->reference_fn && !p->verify))
        gl_kit_error("%s(%s, %s): a malformed problem", who, launcher, p->what);
}

/* Buffer k of call i in a round: its own stream of the seed, the same again when verify makes
 * it again. */
static unsigned long long buf_seed(const gl_problem *p, int round, int i, int k)
{
    return gl_problem_seed(gl_call_seed(round, i, p->sets), k);
}

static void prepare(void *ctx, int round)
{
    run *r = ctx;
    const gl_problem *p = r->p;
    int i, k;
    for (i = 0; i < p->sets; i++)
        for (k = 0; k < nbufs(p); k++) {
            if (k >= p->inputs) /* an output, for the seal (outputs.c), even one made */
                gl_buf_poison(&r->set[i][k]);
            if (is_made(p, k))
                gl_problem_make(p, k, r->set[i][k].ptr, buf_seed(p, round, i, k));
        }
}

static void call(void *ctx, int i)
{
    run *r = ctx;
    void *b[GL_PROBLEM_BUFS];
    int k;
    for (k = 0; k < nbufs(r->p); k++)
        b[k] = r->set[i][k].ptr;
    r->p->call(r->p->ctx, r->launcher, b);
}

static void setup(void *ctx, int round)
{
    run *r = ctx;
    r->p->setup(r->p->ctx, r->launcher, gl_call_seed(round, 0, r->p->sets));
}

/* Buffers made again for verify: the inputs, and the expected outputs unless the lab checks
 * them itself (p->verify). */
static int made_again(const gl_problem *p, int k)
{
    return is_made(p, k) || !p->verify;
}

/* Every buffer of the round's calls within its own bytes: a call wrote nothing in the guard
 * zones around its inputs and outputs. */
static void verify_guards(const run *r, int round)
{
    const gl_problem *p = r->p;
    char why[512];
    int i, k;
    for (i = 0; i < p->sets; i++)
        for (k = 0; k < nbufs(p); k++) {
            if (!gl_problem_outside(&p->buf[k], &r->set[i][k], why, sizeof why))
                continue;
            gl_check_fail("%s %s wrote outside its buffers in timed round %d, call %d, so its "
                          "speed is not graded (the correctness tests say more): %s",
                          r->launcher, p->what, round, i + 1, why);
        }
}

/* Every output of the round against the reference on its inputs, made again, or by the lab's
 * own check of them. */
static void verify(void *ctx, int round)
{
    run *r = ctx;
    const gl_problem *p = r->p;
    void *again[GL_PROBLEM_BUFS];
    char said[2048];
    size_t first, wrong;
    int i, k;
    verify_guards(r, round);
    for (k = 0; k < nbufs(p); k++)
        again[k] = r->again[k].ptr;
    for (i = 0; i < p->sets; i++) {
        for (k = 0; k < nbufs(p); k++) {
            if (!is_made(p, k))
                continue;
            gl_problem_make(p, k, again[k], buf_seed(p, round, i, k));
            if (k < p->inputs && p->inputs_read_only &&
                gl_problem_changed(&p->buf[k], again[k], r->set[i][k].ptr, said, sizeof said))
                gl_check_fail("%s %s: in timed round %d %s", r->launcher, p->what, round, said);
        }
        if (p->verify) {
            const char *why;
            void *got[GL_PROBLEM_BUFS];
            for (k = 0; k < nbufs(p); k++)
                got[k] = k < p->inputs ? again[k] : r->set[i][k].ptr;
            why = p->verify(p->ctx, got, buf_seed(p, round, i, p->inputs));
            if (why[0])
                gl_check_fail("%s %s is not right in timed round %d, call %d (fresh random "
                              "inputs every call), so its speed is not graded (the correctness "
                              "tests say more): %s",
                              r->launcher, p->what, round, i + 1, why);
            continue;
        }
        if (p->reference) {
            p->call(p->ctx, p->reference, again);
            GL_CHECK_LAUNCH(p->reference);
        } else {
            p->reference_fn(p->ctx, again);
        }
        for (k = p->inputs; k < nbufs(p); k++) {
            const gl_problem_buf *b = &p->buf[k];
            if (b->scratch) /* the launcher's workspace: anything goes */
                continue;
            if (!(wrong = gl_problem_wrong(b, again[k], r->set[i][k].ptr, &first)))
                continue;
            gl_problem_describe(p, b, r->launcher, again[k], r->set[i][k].ptr, wrong, first,
                                said, sizeof said);
            gl_check_fail("%s %s is not right in timed round %d (fresh random inputs), so its "
                          "speed is not graded (the correctness tests say more): %s",
                          r->launcher, p->what, round, said);
        }
    }
}

double gl_perf_ms(const char *launcher, const gl_problem *p)
{
    const gl_launcher *l = gl_launcher_find(launcher);
    run *r;
    gl_timed t = {p->sets, p->rounds, prepare, call, verify, p->setup ? setup : NULL};
    double ms;
    int i, k;
    malformed("gl_perf_ms", launcher, p);
    if (!l || p->sets < 1 || p->sets > MAX_SETS)
        gl_kit_error("gl_perf_ms(%s, %s): no such launcher, or %d calls a round", launcher,
                     p->what, p->sets);
    r = gl_malloc(sizeof *r);
    memset(r, 0, sizeof *r);
    r->p = p;
    r->launcher = launcher;
    for (i = 0; i < p->sets; i++)
        for (k = 0; k < nbufs(p); k++)
            /* the default guards: a check's wide ones, for every set, would not fit */
            r->set[i][k] = gl_problem_alloc(&p->buf[k], 0);
    if (l->flags & GL_GIVEN) { /* the kit's own: once per lab and problem, not checked */
        char key[256];
        snprintf(key, sizeof key, "%s %s %d", launcher, p->what, p->sets);
        t.verify = NULL;
        if (p->baseline_sets > 0 && p->baseline_sets < p->sets)
            t.calls = p->baseline_sets;
        ms = gl_time_baseline_once(key, &t, r);
    } else {
        for (k = 0; k < nbufs(p); k++)
            if (made_again(p, k))
                r->again[k] = gl_problem_alloc(&p->buf[k], 0);
        ms = gl_time_student(&t, r);
    }
    for (i = 0; i < p->sets; i++)
        for (k = 0; k < nbufs(p); k++)
            gl_buf_free(&r->set[i][k]);
    for (k = 0; k < nbufs(p); k++)
        gl_buf_free(&r->again[k]);
    free(r);
    return ms;
}

/* ---- the launcher only enqueues its work (gl_expect_queued) ---- */

typedef struct {
    const gl_problem *p;
    const char *launcher;
    gl_buf set[GL_PROBLEM_BUFS], expected[GL_PROBLEM_BUFS];
    unsigned long long seed; /* verify's, where the lab checks the outputs itself */
} queued;

static void queued_launch(void *ctx)
{
    queued *q = ctx;
    void *b[GL_PROBLEM_BUFS];
    int k;
    for (k = 0; k < nbufs(q->p); k++)
        b[k] = q->set[k].ptr;
    q->p->call(q->p->ctx, q->launcher, b);
}

static int queued_right(void *ctx)
{
    queued *q = ctx;
    void *b[GL_PROBLEM_BUFS];
    size_t first;
    int k;
    for (k = 0; k < nbufs(q->p); k++) /* nothing written beside a buffer */
        if (gl_buf_check_guards(&q->set[k], NULL))
            return 0;
    if (q->p->verify) { /* the lab's own check of the outputs as the calls left them */
        for (k = 0; k < nbufs(q->p); k++)
            b[k] = q->set[k].ptr;
        return q->p->verify(q->p->ctx, b, q->seed)[0] == '\0';
    }
    for (k = q->p->inputs; k < nbufs(q->p); k++)
        if (!q->p->buf[k].scratch &&
            gl_problem_wrong(&q->p->buf[k], q->expected[k].ptr, q->set[k].ptr, &first))
            return 0;
    return 1;
}

void gl_perf_queued(const char *launcher, const gl_problem *p)
{
    queued q;
    void *e[GL_PROBLEM_BUFS];
    gl_buf staged;
    gl_queue_buffers b;
    unsigned long long seed = gl_seed() ^ 0x51ed27u;
    int k;
    malformed("gl_perf_queued", launcher, p);
    if (p->buf[p->inputs].scratch) /* queued_right compares the first output */
        gl_kit_error("gl_perf_queued(%s, %s): a problem whose first output is scratch",
                     launcher, p->what);
    /* the delayed copy writes buffer 0: the first input or, where there is none, the output
     * the call updates in place (made), undoing the warm-up call's update. Any other output
     * updated in place, the warm-up call would have updated, unless the lab's own check
     * (verify) judges the outputs as both calls left them, or a right call leaves the output
     * as it found it (kept: a counter): a made output is then made once, before the warm-up */
    for (k = p->inputs; k < nbufs(p); k++)
        if (p->buf[k].made ? k != 0 && !p->verify && !p->buf[k].kept : !is_made(p, 0))
            gl_kit_error("gl_perf_queued(%s, %s): no input, or an output updated in place "
                         "that is not the only buffer the delayed copy writes",
                         launcher, p->what);
    memset(&q, 0, sizeof q);
    q.p = p;
    q.launcher = launcher;
    q.seed = seed;
    for (k = 0; k < nbufs(p); k++) { /* the expected outputs, from the inputs made here */
        q.set[k] = gl_problem_alloc(&p->buf[k], p->buf[k].guard);
        q.expected[k] = gl_problem_alloc(&p->buf[k], 0);
        e[k] = q.expected[k].ptr;
        if (is_made(p, k)) {
            gl_problem_make(p, k, q.set[k].ptr, gl_problem_seed(seed, k));
            gl_problem_make(p, k, e[k], gl_problem_seed(seed, k));
        }
    }
    if (p->setup)
        p->setup(p->ctx, launcher, seed);
    if (p->reference && !p->verify) {
        p->call(p->ctx, p->reference, e);
        GL_CHECK_LAUNCH(p->reference);
    } else if (!p->verify) {
        p->reference_fn(p->ctx, e);
    } /* else queued_right asks the lab's own check */
    /* the first input arrives by the delayed copy, from staged */
    staged = gl_buf_alloc(p->buf[0].bytes, 0);
    gl_problem_make(p, 0, staged.ptr, gl_problem_seed(seed, 0));
    b = (gl_queue_buffers){q.set[0].ptr, staged.ptr, p->buf[0].bytes, q.set[p->inputs].ptr,
                           p->buf[p->inputs].bytes};
    gl_expect_queued(launcher, queued_launch, queued_right, &q, &b);
    gl_buf_free(&staged);
    for (k = 0; k < nbufs(p); k++) {
        gl_buf_free(&q.set[k]);
        gl_buf_free(&q.expected[k]);
    }
}

/* ---- one call: a probe, or a run under Nsight Compute (GL_LAB.problem) ---- */

const char *gl_lab_run_once(int argc, char **argv)
{
    gl_problem p;
    if (GL_LAB.run_once)
        return GL_LAB.run_once(argc, argv);
    if (argc < 1 || !GL_LAB.problem || GL_LAB.problem(argv[0], argc - 1, argv + 1, &p) != 0)
        return "usage: LAUNCHER SIZE...";
    return gl_problem_check(argv[0], &p, gl_seed() ^ 0x52756e4fu);
}

void gl_lab_probe(const char *launcher)
{
    gl_problem p;
    if (GL_LAB.probe)
        GL_LAB.probe(launcher);
    else if (GL_LAB.problem && GL_LAB.problem(launcher, 0, NULL, &p) == 0)
        gl_problem_check(launcher, &p, gl_seed() ^ 0x50726f62u);
}
