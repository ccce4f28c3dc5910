/* runner.c: the grader's parent process. One runner per lab: it runs each of
 * the lab's tests in a forked process of its own (Check's fork mode, with a
 * timeout), decides pass / fail / skip, prints the lab's scoreboard and
 * writes the results for the report (results.h).
 *
 * The parent never initialises CUDA (CUDA does not survive fork) and never
 * loads the student's code: it probes for a GPU in a throwaway child, and
 * each test process loads the submission itself.
 *
 *   runner --dir DIR --baseline FILE --results FILE [--src LABEL]
 *          [--kind K,K] [--only ID,ID] [--quiet] [--list]
 *   runner --run ARGS...   (internal: one launcher once, for Nsight Compute)
 *
 * DIR holds what the Makefile built from the student's file: submission.so,
 * submission.ptx, submission.ptxas and build.log. */
#define _GNU_SOURCE
#include "grader.h"
#include "results.h"

#include "gl_check.h"
#include "gl_device.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 128

typedef struct {
    const TTest *test;
    const char *id, *title;
    gl_kind kind;
    int needs_gpu;
    int points, timeout_s;
} entry;

static entry tests[MAX_TESTS];
static int ntests;

static const char *const kind_names[GL_NKINDS] = {"correctness", "technique", "performance",
                                                  "profile"};

const char *gl_kind_name(gl_kind kind)
{
    return kind >= 0 && kind < GL_NKINDS ? kind_names[kind] : "?";
}

void gl_add(const TTest *test, const char *id, int kind, int points, int timeout_s,
            const char *title)
{
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "grader: more than %d tests in one lab\n", MAX_TESTS);
        exit(2);
    }
    tests[ntests].test = test;
    tests[ntests].id = id;
    tests[ntests].kind = (gl_kind)(kind & 0xff);
    tests[ntests].needs_gpu = !(kind & GL_NO_GPU) && (kind & 0xff) != GL_TECHNIQUE;
    tests[ntests].points = points;
    tests[ntests].timeout_s = timeout_s;
    tests[ntests].title = title;
    ntests++;
}

/* ---- probes (no CUDA in this process) ---- */

typedef struct {
    int gpu;             /* a usable GPU was found */
    char gpu_name[300];  /* its name and compute capability, or why there is none */
    char ncu[4096];      /* Nsight Compute, or empty */
    char no_ncu[256];    /* why not */
} machine;

static void probe_gpu(machine *m)
{
    int fd[2], status;
    pid_t pid;
    char buf[512] = "";
    ssize_t got = 0;
    struct pollfd p;

    fflush(NULL);
    if (pipe(fd) != 0 || (pid = fork()) < 0) {
        snprintf(m->gpu_name, sizeof m->gpu_name, "the GPU probe could not start: %s",
                 strerror(errno));
        return;
    }
    if (pid == 0) { /* the throwaway child: the only CUDA this side of the tests */
        gl_device_info info;
        char why[256];
        FILE *out;
        close(fd[0]);
        out = fdopen(fd[1], "w");
        if (gl_device_query(&info, why, sizeof why) == 0)
            fprintf(out, "1%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
        else
            fprintf(out, "0%s", why);
        fclose(out);
        _exit(0);
    }
    close(fd[1]);
    p.fd = fd[0];
    p.events = POLLIN;
    if (poll(&p, 1, 60000) > 0)
        got = read(fd[0], buf, sizeof buf - 1);
    close(fd[0]);
    if (got <= 0) {
        kill(pid, SIGKILL);
        snprintf(m->gpu_name, sizeof m->gpu_name, "the GPU probe did not answer within 60 s");
    } else {
        buf[got] = '\0';
        m->gpu = buf[0] == '1';
        snprintf(m->gpu_name, sizeof m->gpu_name, "%s", buf + 1);
    }
    waitpid(pid, &status, 0);
}

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static void probe_ncu(machine *m)
{
    const char *env = getenv("NCU"), *path = getenv("PATH"), *cuda = getenv("CUDA_HOME");
    char cand[4096];

    if (env && *env) {
        if (executable(env))
            snprintf(m->ncu, sizeof m->ncu, "%s", env);
        else
            snprintf(m->no_ncu, sizeof m->no_ncu, "NCU=%s is not an executable", env);
        return;
    }
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(cand, sizeof cand, "%.*s/ncu", (int)n, path);
        if (n && executable(cand)) {
            snprintf(m->ncu, sizeof m->ncu, "%s", cand);
            return;
        }
        path += n + (path[n] == ':');
    }
    if (cuda && *cuda) {
        snprintf(cand, sizeof cand, "%s/bin/ncu", cuda);
        if (executable(cand)) {
            snprintf(m->ncu, sizeof m->ncu, "%s", cand);
            return;
        }
    }
    snprintf(m->no_ncu, sizeof m->no_ncu,
             "Nsight Compute (ncu) is not installed here (not on PATH, not in CUDA_HOME/bin; "
             "NCU=/path/to/ncu names it)");
}

/* ---- running one test ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int contains(const char *s, const char *what)
{
    return s && strstr(s, what) != NULL;
}

/* Check's own words for an error, said in the student's terms. */
static void explain_error(const char *msg, int timeout_s, char *out, size_t len)
{
    int sig, code;
    const char *p;
    if (contains(msg, "Test timeout expired")) {
        snprintf(out, len,
                 "did not finish within %d s and was stopped: a kernel that never ends (a loop "
                 "whose exit test never holds, a __syncthreads() that some threads of a block "
                 "never reach, a wait on another block), or host code that never returns",
                 timeout_s);
    } else if ((p = strstr(msg ? msg : "", "Received signal")) &&
               sscanf(p, "Received signal %d", &sig) == 1) {
        snprintf(out, len, "crashed: %s. %s", p,
                 sig == SIGABRT ? "abort() or a failed assert() in host code raises it"
                 : sig == SIGSEGV || sig == SIGBUS
                     ? "Host code read or wrote memory it does not own: often a device "
                       "pointer used on the host (the launchers get device pointers: only "
                       "kernels may read them)"
                 : sig == SIGFPE ? "An integer division by zero in host code?"
                                 : "Something in the test process raised it");
    } else if ((p = strstr(msg ? msg : "", "Early exit with return value")) &&
               sscanf(p, "Early exit with return value %d", &code) == 1) {
        snprintf(out, len,
                 "the test process exited with status %d before the test ended: something "
                 "called exit(%d). Launchers must return to their caller (CUDA errors are the "
                 "caller's to check)",
                 code, code);
    } else {
        snprintf(out, len, "%s", msg ? msg : "the test failed without a message");
    }
}

static void run_test(const entry *e, const char *include_tags, const char *marker,
                     gl_result *r)
{
    Suite *s = suite_create(GL_LAB.name);
    TCase *tc = tcase_create(e->id);
    SRunner *sr;
    TestResult **res;
    char *mark;
    double t0;

    tcase_set_tags(tc, gl_kind_name(e->kind));
    tcase_set_timeout(tc, e->timeout_s);
    tcase_add_test(tc, e->test);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK); /* every test in its own process, whatever CK_FORK says */

    remove(marker);
    setenv("GL_MARKER", marker, 1);
    fflush(NULL); /* a forked child must not write our buffered output again */
    t0 = now();
    srunner_run_tagged(sr, NULL, NULL, include_tags, NULL, CK_SILENT);
    r->seconds = now() - t0;

    if (srunner_ntests_run(sr) == 0) { /* not selected by the tags */
        r->status = -1;
        srunner_free(sr);
        return;
    }
    res = srunner_results(sr);
    mark = gl_read_file(marker);
    switch (tr_rtype(res[0])) {
    case CK_PASS:
        if (mark && !strncmp(mark, "done\t", 5)) {
            r->status = GL_PASS;
            snprintf(r->message, sizeof r->message, "%s", mark + 5); /* what it measured */
        } else if (mark && !strncmp(mark, "skip\t", 5)) {
            r->status = GL_SKIP;
            snprintf(r->message, sizeof r->message, "%s", mark + 5);
        } else {
            r->status = GL_FAIL;
            snprintf(r->message, sizeof r->message,
                     "the test process exited (status 0) before the test ended: something "
                     "called exit(0) or _exit(0). Launchers must return to their caller");
        }
        break;
    case CK_FAILURE:
        r->status = GL_FAIL;
        snprintf(r->message, sizeof r->message, "%s", tr_msg(res[0]));
        break;
    default:
        r->status = GL_FAIL;
        explain_error(tr_msg(res[0]), e->timeout_s, r->message, sizeof r->message);
        break;
    }
    free(mark);
    free(res);
    srunner_free(sr);
    remove(marker);
}

/* ---- output ---- */

static void print_wrapped(const char *text, const char *indent, int width)
{
    const char *p = text;
    while (*p) {
        int n = 0, cut = 0;
        while (p[n] && p[n] != '\n' && n < width) {
            if (p[n] == ' ')
                cut = n;
            n++;
        }
        if (p[n] && p[n] != '\n' && cut > 0)
            n = cut;
        printf("%s%.*s\n", indent, n, p);
        p += n;
        while (*p == ' ' || *p == '\n')
            p++;
    }
}

static int quiet; /* --quiet: no failure messages (make test, on the starting files) */
static char last_skip[1024];

static void print_line(const entry *e, const gl_result *r)
{
    char label[256];
    int dots;
    snprintf(label, sizeof label, "%-11s  %s ", gl_kind_name(e->kind), e->title);
    dots = 64 - (int)strlen(label);
    printf("  %s", label);
    while (dots-- > 0)
        putchar('.');
    if (r->status == GL_SKIP)
        printf(" SKIP   -/%d\n", e->points);
    else
        printf(" %s %3d/%d  (%.1f s)\n", r->status == GL_PASS ? "OK  " : "FAIL", r->score,
               e->points, r->seconds);
    if (r->status == GL_SKIP && !strcmp(r->message, last_skip))
        return; /* said once is enough */
    if (r->status != GL_PASS && r->message[0] && !quiet)
        print_wrapped(r->message, "        ", 92);
    if (r->status == GL_PASS && r->message[0] && !quiet)
        print_wrapped(r->message, "        measured: ", 82);
    if (r->status == GL_SKIP)
        snprintf(last_skip, sizeof last_skip, "%s", r->message);
    fflush(stdout);
}

/* The parent must never have opened the GPU: CUDA does not survive fork. */
static int parent_touched_cuda(void)
{
    char link[64], target[256];
    int fd;
    for (fd = 0; fd < 1024; fd++) {
        ssize_t n;
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        n = readlink(link, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            if (!strncmp(target, "/dev/nvidia", 11))
                return 1;
        }
    }
    return 0;
}

/* ---- main ---- */

/* In --run, a failure (a CUDA error, a missing function) is the status. */
static void fail_run(const char *message)
{
    gl_run_status("%s", message);
    exit(1);
}

static void usage(void)
{
    fprintf(stderr, "usage: runner --dir DIR --baseline FILE --results FILE [--src LABEL]\n"
                    "              [--kind K,K] [--only ID,ID] [--quiet] | --list | --run ARGS...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *baseline = NULL, *results = NULL, *src = "", *kinds = NULL,
               *only = NULL;
    char path[4096], marker_dir[] = "/tmp/gpulabs-grade-XXXXXX", marker[4200], tags[128] = "";
    int i, list = 0, built, failed = 0;
    int score[GL_NKINDS] = {0}, max[GL_NKINDS] = {0}, skipped_points = 0, total = 0, got = 0;
    machine m;
    FILE *out;
    char *log;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--run")) {
            /* inside Nsight Compute: run one launcher, report through GL_RUN_STATUS */
            const char *why;
            gl_set_fail_handler(fail_run);
            if (!GL_LAB.run_once || i + 1 >= argc)
                return 2;
            why = GL_LAB.run_once(argc - i - 1, argv + i + 1);
            if (!why || !*why)
                gl_run_status("ok");
            else if (!strncmp(why, "usage:", 6))
                gl_run_status("%s", why);
            else
                gl_run_status("%s is not right yet (the correctness tests say what is wrong)",
                              argv[i + 1]);
            return why && *why ? 1 : 0;
        } else if (!strcmp(argv[i], "--quiet")) {
            quiet = 1;
        } else if (!strcmp(argv[i], "--list")) {
            list = 1;
        } else if (i + 1 < argc && !strcmp(argv[i], "--dir")) {
            dir = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--baseline")) {
            baseline = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--results")) {
            results = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--src")) {
            src = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--kind")) {
            kinds = argv[++i];
        } else if (i + 1 < argc && !strcmp(argv[i], "--only")) {
            only = argv[++i];
        } else {
            usage();
        }
    }
    GL_LAB.add_tests();
    if (list) {
        for (i = 0; i < ntests; i++)
            printf("%-12s %-28s %3d  %s\n", gl_kind_name(tests[i].kind), tests[i].id,
                   tests[i].points, tests[i].title);
        return 0;
    }
    if (!dir || !baseline || !results)
        usage();
    if (kinds) { /* Check's tags are the kinds, space-separated */
        const char *p = kinds;
        for (i = 0; kinds[i] && i < (int)sizeof tags - 1; i++)
            tags[i] = kinds[i] == ',' ? ' ' : kinds[i];
        while (*p) {
            size_t n = strcspn(p, ", ");
            int k, known = 0;
            for (k = 0; k < GL_NKINDS; k++)
                known |= strlen(kind_names[k]) == n && !strncmp(p, kind_names[k], n);
            if (n && !known) {
                fprintf(stderr, "grader: unknown kind '%.*s' (kinds: correctness, technique, "
                                "performance, profile)\n", (int)n, p);
                return 2;
            }
            p += n;
            p += strspn(p, ", ");
        }
    }

    /* what the test processes inherit */
    setenv("GL_DIR", dir, 1);
    snprintf(path, sizeof path, "%s/submission.so", dir);
    setenv("GL_SUBMISSION", path, 1);
    setenv("GL_BASELINE", baseline, 1);
    {
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)gl_seed());
        setenv("SEED", seed, 1); /* every test draws from the same, printed seed */
    }
    built = access(path, R_OK) == 0;
    memset(&m, 0, sizeof m);
    if (built) {
        probe_gpu(&m);
        probe_ncu(&m);
    }
    if (!mkdtemp(marker_dir)) {
        perror("grader: mkdtemp");
        return 2;
    }
    snprintf(marker, sizeof marker, "%s/marker", marker_dir);

    out = fopen(results, "w");
    if (!out) {
        perror(results);
        return 2;
    }
    gl_fact_write(out, "lab", GL_LAB.name);
    gl_fact_write(out, "file", GL_LAB.file);
    gl_fact_write(out, "src", src);
    gl_fact_write(out, "gpu", m.gpu ? m.gpu_name : "none");
    snprintf(path, sizeof path, "%llu", (unsigned long long)gl_seed());
    gl_fact_write(out, "seed", path);
    gl_fact_write(out, "build", built ? "ok" : "failed");

    printf("== %s: %s%s%s ==\n", GL_LAB.name, src, *src ? "/" : "", GL_LAB.file);
    if (!built) {
        printf("  %s DID NOT COMPILE: every test fails. The compiler said:\n", GL_LAB.file);
        log = gl_read_file(strcat(strcpy(path, dir), "/build.log"));
        print_wrapped(log && *log ? log : "(no compiler output)\n", "    | ", 200);
        free(log);
    } else {
        printf("  GPU: %s\n", m.gpu ? m.gpu_name : m.gpu_name[0] ? m.gpu_name : "none");
        printf("  seed: %llu (SEED=%llu reproduces this run)\n", (unsigned long long)gl_seed(),
               (unsigned long long)gl_seed());
    }

    for (i = 0; i < ntests; i++) {
        const entry *e = &tests[i];
        gl_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.lab, sizeof r.lab, "%s", GL_LAB.name);
        snprintf(r.id, sizeof r.id, "%s", e->id);
        snprintf(r.kind, sizeof r.kind, "%s", gl_kind_name(e->kind));
        snprintf(r.title, sizeof r.title, "%s", e->title);
        r.max = e->points;
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
        } else {
            if (e->kind == GL_PROFILE)
                setenv("GL_NCU", m.ncu, 1);
            run_test(e, tags[0] ? tags : NULL, marker, &r);
            if ((int)r.status == -1)
                continue;
        }
        r.score = r.status == GL_PASS ? e->points : 0;
        print_line(e, &r);
        gl_result_write(out, &r);
        total += e->points;
        max[e->kind] += e->points;
        if (r.status == GL_SKIP) {
            skipped_points += e->points;
        } else {
            got += r.score;
            score[e->kind] += r.score;
            failed += r.status == GL_FAIL;
        }
    }
    fclose(out);
    rmdir(marker_dir);

    printf("  %s: %d/%d points", GL_LAB.name, got, total);
    if (skipped_points)
        printf(" (%d not run here)", skipped_points);
    printf(" --");
    for (i = 0; i < GL_NKINDS; i++)
        if (max[i])
            printf(" %s %d/%d", kind_names[i], score[i], max[i]);
    printf("\n\n");
    if (parent_touched_cuda()) {
        fprintf(stderr, "grader bug: the runner's parent process opened the GPU\n");
        return 3;
    }
    return failed ? 1 : 0;
}
