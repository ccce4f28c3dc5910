/* runner.c: the grader's judge for one lab and one submission. It runs
 * the lab's Check suite in Check's no-fork mode, decides pass / fail / skip,
 * prints the lab's scoreboard and writes the results for the report
 * (results.h).
 *
 * It never loads the student's code: that runs in the subject process
 * (subject.c), started and ended by the judge (judge.c, judge_subject.c), on memory this
 * process owns. So every verdict and every results file comes from a process the
 * submission cannot touch.
 *
 *   runner --dir DIR --baseline FILE --subject FILE --results FILE [--src LABEL]
 *          [--kind K,K] [--only ID,ID] [--quiet] [--allow-unisolated] [--list]
 *
 * DIR holds what tools/compile-submission built from the student's file:
 * submission.so, submission.ptx, build.log, review.txt.
 *
 * This file is the run, step by step (main, at the end). Its parts: the lab's tests
 * (suite.c), what this machine offers (machine.c), the GPU's lock (gpu_lock.c), one test
 * run and the plan (run_test.c), the scoreboard (scoreboard.c). */
#define _GNU_SOURCE
#include "grader.h"
#include "clock.h"
#include "gpu_lock.h"
#include "judge.h"
#include "machine.h"
#include "profile.h"
#include "run_test.h"
#include "sanitize.h"
#include "scoreboard.h"
#include "suite.h"
#include "results.h"

#include "gl_check.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static void usage(void)
{
    fprintf(stderr, "usage: runner --dir DIR --baseline FILE --subject FILE --results FILE\n"
                    "              [--src LABEL] [--kind K,K] [--only ID,ID] [--quiet]\n"
                    "              [--allow-unisolated] [--gpu-lock FILE] [--wait FILE] | --list\n"
                    "  --wait FILE: the file is compiling; its exit status will be written to\n"
                    "  FILE (the GPU is set up meanwhile)\n");
    exit(2);
}

/* ---- the run: its options (the command line), then what it found ---- */

static double started, started_wall;
static const char *dir, *baseline, *subject, *results, *src = "", *kinds, *only;
static const char *wait_file; /* --wait: the compile runs meanwhile; its status lands there */
static int list, allow_unisolated;
static char path[4096]; /* the student's library; then a fact's text, the compiler's log */
static int built, judge_ok, planned;
static FILE *out; /* the results file (results.h) */
/* the lab's points so far, kind by kind (add_points) */
static int score[GL_NKINDS], max[GL_NKINDS], skipped_points, total, got, failed;
/* the tests left for the passes after the others: profile tests share one Nsight Compute
 * session, sanitize tests three compute-sanitizer sessions */
static int deferred[MAX_TESTS], ndeferred, sanitize[MAX_TESTS], nsanitize;
/* timed verdicts near their thresholds, timed again: those that fell short, those that passed
 * by less than NEAR (passed: which) */
static int retime[MAX_TESTS], passed[MAX_TESTS], nretime;
#define NEAR 1.25

static void parse_args(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quiet")) {
            quiet = 1;
        } else if (!strcmp(argv[i], "--list")) {
            list = 1;
        } else if (!strcmp(argv[i], "--allow-unisolated")) {
            allow_unisolated = 1;
        } else if (i + 1 < argc && !strcmp(argv[i], "--dir")) {
            dir = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--baseline")) {
            baseline = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--subject")) {
            subject = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--results")) {
            results = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--src")) {
            src = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--kind")) {
            kinds = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--only")) {
            only = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--wait")) {
            wait_file = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--gpu-lock")) {
            gl_gpu_lock_use(argv[++i]);
        } else {
            usage();
        }
    }
}

/* What this machine offers, and the judge on its GPU: 0, or 2 (the exit status) when the
 * GPU is there but cannot be used, or the student's code cannot be isolated. */
static int start_judge(void)
{
    char why[1024];
    setenv("GL_DIR", dir, 1);
    setenv("GL_BASELINE", baseline, 1); /* gl_baseline_ptx: the given kernels' PTX beside it */
    snprintf(path, sizeof path, "%s/submission.so", dir);
    {
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)gl_seed());
        setenv("SEED", seed, 1); /* every test draws from the same, printed seed */
    }
    /* with --wait the file is still compiling: the GPU is set up and the kit's baselines are
     * timed meanwhile, as if it will build */
    built = wait_file || access(path, R_OK) == 0;
    memset(&m, 0, sizeof m);
    if (built && gl_judge_reserve_memory((size_t)GL_LAB.pool_mib << 20, why, sizeof why) != 0) {
        fprintf(stderr, "grader: %s; the grading broke, not the student's file (grade again, "
                        "fewer labs at once: CHECK_JOBS=1)\n", why);
        return 2;
    }
    /* everything that touches the GPU holds the lock, at least shared: a context made or
     * a pool allocated (and cleared by the driver) while another lab's test is timed would
     * slow it down */
    gl_gpu_lock(0);
    if (built) {
        probe_gpu();
        probe_ncu();
        probe_sanitizer();
    }
    if (m.gpu) {
        int r, tries = 0;
        /* a GPU that is there but busy or full (other labs graded at once): wait for it, three
         * minutes for the memory its pool and its subjects need, then say the grading broke */
        while ((r = gl_judge_init(path, baseline, subject, (size_t)GL_LAB.pool_mib << 20,
                                  allow_unisolated, why, sizeof why)) == -3 &&
               ++tries < 90) {
            gl_gpu_unlock();
            sleep(2);
            gl_gpu_lock(0);
        }
        gl_gpu_unlock();
        if (r == -2 || r == -3) {
            fprintf(stderr, "grader: %s%s\n", why,
                    r == -3 ? ": the GPU is there but not usable now; the grading broke, not "
                              "the student's file (grade again, fewer labs at once: CHECK_JOBS=1)"
                            : "");
            return 2;
        }
        if (r != 0) {
            m.gpu = 0;
            snprintf(m.gpu_name, sizeof m.gpu_name, "%s", why);
        } else {
            judge_ok = 1;
            if (!wait_file) /* with --wait, once the compile has finished */
                gl_judge_file_compiled();
        }
    } else {
        gl_gpu_unlock();
    }
    return 0;
}

/* --wait: the kit's baselines are timed while the file compiles, then its status is read:
 * 0, or 2 (the exit status) when the toolchain broke. */
static int wait_for_compile(void)
{
    int status = -1;
    double give_up = now() + 900.0;
    if (judge_ok && (!kinds || gl_in_list(kinds, gl_kind_name(GL_PERFORMANCE)))) {
        plan(only);
        planned = 1;
    }
    while (status < 0 && now() < give_up) { /* the compile's exit status, written at once */
        FILE *f = fopen(wait_file, "re");
        if (!f || fscanf(f, "%d", &status) != 1)
            status = -1;
        if (f)
            fclose(f);
        if (status < 0)
            usleep(20000);
    }
    if (status < 0 || status >= 2) {
        if (judge_ok) {
            gl_judge_trace();
            gl_clock_trace();
            gl_judge_finish();
            gl_judge_release();
        }
        printf("== %s: the grading broke, not the student's file: %s ==\n", GL_LAB.name,
               status < 0 ? "its compile did not finish in 15 minutes"
                          : "the toolchain could not compile it (above)");
        return 2;
    }
    built = access(path, R_OK) == 0;
    if (judge_ok && built) {
        gl_judge_file_compiled();
        gl_judge_prestart_subject(0); /* the student's, now that its code is known */
    }
    return 0;
}

/* The results file's facts and #plan lines, and the scoreboard's head: 0, or 2 (the exit
 * status) when the results file cannot be written. */
static int write_header(void)
{
    char *log;
    int i;
    out = fopen(results, "we");
    if (!out) {
        perror(results);
        return 2;
    }
    setvbuf(out, NULL, _IOLBF, 0); /* a line at a time: a runner that dies keeps what it said */
    gl_fact_write(out, "lab", GL_LAB.name);
    gl_fact_write(out, "file", GL_LAB.file);
    gl_fact_write(out, "src", src);
    gl_fact_write(out, "gpu", m.gpu ? m.gpu_name : "none");
    snprintf(path, sizeof path, "%llu", (unsigned long long)gl_seed());
    gl_fact_write(out, "seed", path);
    gl_fact_write(out, "build", built ? "ok" : "failed");
    for (i = 0; i < ntests; i++) { /* what this run means to report: a test it does not is NOT RUN */
        char plan_line[512];
        if ((only && !gl_in_list(only, tests[i].id)) ||
            (kinds && !gl_in_list(kinds, gl_kind_name(tests[i].kind))))
            continue;
        snprintf(plan_line, sizeof plan_line, "%s\t%s\t%d\t%s", tests[i].id,
                 gl_kind_name(tests[i].kind), tests[i].points, tests[i].title);
        gl_fact_write(out, "plan", plan_line);
    }
    fflush(out);

    printf("== %s: %s%s%s ==\n", GL_LAB.name, src, *src ? "/" : "", GL_LAB.file);
    if (!built) {
        printf("  %s DID NOT COMPILE: every test fails. The compiler said:\n", GL_LAB.file);
        snprintf(path, sizeof path, "%s/build.log", dir);
        log = gl_read_file(path);
        print_wrapped(log && *log ? log : "(no compiler output)\n", "    | ", 200);
        if (log)
            gl_fact_write(out, "compiler", log);
        free(log);
    } else {
        printf("  GPU: %s\n", m.gpu ? m.gpu_name : m.gpu_name[0] ? m.gpu_name : "none");
        printf("  seed: %llu (SEED=%llu reproduces this run)\n", (unsigned long long)gl_seed(),
               (unsigned long long)gl_seed());
        print_review(dir, out);
    }
    return 0;
}

/* Every test that runs now, in order (after the plan); the profile and sanitize tests wait
 * for their passes. */
/* A test's verdict, said once: its score, its line on the scoreboard, its result in the
 * results file and its points in the lab's totals. */
static void report(const entry *e, gl_result *r)
{
    r->score = r->status == GL_PASS ? e->points : 0;
    print_line(e, r);
    gl_result_write(out, r);
    add_points(e, r, score, max, &skipped_points, &total, &got, &failed);
}

/* A timed verdict whose outputs were right and whose speed fell short of its threshold, or
 * passed it by less than NEAR. */
static int near_threshold(const entry *e, const gl_result *r)
{
    const gl_test_state *st = gl_test_outcome();
    if (e->kind != GL_PERFORMANCE || !st->has_margin ||
        (r->status != GL_FAIL && r->status != GL_PASS))
        return 0;
    return st->larger_is_better ? st->measured < NEAR * st->threshold
                                : st->measured * NEAR > st->threshold;
}

/* Each of them is timed once more, after the lab's other timed tests and a pause, with the
 * kit's baselines timed again too, and that time decides: a moment when other labs graded on
 * the same GPU disturbed it (a context made or ended, memory mapped, clocks still low) is the
 * machine's, not the student's, whichever way it tipped the verdict; code that is slow is
 * slow both times, and code that is fast, fast both times. */
static void retime_pass(void)
{
    int k;
    if (nretime)
        gl_clock_forget_baselines();
    for (k = 0; k < nretime; k++) {
        const entry *e = &tests[retime[k]];
        gl_result r;
        size_t n;
        init_result(e, &r);
        run_test_release(); /* the pause is the other labs' */
        gl_gpu_wait(1.0);
        run_test(e, &r);
        write_margin(out, e);
        n = strlen(r.message);
        if (r.status == GL_PASS || r.status == GL_FAIL)
            snprintf(r.message + n, sizeof r.message - n, "%s(timed twice: the first time %s "
                     "its threshold, this one decides)", n ? " " : "",
                     passed[k] ? "passed just over" : "fell short of");
        report(e, &r);
    }
    nretime = 0;
}

static void run_tests(void)
{
    int i;
    if (built && m.gpu && !planned && (!kinds || gl_in_list(kinds, gl_kind_name(GL_PERFORMANCE))))
        plan(only);
    if (judge_ok && built)
        gl_judge_prestart_subject(0); /* the student's, after the kit's baselines */
    for (i = 0; i < ntests; i++) {
        const entry *e = &tests[i];
        gl_result r;
        init_result(e, &r);
        if (only && !gl_in_list(only, e->id))
            continue;
        if (kinds && !gl_in_list(kinds, gl_kind_name(e->kind)))
            continue;
        if (!built) {
            r.status = GL_FAIL;
            snprintf(r.message, sizeof r.message, "%s did not compile", GL_LAB.file);
        } else if (e->needs_gpu && !m.gpu) {
            r.status = GL_SKIP;
            snprintf(r.message, sizeof r.message, "needs a GPU: %s", m.gpu_name);
        } else if (e->kind == GL_PROFILE && !m.ncu[0]) {
            r.status = GL_SKIP;
            snprintf(r.message, sizeof r.message, "%s", m.no_ncu);
        } else if (e->kind == GL_PROFILE) {
            deferred[ndeferred++] = i; /* one Nsight Compute session for all of them, below */
            continue;
        } else if (e->kind == GL_SANITIZE && !m.sanitizer[0]) {
            r.status = GL_SKIP;
            snprintf(r.message, sizeof r.message, "%s", m.no_sanitizer);
        } else if (e->kind == GL_SANITIZE) {
            sanitize[nsanitize++] = i; /* three sessions for all of them, below */
            continue;
        } else {
            run_test(e, &r);
            if (near_threshold(e, &r)) {
                passed[nretime] = r.status == GL_PASS;
                retime[nretime++] = i;
                continue;
            }
            write_margin(out, e);
        }
        report(e, &r);
    }
    retime_pass();
    run_test_release();
}

/* pass 1: each profile test names its runs; one session profiles them all;
 * pass 2: each test reads its counters and decides */
static void profile_pass(void)
{
    int i;
    gl_profile_begin_plan();
    for (i = 0; i < ndeferred; i++) {
        gl_result r;
        init_result(&tests[deferred[i]], &r);
        run_test(&tests[deferred[i]], &r);
    }
    gl_profile_session(m.ncu); /* it holds the GPU alone while its runs run */
    kind_seconds[GL_PROFILE] += gl_profile_session_seconds(); /* shared by the tests */
    for (i = 0; i < ndeferred; i++) {
        const entry *e = &tests[deferred[i]];
        gl_result r;
        init_result(e, &r);
        run_test(e, &r);
        write_margin(out, e);
        report(e, &r);
    }
}

/* The sanitize tests: each tool once over every launcher (sanitize.c). */
static void sanitize_pass(void)
{
    gl_sanitize_result res[MAX_TESTS];
    double t0, seconds;
    int i;
    memset(res, 0, sizeof res);
    for (i = 0; i < nsanitize; i++)
        res[i].launcher = tests[sanitize[i]].launcher;
    t0 = now();
    gl_sanitize_run(m.sanitizer, res, nsanitize); /* it holds the GPU shared, a tool at a time */
    seconds = now() - t0;
    for (i = 0; i < nsanitize; i++) {
        const entry *e = &tests[sanitize[i]];
        gl_result r;
        init_result(e, &r);
        r.seconds = seconds / nsanitize;
        r.status = res[i].error[0] ? GL_FAIL : GL_PASS;
        if (res[i].kit_error[0])
            not_run_result(&r, res[i].kit_error);
        else if (res[i].error[0])
            snprintf(r.message, sizeof r.message, "%s", res[i].error);
        else
            snprintf(r.message, sizeof r.message, "no error on a small problem");
        report(e, &r);
    }
}

/* The end: the judge and its subject, the protections they ran under, the points and time
 * of each kind; the exit status (0 all passed, 1 a test failed, 2 the grading broke). */
static int finish(void)
{
    int i;
    if (judge_ok) {
        gl_gpu_phase("finish");
        gl_gpu_lock(0); /* the subject's context ends, then the judge's */
        gl_judge_trace();
        gl_clock_trace();
        gl_judge_finish();
        gl_judge_release();
        gl_gpu_unlock();
    }
    if (built && m.gpu && gl_judge_protections_known()) {
        printf("  protections: %s\n", gl_judge_protections());
        gl_fact_write(out, "protections", gl_judge_protections());
        gl_fact_write(out, "isolated", gl_judge_isolated() ? "yes" : "no");
    }
    if (built && m.gpu) {
        if (gl_judge_tool_protections()[0]) {
            printf("  under Nsight Compute or compute-sanitizer: %s\n",
                   gl_judge_tool_protections());
            gl_fact_write(out, "tool_protections", gl_judge_tool_protections());
        }
    }
    gl_fact_write(out, "end", not_run_points ? "broke" : "ok");
    fclose(out);

    printf("  %s: %d/%d points", GL_LAB.name, got, total);
    if (skipped_points)
        printf(" (%d not run here)", skipped_points);
    if (not_run_points)
        printf(" (%d NOT RUN: the grading broke)", not_run_points);
    printf(" --");
    for (i = 0; i < GL_NKINDS; i++)
        if (max[i])
            printf(" %s %d/%d", kind_names[i], score[i], max[i]);
    printf("\n  time:");
    for (i = 0; i < GL_NKINDS; i++)
        if (kind_tests[i])
            printf(" %s %.1f s", kind_names[i], kind_seconds[i]);
    printf(" (the whole lab %.1f s)\n\n", now() - started);
    if (getenv("GL_TRACE")) {
        double waited, alone, shared;
        gl_gpu_lock_times(&waited, &alone, &shared);
        fprintf(stderr, "  trace: ran %.3f .. %.3f (epoch s); the GPU: waited %.1f s, held alone "
                "%.1f s, shared %.1f s\n",
                started_wall, wall_now(), waited, alone, shared);
    }
    if (gl_kit_error_seen()[0] || not_run_tests) {
        printf("  grader: the grading broke, not the student's file: %d test%s NOT RUN (%s)\n",
               not_run_tests, not_run_tests == 1 ? "" : "s",
               gl_kit_error_seen()[0] ? gl_kit_error_seen() : "see above");
        return 2;
    }
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    int status;
    parse_args(argc, argv);
    started = now();
    started_wall = wall_now();
    signal(SIGPIPE, SIG_IGN); /* a subject that is gone says so through read, not by a signal */
    qsort(tests, (size_t)ntests, sizeof tests[0], by_kind_then_order); /* GL_TEST declared them */
    declare_sanitize_tests();
    if (list) {
        list_tests();
        return 0;
    }
    if (!dir || !baseline || !subject || !results)
        usage();
    if ((kinds && (status = check_kinds(kinds)) != 0) || (status = start_judge()) != 0 ||
        (wait_file && (status = wait_for_compile()) != 0) || (status = write_header()) != 0)
        return status;
    run_tests();
    if (ndeferred)
        profile_pass();
    if (nsanitize)
        sanitize_pass();
    return finish();
}
