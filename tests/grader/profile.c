/* profile.c: the profile tests' counters, from one Nsight Compute session per lab.
 *
 * The runner runs a lab's profile tests twice. In the first pass each gl_profile call only
 * names its run (a launcher and its sizes, the metrics) and ends the test. Then:
 *  1. a rehearsal: every run, in order, in a fresh subject the grader records (CUPTI): its
 *     outputs checked, its copies refused, and the kernels the GPU ran noted, with their grids;
 *  2. the session: a subject under Nsight Compute performs the same runs (gl_lab_run_once:
 *     the judge checks each output, as in any test) with every metric any run asked for, and
 *     Nsight Compute writes its CSV itself; the judge reads it.
 * A profiled run is graded like any other (GRADING.md rule 10): it must launch the kernels
 * its rehearsal launched, with the same grids and blocks (a launcher that behaves otherwise
 * when it is observed is caught here), and its kernels must have stored at least the bytes
 * its outputs hold (outputs computed elsewhere and copied in are caught here). In the second
 * pass each gl_profile call reads its run's counters: sums over its kernels, or each kernel
 * that did the run's work on its own counters (gl_profile_ratio: a decoy cannot dilute a
 * ratio). */
#define _GNU_SOURCE
#include "profile.h"

#include "grader.h"
#include "judge.h"
#include "ncu_csv.h"
#include "outputs.h"
#include "record.h"

#include "gl_check.h"
#include "gl_timing.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RUNS 32
#define MAX_METRICS 28       /* and the four the session adds: GL_NCU_METRICS in all */
#define MAX_KERNELS 512      /* of the whole session */
#define RUN_KERNELS 64       /* of one run */

static const char *const work_metrics[] = { /* global sectors: what a kernel moved and stored */
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"};

typedef struct {
    char key[512];          /* the run's arguments, joined by spaces */
    char args[8][64];
    int nargs;
    char error[1024];       /* the run went wrong (the student's file) */
    gl_captured rehearsed[RUN_KERNELS];
    gl_capture rehearsal, profiled;
    size_t written;         /* bytes of its outputs written under Nsight Compute */
    int profiled_ok;        /* performed under Nsight Compute, and right */
    int performed;          /* performed under Nsight Compute (its kernels are in the report) */
    int died;               /* went wrong under Nsight Compute though its rehearsal went well */
    int first, count;       /* its kernels in the report */
} run;

static enum { OFF, PLAN, REPLAY } mode;
static run runs[MAX_RUNS];
static int nruns, rehearsed; /* rehearsed: the rehearsal recorded the GPU's work (CUPTI) */
static char metrics[GL_NCU_METRICS][128];
static int nmetrics;
static gl_ncu_kernel kernels[MAX_KERNELS];
static int nkernels;
static char session_skip[512];
static char session_kit_error[1024]; /* the grader's own failure: the tests are NOT RUN */
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

static int metric_index(const char *name)
{
    int j;
    for (j = 0; j < nmetrics && strcmp(metrics[j], name); j++)
        ;
    if (j == nmetrics && nmetrics < GL_NCU_METRICS)
        snprintf(metrics[nmetrics++], sizeof metrics[0], "%s", name);
    return j < GL_NCU_METRICS ? j : -1;
}

void gl_profile_begin_plan(void)
{
    size_t i;
    mode = PLAN;
    nruns = nmetrics = nkernels = 0;
    session_skip[0] = session_kit_error[0] = '\0';
    for (i = 0; i < sizeof work_metrics / sizeof work_metrics[0]; i++)
        metric_index(work_metrics[i]);
}

/* The run of run_args, with its counters ready, or the test ends (skipped, failed, not run). */
static const run *ready_run(const char *const *metric, int n, const char *const *run_args)
{
    char key[512];
    run *r;
    int i;
    join(run_args, key, sizeof key);
    if (mode == PLAN) {
        if (!find(key) && nruns < MAX_RUNS) {
            r = &runs[nruns++];
            memset(r, 0, sizeof *r);
            snprintf(r->key, sizeof r->key, "%s", key);
            for (i = 0; run_args[i] && i < 8; i++)
                snprintf(r->args[r->nargs++], sizeof r->args[0], "%s", run_args[i]);
        }
        if (n > MAX_METRICS)
            gl_kit_error("grader bug: a profile test asks for more than %d metrics", MAX_METRICS);
        for (i = 0; i < n; i++)
            if (metric_index(metric[i]) < 0)
                gl_kit_error("grader bug: a lab's profile tests ask for more than %d metrics",
                             GL_NCU_METRICS);
        gl_skip("planned"); /* the runner runs this test again after the session */
    }
    if (session_kit_error[0])
        gl_kit_error("%s", session_kit_error);
    if (session_skip[0])
        gl_skip("%s", session_skip);
    if (!(r = find(key)))
        gl_kit_error("grader bug: the profiled run '%s' was not planned", key);
    if (r->error[0])
        gl_check_fail("the profiled run went wrong, so its counters are not graded: %s",
                      r->error);
    for (i = 0; i < n; i++) {
        int m = metric_index(metric[i]), k, seen = 0;
        for (k = r->first; k < r->first + r->count; k++)
            seen |= m >= 0 && (kernels[k].has >> m & 1);
        if (!seen)
            gl_check_fail("Nsight Compute reported no %s for %s: no kernel ran, or this GPU "
                          "does not have that counter",
                          metric[i], run_args[0]);
    }
    return r;
}

void gl_profile(const char *const *metric, int n, double *values, const char *const *run_args)
{
    const run *r = ready_run(metric, n, run_args);
    int i, k;
    for (i = 0; i < n; i++) {
        int m = metric_index(metric[i]);
        values[i] = 0.0;
        for (k = r->first; k < r->first + r->count; k++)
            values[i] += kernels[k].value[m];
    }
}

/* The global bytes a kernel moved (loads, stores, atomics: sectors of 32 bytes). */
static double moved(const gl_ncu_kernel *k)
{
    return 32.0 * (k->value[0] + k->value[1] + k->value[2] + k->value[3]);
}

double gl_profile_ratio(const char *const *metric, int n, unsigned num_mask, unsigned den_mask,
                        int larger_is_better, const char *const *run_args, double *values,
                        char *kernel, size_t kernel_len)
{
    const run *r = ready_run(metric, n, run_args);
    double worst = -1.0, budget, spent = 0.0;
    int i, k, exempt[RUN_KERNELS] = {0};
    /* the least busy kernels that together moved a twentieth of the run's buffers did none
     * of its work to speak of; every other kernel is judged on its own counters */
    budget = r->profiled.bytes / 20.0;
    for (;;) {
        int least = -1;
        for (k = 0; k < r->count && k < RUN_KERNELS; k++)
            if (!exempt[k] && (least < 0 || moved(&kernels[r->first + k]) <
                                                moved(&kernels[r->first + least])))
                least = k;
        if (least < 0 || spent + moved(&kernels[r->first + least]) > budget)
            break;
        spent += moved(&kernels[r->first + least]);
        exempt[least] = 1;
    }
    for (k = 0; k < r->count && k < RUN_KERNELS; k++) {
        const gl_ncu_kernel *kn = &kernels[r->first + k];
        double num = 0.0, den = 0.0, ratio;
        if (exempt[k])
            continue;
        for (i = 0; i < n; i++) {
            int m = metric_index(metric[i]);
            num += (num_mask >> i & 1) ? kn->value[m] : 0.0;
            den += (den_mask >> i & 1) ? kn->value[m] : 0.0;
        }
        if (den <= 0)
            continue;
        ratio = num / den;
        if (worst < 0 || (larger_is_better ? ratio < worst : ratio > worst)) {
            worst = ratio;
            for (i = 0; i < n; i++)
                values[i] = kn->value[metric_index(metric[i])];
            snprintf(kernel, kernel_len, "%s", kn->name);
        }
    }
    return worst;
}

/* A failure inside the session (gl_fail in the kit's checks) comes back here. */
static jmp_buf run_failed;
static char run_why[1024];

static void catch_failure(const char *message)
{
    snprintf(run_why, sizeof run_why, "%s", message);
    longjmp(run_failed, 1);
}

/* A failure caught outside the runs (a subject that would not start): the grader's own when a
 * kit error was raised since `before`, else the student's file's, given to every run. */
static void session_failed(int before)
{
    int i;
    if (gl_kit_error_count() != before) {
        snprintf(session_kit_error, sizeof session_kit_error, "%s", run_why);
        return;
    }
    for (i = 0; i < nruns; i++)
        if (!runs[i].error[0])
            snprintf(runs[i].error, sizeof runs[i].error, "%s", run_why);
}

/* A run that went right in its rehearsal and wrong under Nsight Compute (its subject killed
 * or stopped, on a GPU that many labs share) is given a second session before it counts:
 * the tool's or the machine's failure is not the student's. A file that misbehaves only when
 * observed goes wrong in both. 1 when a run is to be performed again. */
static int forget_deaths(void)
{
    int i, again = 0;
    for (i = 0; i < nruns; i++)
        if (runs[i].died) {
            if (!again) /* for whoever reads the grading's log: the machine had a bad moment */
                fprintf(stderr, "  note: a profiled run went wrong under Nsight Compute (%.300s); "
                        "its session is run again\n", runs[i].error);
            runs[i].died = 0;
            runs[i].error[0] = '\0';
            again = 1;
        }
    for (i = 0; again && i < nruns; i++) {
        runs[i].performed = runs[i].profiled_ok = 0;
        runs[i].written = 0;
    }
    return again;
}

/* Performs every run once in the current subject, capturing what each did (which: the
 * rehearsal or the profiled runs). 0, or -1 when the grader itself failed (session_kit_error). */
static int perform_runs(int profiled)
{
    volatile int i;
    int kit_errors = gl_kit_error_count();
    for (i = 0; i < nruns; i++) {
        run *r = &runs[i];
        gl_capture *c = profiled ? &r->profiled : &r->rehearsal;
        const char *args[9];
        int k;
        if (r->error[0])
            continue; /* it went wrong in its rehearsal: said once */
        for (k = 0; k < r->nargs; k++)
            args[k] = r->args[k];
        args[k] = NULL;
        c->kernels = profiled ? NULL : r->rehearsed;
        c->max = profiled ? 0 : RUN_KERNELS;
        r->performed |= profiled;
        gl_judge_test_begin(300, NULL);
        gl_record_capture(c);
        if (profiled)
            gl_outputs_begin();
        if (setjmp(run_failed) == 0) {
            const char *why = gl_lab_run_once(r->nargs, (char **)args);
            if (why && *why)
                snprintf(r->error, sizeof r->error, "%s is not right yet (the correctness tests "
                         "say what is wrong): %s", r->args[0], why);
            else if (profiled)
                r->written = gl_outputs_written(), r->profiled_ok = 1;
        } else if (gl_kit_error_count() != kit_errors) {
            snprintf(session_kit_error, sizeof session_kit_error, "%s", run_why);
        } else {
            snprintf(r->error, sizeof r->error, "%s%s",
                     profiled ? "under Nsight Compute: " : "", run_why);
            r->died = profiled;
        }
        gl_outputs_end();
        gl_record_capture(NULL);
        gl_judge_test_end(0);
        if (session_kit_error[0])
            return -1;
    }
    return 0;
}

/* The kernels of the report, given to the runs in order, and each run's evidence checked. */
static void judge_runs(void)
{
    int i, k, next = 0;
    for (i = 0; i < nruns; i++) {
        run *r = &runs[i];
        double stored = 0.0;
        /* its kernels in the report: as many as its rehearsal ran; where there was none, or
         * the run went wrong under Nsight Compute, as many as it launched there; none if it
         * was not performed there */
        int count = !r->performed ? 0
                    : rehearsed && r->profiled_ok ? r->rehearsal.n
                                                  : (int)r->profiled.launches;
        r->first = next;
        r->count = next + count <= nkernels ? count : nkernels - next;
        next += r->count;
        if (r->error[0])
            continue;
        if (rehearsed && (r->rehearsal.n > RUN_KERNELS || r->count != r->rehearsal.n ||
                          (i == nruns - 1 && next != nkernels))) {
            snprintf(r->error, sizeof r->error, "under Nsight Compute, %s ran %d kernel%s, and "
                     "%d when it was not observed: a launcher does the same work whether or not "
                     "it is profiled",
                     r->args[0], i == nruns - 1 ? nkernels - r->first : r->count,
                     r->count == 1 ? "" : "s", r->rehearsal.n);
            continue;
        }
        for (k = 0; rehearsed && k < r->count; k++) {
            const gl_ncu_kernel *p = &kernels[r->first + k];
            const gl_captured *c = &r->rehearsed[k];
            if (strcmp(p->name, c->name) || memcmp(p->grid, c->grid, sizeof p->grid) ||
                memcmp(p->block, c->block, sizeof p->block)) {
                snprintf(r->error, sizeof r->error, "under Nsight Compute, %s's kernel %d was "
                         "%.80s with a grid of %u x %u x %u blocks of %u x %u x %u; not observed "
                         "it was %.80s, %u x %u x %u blocks of %u x %u x %u: a launcher does the "
                         "same work whether or not it is profiled",
                         r->args[0], k + 1, p->name, p->grid[0], p->grid[1], p->grid[2],
                         p->block[0], p->block[1], p->block[2], c->name, c->grid[0], c->grid[1],
                         c->grid[2], c->block[0], c->block[1], c->block[2]);
                break;
            }
        }
        if (r->error[0])
            continue;
        for (k = r->first; k < r->first + r->count; k++)
            stored += 32.0 * (kernels[k].value[1] + kernels[k].value[2] + kernels[k].value[3]);
        if (stored < (double)r->written)
            snprintf(r->error, sizeof r->error, "under Nsight Compute, %s's kernels stored %.0f "
                     "bytes, but its outputs hold %zu bytes written: something other than its "
                     "kernels wrote them (a copy, the host). The kernels must do the work",
                     r->args[0], stored, r->written);
    }
}

void gl_profile_session(const char *ncu)
{
    char dir[] = "/tmp/gpulabs-ncu-XXXXXX", log[64], list[GL_NCU_METRICS * 130] = "";
    const char *argv[16], *names[GL_NCU_METRICS];
    gl_fail_handler old;
    char *csv;
    int i, argc = 0, before, attempt;
    double t0;

    mode = REPLAY;
    session_seconds = 0.0;
    if (nruns == 0)
        return;
    if (!mkdtemp(dir)) {
        snprintf(session_kit_error, sizeof session_kit_error,
                 "no temporary folder for Nsight Compute's output");
        return;
    }
    old = gl_set_fail_handler(catch_failure);

    /* 1. the rehearsal, in a plain subject whose every route to the GPU is recorded */
    gl_judge_wrap_subject(NULL);
    gl_gpu_phase("ncu:rehearsal");
    gl_gpu_lock(0);
    t0 = gl_host_seconds();
    gl_judge_test_begin(300, NULL);
    before = gl_kit_error_count();
    if (setjmp(run_failed) == 0) {
        gl_judge_start_subject("the rehearsal of the profiled runs");
        rehearsed = gl_judge_records_gpu();
        perform_runs(0);
    } else {
        session_failed(before);
    }
    gl_judge_stop_subject();
    session_seconds += gl_host_seconds() - t0;
    gl_gpu_unlock();

    /* 2. the session: Nsight Compute and the subject start while the other labs' tests run,
     * the student's file loads while they share the GPU; the runs, whose kernels it replays
     * and counts, have the GPU alone */
    snprintf(log, sizeof log, "%s/ncu.csv", dir);
    for (i = 0; i < nmetrics; i++) {
        strcat(list, i ? "," : "");
        strcat(list, metrics[i]);
    }
    argv[argc++] = ncu;
    argv[argc++] = "--csv";
    argv[argc++] = "--log-file";
    argv[argc++] = log;
    argv[argc++] = "--print-kernel-base"; /* device names, as the rehearsal has them */
    argv[argc++] = "mangled";
    argv[argc++] = "--clock-control"; /* leave the GPU's clocks as they are */
    argv[argc++] = "none";
    argv[argc++] = "--metrics";
    argv[argc++] = list;
    argv[argc] = NULL;
    for (attempt = 0; attempt < 2 && !session_kit_error[0]; attempt++) {
        if (attempt && !forget_deaths())
            break;
        remove(log);
        gl_judge_wrap_subject(argv);
        gl_judge_prestart_subject(0); /* Nsight Compute and the subject's context, unlocked */
        gl_gpu_phase("ncu:start");
        gl_gpu_lock(0);
        t0 = gl_host_seconds();
        gl_judge_test_begin(300, NULL);
        before = gl_kit_error_count();
        if (setjmp(run_failed) == 0)
            gl_judge_start_subject("the profiled runs");
        else
            session_failed(before);
        session_seconds += gl_host_seconds() - t0;
        gl_gpu_unlock();
        if (!session_kit_error[0]) {
            gl_gpu_phase("ncu:runs");
            gl_gpu_lock(1);
            t0 = gl_host_seconds();
            perform_runs(1);
            gl_gpu_unlock();
            gl_judge_quit_and_wait(120.0); /* its context ends, and it writes its report */
            session_seconds += gl_host_seconds() - t0; /* not the waits for the GPU */
        }
        gl_judge_wrap_subject(NULL);
    }
    gl_set_fail_handler(old);

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
    if (session_kit_error[0]) {
        free(csv);
        return;
    }
    for (i = 0; i < nmetrics; i++)
        names[i] = metrics[i];
    if (csv && strstr(csv, "ERR_NVGPUCTRPERM"))
        snprintf(session_skip, sizeof session_skip,
                 "Nsight Compute may not read the GPU's performance counters here "
                 "(ERR_NVGPUCTRPERM: an administrator can allow it, "
                 "https://developer.nvidia.com/ERR_NVGPUCTRPERM)");
    else if (!csv)
        snprintf(session_kit_error, sizeof session_kit_error,
                 "Nsight Compute wrote no report (did it start? %s)", ncu);
    else if (strstr(csv, "==ERROR==") && !strstr(csv, "\"ID\""))
        snprintf(session_kit_error, sizeof session_kit_error, "Nsight Compute failed: %.400s",
                 strstr(csv, "==ERROR=="));
    else if ((nkernels = gl_ncu_kernels(csv, names, nmetrics, kernels, MAX_KERNELS)) < 0) {
        for (i = 0; i < nruns; i++)
            snprintf(runs[i].error, sizeof runs[i].error, "the profiled runs launched more "
                     "than %d kernels under Nsight Compute, more than they need", MAX_KERNELS);
        nkernels = 0;
    } else {
        judge_runs();
    }
    free(csv);
}
