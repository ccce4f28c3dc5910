/* run_test.c: one test of the suite, run in this process in Check's no-fork mode (the
 * student's code runs in the subject, judge.c): under the GPU's lock, alone for a timed test;
 * its verdict from Check's result and the test's state (harness.c). And the plan: the
 * performance tests' kit baselines, timed first. */
#define _GNU_SOURCE
#include "clock.h"
#include "grader.h"
#include "gpu_lock.h"
#include "judge.h"
#include "run_test.h"
#include "scoreboard.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* Check's own words for an error, said in the student's terms (a test body
 * runs only the kit's code, so its errors are failures with a message). */
static void explain_error(const char *msg, int timeout_s, char *out, size_t len)
{
    (void)timeout_s;
    snprintf(out, len, "%s", msg && *msg ? msg : "the test failed without a message");
}

static int planning; /* plan(): the kit's baselines are timed */
static char phase[96];

/* Timed tests that follow one another hold the GPU alone once, not once each: before every
 * hold alone the other labs' tests drain (they hold it shared, and none starts while one waits
 * to be alone), and those drains, not the timed work, were a third of make check's time. */
static int alone_held;

void run_test_release(void)
{
    if (alone_held)
        gl_gpu_unlock();
    alone_held = 0;
}

void run_test(const entry *e, gl_result *r)
{
    Suite *s = suite_create(GL_LAB.name);
    TCase *tc = tcase_create(e->id);
    SRunner *sr;
    TestResult **res;
    const gl_test_state *st;
    double t0;
    int rtype;

    tcase_add_test(tc, e->test);
    suite_add_tcase(s, tc);
    if (getenv("GL_TEST_DIE_AT") && !strcmp(getenv("GL_TEST_DIE_AT"), e->id))
        raise(SIGKILL); /* the kit's own test of a grader that dies (tests/unit/not_run_test.sh) */
    sr = srunner_create(s);
    /* in this process: it runs only the kit's code; the student's runs in the subject */
    srunner_set_fork_status(sr, CK_NOFORK);
    snprintf(phase, sizeof phase, "%s%s", planning ? "baselines:" : "", e->id);
    gl_gpu_phase(phase);
    /* a profile test only names its runs, then reads their counters: the session that
     * runs them holds the GPU (profile.c) */
    if (e->kind != GL_PERFORMANCE)
        run_test_release();
    if (e->kind != GL_PROFILE && !alone_held) {
        if (e->needs_gpu) /* the slow part of a start, while other labs hold the GPU */
            gl_judge_prestart_subject(planning);
        if (e->kind == GL_PERFORMANCE) { /* its clocks up, beside the other labs' work */
            gl_gpu_lock(0);
            gl_clock_warm();
            gl_gpu_unlock();
        }
        gl_gpu_lock(e->kind == GL_PERFORMANCE);
    }
    gl_judge_test_begin(e->timeout_s, e->id);
    fflush(NULL);
    t0 = now();
    srunner_run_all(sr, CK_SILENT);
    gl_test_leave();
    r->seconds = now() - t0;
    gl_judge_test_end(0); /* a subject it ends ends under its hold of the GPU */
    if (e->kind == GL_PERFORMANCE)
        alone_held = 1; /* until a test of another kind, or run_test_release */
    else if (e->kind != GL_PROFILE)
        gl_gpu_unlock();
    res = srunner_results(sr);
    rtype = tr_rtype(res[0]);
    st = gl_test_outcome();
    if (st->kit_error[0]) {
        not_run_result(r, st->kit_error);
    } else if (st->skipped) {
        r->status = GL_SKIP;
        snprintf(r->message, sizeof r->message, "%s", st->skip);
    } else if (rtype == CK_PASS && st->done) {
        r->status = GL_PASS;
        snprintf(r->message, sizeof r->message, "%s", st->note); /* what it measured */
    } else {
        r->status = GL_FAIL;
        explain_error(rtype == CK_PASS ? "the test ended early" : tr_msg(res[0]), e->timeout_s,
                      r->message, sizeof r->message);
    }
    if (st->preview && r->status != GL_SKIP) {
        /* no GPU run showed which kernels the launcher runs: no points either way */
        char verdict[sizeof r->message];
        snprintf(verdict, sizeof verdict, "%s", r->message);
        /* gl-report counts "no GPU here: this would fail" (make test's starting files) */
        snprintf(r->message, sizeof r->message, "no GPU here: this would %s%s%s",
                 r->status == GL_PASS ? "pass, a preview worth no points: its points come from "
                                        "a run on a GPU, which shows the kernels your launchers "
                                        "really launch"
                                      : "fail, a preview worth no points: ",
                 r->status == GL_PASS ? "" : verdict, "");
        r->status = GL_SKIP;
    }
    free(res);
    srunner_free(sr);
}

/* The plan, first: every performance test once with the kit's baselines only, timed in one
 * kit subject and kept; then every test of the student's runs in one subject of the
 * student's (the tests need not kill it to time the kit's kernels). */
void plan(const char *only)
{
    int i;
    gl_judge_plan(1); /* run_test prestarts the kit's subject for the first baseline */
    planning = 1;
    for (i = 0; i < ntests; i++) {
        gl_result pr;
        if (tests[i].kind != GL_PERFORMANCE || (only && !gl_in_list(only, tests[i].id)))
            continue;
        init_result(&tests[i], &pr);
        run_test(&tests[i], &pr);
        kind_seconds[GL_PERFORMANCE] += pr.seconds;
    }
    run_test_release();
    planning = 0;
    gl_judge_plan(0);
}
