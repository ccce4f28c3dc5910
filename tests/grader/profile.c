/* profile.c: the profile tests' counters, from one Nsight Compute session
 * per lab.
 *
 * The runner runs a lab's profile tests twice. In the first pass each
 * gl_profile call only names its run (a launcher and its sizes, the
 * metrics) and ends the test. gl_profile_session then starts a subject under
 * Nsight Compute with every metric any run asked for, performs each run
 * through GL_LAB.run_once (the judge checks its output, as in any test) and
 * notes which of the subject's kernel launches belong to which run. Nsight
 * Compute writes its CSV itself; the judge reads it. In the second pass each
 * gl_profile call returns its run's sums. */
#define _GNU_SOURCE
#include "profile.h"

#include "grader.h"
#include "inspect.h"
#include "judge.h"

#include "gl_check.h"
#include "gl_timing.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RUNS 32
#define MAX_METRICS 32

typedef struct {
    char key[512];          /* the run's arguments, joined by spaces */
    char args[8][64];
    int nargs;
    unsigned long first, end; /* its kernels: launches [first, end) of the subject */
    char error[1024];       /* the run went wrong */
} run;

static enum { OFF, PLAN, REPLAY } mode;
static run runs[MAX_RUNS];
static int nruns;
static char metrics[MAX_METRICS][128];
static int nmetrics;
static char *csv;           /* Nsight Compute's output */
static char session_skip[512];
static char session_error[1024];
static double session_seconds;

double gl_profile_session_seconds(void)
{
    return session_seconds;
}

static void join(const char *const *args, char *key, size_t len)
{
    int i;
    key[0] = '\0';
    for (i = 0; args[i]; i++) {
        strncat(key, i ? " " : "", len - strlen(key) - 1);
        strncat(key, args[i], len - strlen(key) - 1);
    }
}

static run *find(const char *key)
{
    int i;
    for (i = 0; i < nruns; i++)
        if (!strcmp(runs[i].key, key))
            return &runs[i];
    return NULL;
}

void gl_profile_begin_plan(void)
{
    mode = PLAN;
    nruns = nmetrics = 0;
    free(csv);
    csv = NULL;
    session_skip[0] = session_error[0] = '\0';
}

void gl_profile(const char *const *metric, int n, double *values, const char *const *run_args)
{
    char key[512];
    run *r;
    int i, j;

    join(run_args, key, sizeof key);
    if (mode == PLAN) {
        if (!find(key) && nruns < MAX_RUNS) {
            r = &runs[nruns++];
            memset(r, 0, sizeof *r);
            snprintf(r->key, sizeof r->key, "%s", key);
            for (i = 0; run_args[i] && i < 8; i++)
                snprintf(r->args[r->nargs++], sizeof r->args[0], "%s", run_args[i]);
        }
        for (i = 0; i < n; i++) {
            for (j = 0; j < nmetrics && strcmp(metrics[j], metric[i]); j++)
                ;
            if (j == nmetrics && nmetrics < MAX_METRICS)
                snprintf(metrics[nmetrics++], sizeof metrics[0], "%s", metric[i]);
        }
        gl_skip("planned"); /* the runner runs this test again after the session */
    }
    if (session_skip[0])
        gl_skip("%s", session_skip);
    if (session_error[0])
        gl_check_fail("%s", session_error);
    if (!(r = find(key)))
        gl_check_fail("grader bug: the profiled run '%s' was not planned", key);
    if (r->error[0])
        gl_check_fail("the profiled run went wrong, so its counters are not graded: %s",
                      r->error);
    for (i = 0; i < n; i++) {
        if (!csv || gl_ncu_sum_ids(csv, metric[i], (long)r->first, (long)r->end, &values[i]) == 0)
            gl_check_fail("Nsight Compute reported no %s for %s: no kernel ran, or this GPU "
                          "does not have that counter",
                          metric[i], run_args[0]);
    }
}

/* A run's failure (gl_fail in the kit's checks) comes back here. */
static jmp_buf run_failed;
static char run_why[1024];

static void catch_failure(const char *message)
{
    snprintf(run_why, sizeof run_why, "%s", message);
    longjmp(run_failed, 1);
}

void gl_profile_session(const char *ncu)
{
    char dir[] = "/tmp/gpulabs-ncu-XXXXXX", log[64], list[MAX_METRICS * 130] = "";
    const char *argv[16];
    gl_fail_handler old;
    volatile int i;
    int argc = 0;
    double t0;

    mode = REPLAY;
    session_seconds = 0.0;
    if (nruns == 0)
        return;
    if (!mkdtemp(dir)) {
        snprintf(session_error, sizeof session_error, "grader: no temporary folder for Nsight "
                 "Compute's output");
        return;
    }
    snprintf(log, sizeof log, "%s/ncu.csv", dir);
    for (i = 0; i < nmetrics; i++) {
        strcat(list, i ? "," : "");
        strcat(list, metrics[i]);
    }
    argv[argc++] = ncu;
    argv[argc++] = "--csv";
    argv[argc++] = "--log-file";
    argv[argc++] = log;
    argv[argc++] = "--clock-control"; /* leave the GPU's clocks as they are */
    argv[argc++] = "none";
    argv[argc++] = "--metrics";
    argv[argc++] = list;
    argv[argc] = NULL;
    gl_judge_wrap_subject(argv);
    /* Nsight Compute and the subject start while the other labs' tests run, the student's file
     * loads while they share the GPU; the runs, whose kernels it replays and counts, have the
     * GPU alone */
    old = gl_set_fail_handler(catch_failure);
    gl_judge_prestart_subject(0); /* Nsight Compute and the subject's context, unlocked */
    gl_gpu_phase("ncu:start");
    gl_gpu_lock(0);
    t0 = gl_host_seconds();
    gl_judge_test_begin(300, NULL);
    if (setjmp(run_failed) == 0) /* if it fails, the first run tries again and says why */
        gl_judge_start_subject("the profiled runs");
    session_seconds = gl_host_seconds() - t0;
    gl_gpu_unlock();
    gl_gpu_phase("ncu:runs");
    gl_gpu_lock(1);
    t0 = gl_host_seconds();
    for (i = 0; i < nruns; i++) {
        run *r = &runs[i];
        const char *args[9];
        int k;
        for (k = 0; k < r->nargs; k++)
            args[k] = r->args[k];
        args[k] = NULL;
        gl_judge_test_begin(300, NULL);
        r->first = gl_judge_kernel_count();
        if (setjmp(run_failed) == 0) {
            const char *why = GL_LAB.run_once(r->nargs, (char **)args);
            if (why && *why)
                snprintf(r->error, sizeof r->error, "%s is not right yet (the correctness tests "
                         "say what is wrong): %s", r->args[0], why);
        } else {
            snprintf(r->error, sizeof r->error, "%s", run_why);
        }
        r->end = gl_judge_kernel_count();
        gl_judge_test_end(0);
    }
    gl_set_fail_handler(old);
    gl_gpu_unlock();
    gl_judge_quit_and_wait(120.0); /* its context ends, and Nsight Compute writes its report */
    session_seconds += gl_host_seconds() - t0; /* not the waits for the GPU */
    gl_judge_wrap_subject(NULL);

    csv = gl_read_file(log);
    if (csv && getenv("GL_DIR")) { /* kept beside the build, for whoever wants to look */
        char keep[4200];
        FILE *f;
        snprintf(keep, sizeof keep, "%s/ncu.csv", getenv("GL_DIR"));
        if ((f = fopen(keep, "w"))) {
            fputs(csv, f);
            fclose(f);
        }
    }
    remove(log);
    rmdir(dir);
    if (csv && strstr(csv, "ERR_NVGPUCTRPERM"))
        snprintf(session_skip, sizeof session_skip,
                 "Nsight Compute may not read the GPU's performance counters here "
                 "(ERR_NVGPUCTRPERM: an administrator can allow it, "
                 "https://developer.nvidia.com/ERR_NVGPUCTRPERM)");
    else if (!csv)
        snprintf(session_error, sizeof session_error,
                 "Nsight Compute wrote no report (did it start? %s)", ncu);
    else if (strstr(csv, "==ERROR==") && !strstr(csv, "\"ID\""))
        snprintf(session_error, sizeof session_error, "Nsight Compute failed: %.400s",
                 strstr(csv, "==ERROR=="));
}
