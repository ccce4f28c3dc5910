/* runner.c: the grader's judge for one lab and one submission. It runs
 * the lab's Check suite in Check's no-fork mode, decides pass / fail / skip,
 * prints the lab's scoreboard and writes the results for the report
 * (results.h).
 *
 * It never loads the student's code: that runs in the subject process
 * (subject.c), started and ended by judge.c, on memory this process owns.
 * So every verdict and every results file comes from a process the
 * submission cannot touch.
 *
 *   runner --dir DIR --baseline FILE --subject FILE --results FILE [--src LABEL]
 *          [--kind K,K] [--only ID,ID] [--quiet] [--allow-unisolated] [--list]
 *
 * DIR holds what tools/compile-submission built from the student's file:
 * submission.so, submission.ptx, build.log, review.txt. */
#define _GNU_SOURCE
#include "grader.h"
#include "clock.h"
#include "gpu_lock.h"
#include "judge.h"
#include "machine.h"
#include "profile.h"
#include "sanitize.h"
#include "scoreboard.h"
#include "suite.h"
#include "results.h"

#include "gl_check.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- running one test ---- */

static double now(void)
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

static void run_test(const entry *e, gl_result *r)
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
    if (e->kind != GL_PROFILE) {
        if (e->needs_gpu) /* the slow part of a start, while other labs hold the GPU */
            gl_judge_prestart_subject(planning);
        gl_gpu_lock(e->kind == GL_PERFORMANCE);
    }
    gl_judge_test_begin(e->timeout_s, e->id);
    fflush(NULL);
    t0 = now();
    srunner_run_all(sr, CK_SILENT);
    gl_test_leave();
    r->seconds = now() - t0;
    if (e->kind != GL_PROFILE)
        gl_gpu_unlock();
    res = srunner_results(sr);
    rtype = tr_rtype(res[0]);
    st = gl_test_outcome();
    if (st->kit_error[0]) {
        r->status = GL_NOT_RUN;
        snprintf(r->message, sizeof r->message, "NOT RUN: the grader could not run this test "
                 "(%.900s); not your file's fault: it is graded again when this is fixed",
                 st->kit_error);
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
    gl_judge_test_end(0);
    free(res);
    srunner_free(sr);
}

static void usage(void)
{
    fprintf(stderr, "usage: runner --dir DIR --baseline FILE --subject FILE --results FILE\n"
                    "              [--src LABEL] [--kind K,K] [--only ID,ID] [--quiet]\n"
                    "              [--allow-unisolated] [--gpu-lock FILE] [--wait FILE] | --list\n"
                    "  --wait FILE: the file is compiling; its exit status will be written to\n"
                    "  FILE (the GPU is set up meanwhile)\n");
    exit(2);
}

static double started, started_wall;

/* The plan, first: every performance test once with the kit's baselines only, timed in one
 * kit subject and kept; then every test of the student's runs in one subject of the
 * student's (the tests need not kill it to time the kit's kernels). */
static void plan(const char *only)
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
    planning = 0;
    gl_judge_plan(0);
    gl_judge_prestart_subject(0); /* the student's, while the file may still compile */
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *baseline = NULL, *subject = NULL, *results = NULL, *src = "",
               *kinds = NULL, *only = NULL;
    char path[4096], why[1024];
    int i, list = 0, built, failed = 0, allow_unisolated = 0, judge_ok = 0, planned = 0;
    const char *wait_file = NULL; /* --wait: the compile runs meanwhile; its status lands there */
    int score[GL_NKINDS] = {0}, max[GL_NKINDS] = {0}, skipped_points = 0, total = 0, got = 0;
    int deferred[MAX_TESTS], ndeferred = 0, sanitize[MAX_TESTS], nsanitize = 0;
    FILE *out;
    char *log;

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
            char turn[4200];
            int lock = open(argv[++i], O_RDWR | O_CREAT | O_CLOEXEC, 0666);
            snprintf(turn, sizeof turn, "%s.w", argv[i]);
            gl_gpu_lock_use(lock, open(turn, O_RDWR | O_CREAT | O_CLOEXEC, 0666));
        } else {
            usage();
        }
    }
    started = now();
    started_wall = wall_now();
    signal(SIGPIPE, SIG_IGN); /* a subject that is gone says so through read, not by a signal */
    qsort(tests, (size_t)ntests, sizeof tests[0], by_kind_then_order); /* GL_TEST declared them */
    {   /* the sanitize kind: one test per launcher of the student's */
        const gl_launcher *l;
        static char ids[32][96], titles[32][192];
        int k = 0;
        for (l = LAB_LAUNCHERS; l->name && k < 32; l++) {
            if (l->flags & (GL_GIVEN | GL_HOST_CODE))
                continue;
            snprintf(ids[k], sizeof ids[k], "sanitize_%s", l->name);
            snprintf(titles[k], sizeof titles[k], "%s: memcheck, racecheck, synccheck", l->name);
            /* no points: an empty starting kernel has no error to find either; a failure
             * still fails the grade's exit status and says what the tool saw */
            gl_declare(NULL, ids[k], GL_SANITIZE, 0, 300, titles[k], ntests);
            tests[ntests - 1].launcher = l->name;
            k++;
        }
    }
    if (list) {
        for (i = 0; i < ntests; i++)
            printf("%-12s %-28s %3d %4d  %s\n", gl_kind_name(tests[i].kind), tests[i].id,
                   tests[i].points, tests[i].timeout_s, tests[i].title);
        return 0;
    }
    if (!dir || !baseline || !subject || !results)
        usage();
    if (kinds) {
        const char *p = kinds;
        int any = 0;
        while (*p) {
            size_t n = strcspn(p, ", ");
            int k, known = 0;
            for (k = 0; k < GL_NKINDS; k++)
                known |= strlen(kind_names[k]) == n && !strncmp(p, kind_names[k], n);
            if (n && !known) {
                fprintf(stderr, "grader: unknown kind '%.*s' (kinds: correctness, technique, "
                                "performance, profile, sanitize)\n", (int)n, p);
                return 2;
            }
            any |= n > 0;
            p += n;
            p += strspn(p, ", ");
        }
        if (!any) {
            fprintf(stderr, "grader: KIND= names no kind (kinds: correctness, technique, "
                            "performance, profile, sanitize)\n");
            return 2;
        }
    }

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
        /* a GPU that is there but busy or full (other labs graded at once): wait for it, two
         * minutes for the memory its pool and its subjects need, then take what is there */
        while ((r = gl_judge_init(path, baseline, subject, (size_t)GL_LAB.pool_mib << 20,
                                  allow_unisolated, tries < 60, why, sizeof why)) == -3 &&
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
        }
    } else {
        gl_gpu_unlock();
    }
    if (wait_file) {
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
    }

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

    if (built && m.gpu && !planned && (!kinds || gl_in_list(kinds, gl_kind_name(GL_PERFORMANCE))))
        plan(only);
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
            write_margin(out, e);
        }
        r.score = r.status == GL_PASS ? e->points : 0;
        print_line(e, &r);
        gl_result_write(out, &r);
        add_points(e, &r, score, max, &skipped_points, &total, &got, &failed);
    }

    if (ndeferred) {
        /* pass 1: each profile test names its runs; one session profiles them all;
         * pass 2: each test reads its counters and decides */
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
            r.score = r.status == GL_PASS ? e->points : 0;
            print_line(e, &r);
            gl_result_write(out, &r);
            add_points(e, &r, score, max, &skipped_points, &total, &got, &failed);
        }
    }
    if (nsanitize) {
        gl_sanitize_result res[MAX_TESTS];
        double t0, seconds;
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
            r.status = res[i].kit_error[0] ? GL_NOT_RUN : res[i].error[0] ? GL_FAIL : GL_PASS;
            if (res[i].kit_error[0])
                snprintf(r.message, sizeof r.message, "NOT RUN: the grader could not run this "
                         "test (%.900s); not your file's fault: it is graded again when this is "
                         "fixed",
                         res[i].kit_error);
            else if (res[i].error[0])
                snprintf(r.message, sizeof r.message, "%s", res[i].error);
            else
                snprintf(r.message, sizeof r.message, "no error on a small problem");
            r.score = r.status == GL_PASS ? e->points : 0;
            print_line(e, &r);
            gl_result_write(out, &r);
            add_points(e, &r, score, max, &skipped_points, &total, &got, &failed);
        }
    }
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
