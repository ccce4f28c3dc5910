/* sanitize.c: the sanitize kind. compute-sanitizer runs the subject three
 * times (memcheck; racecheck where the PTX uses shared memory; synccheck where it
 * has barriers or warp-synchronous instructions); in each session every student
 * launcher of the lab runs once on a small problem (gl_lab_probe), and the
 * errors the tool writes to its own log file are given to the launcher whose
 * kernel they name. The tool, not the subject, writes the log: the student's
 * code cannot write files, and what it prints goes nowhere. A call under the tool is graded
 * like any other (GRADING.md rule 10): its output checked, its copies refused; a call that
 * goes wrong there fails its launcher's test with what went wrong. */
#define _GNU_SOURCE
#include "sanitize.h"

#include "grader.h"
#include "inspect.h"
#include "judge.h"

#include "gl_check.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const tools[] = {"memcheck", "racecheck", "synccheck"};

static jmp_buf probe_failed;
static char probe_why[1024];

static void catch_failure(const char *message)
{
    snprintf(probe_why, sizeof probe_why, "%s", message);
    longjmp(probe_failed, 1);
}

/* The source name of a mangled kernel name (_Z23transpose_padded_kernelPfPKfii
 * -> transpose_padded_kernel), or the name itself (extern "C"). */
static void source_name(const char *mangled, char *out, size_t len)
{
    const char *p = mangled;
    long n;
    if (strncmp(p, "_Z", 2) != 0) {
        snprintf(out, len, "%s", mangled);
        return;
    }
    p += 2;
    while (*p && !isdigit((unsigned char)*p)) /* N (nested), L (internal linkage) ... */
        p++;
    n = strtol(p, (char **)&p, 10);
    snprintf(out, len, "%.*s", (int)(n > 0 && (size_t)n < len ? n : 0), p);
}

/* The first error block of the log that names one of the kernels. */
static int find_error(const char *log, char (*kernels)[224], int nk, char *out, size_t len)
{
    const char *p = log;
    while (p && *p) {
        const char *line = p, *eol = strchr(p, '\n'), *end;
        int k;
        p = eol ? eol + 1 : NULL;
        /* a block starts at a "========= " line that is not a detail ("=========     at") */
        if (strncmp(line, "========= ", 10) != 0 || line[10] == ' ' ||
            !strncmp(line + 10, "ERROR SUMMARY", 13) || !strncmp(line + 10, "COMPUTE-SANITIZER", 17))
            continue;
        end = p;
        while (end && !strncmp(end, "=========  ", 11)) { /* its details */
            const char *e = strchr(end, '\n');
            end = e ? e + 1 : NULL;
        }
        for (k = 0; k < nk; k++) {
            char name[224], *hit;
            size_t blen = end ? (size_t)(end - line) : strlen(line);
            char *block = strndup(line, blen);
            source_name(kernels[k], name, sizeof name);
            hit = block && *name ? strstr(block, name) : NULL;
            if (hit) {
                size_t i;
                for (i = 0; block[i]; i++) /* one paragraph for the report */
                    if (block[i] == '\n')
                        block[i] = ' ';
                snprintf(out, len, "%s", block);
                free(block);
                return 1;
            }
            free(block);
        }
    }
    return 0;
}

void gl_sanitize_run(const char *sanitizer, gl_sanitize_result *res, int n)
{
    char dir[] = "/tmp/gpulabs-sanitize-XXXXXX";
    gl_fail_handler old;
    char *ptx;
    int t;
    volatile int i;

    if (!mkdtemp(dir)) {
        for (i = 0; i < n; i++)
            snprintf(res[i].kit_error, sizeof res[i].kit_error, "no temporary folder");
        return;
    }
    ptx = gl_read_file(gl_artifact("ptx"));
    for (t = 0; t < 3; t++) {
        char log[128];
        const char *argv[12];
        char *text;
        int argc = 0;
        /* racecheck looks at shared memory, synccheck at barriers and warp-synchronous
         * instructions: a PTX with none has nothing for them to find */
        if (ptx && t == 1 && !strstr(ptx, "shared"))
            continue;
        if (ptx && t == 2 && !strstr(ptx, "bar.") && !strstr(ptx, "barrier") &&
            !strstr(ptx, ".sync"))
            continue;
        snprintf(log, sizeof log, "%s/%s.log", dir, tools[t]);
        argv[argc++] = sanitizer;
        argv[argc++] = "--tool";
        argv[argc++] = tools[t];
        argv[argc++] = "--log-file";
        argv[argc++] = log;
        argv[argc++] = "--print-limit";
        argv[argc++] = "20";
        argv[argc] = NULL;
        gl_judge_wrap_subject(argv);
        gl_judge_prestart_subject(0); /* the tool and the subject's context, unlocked */
        /* shares the GPU, but never with a timed or profiled test; a tool at a time, so
         * that a timed test waiting for its turn waits for one session, not three */
        gl_gpu_phase(tools[t]);
        gl_gpu_lock(0);
        old = gl_set_fail_handler(catch_failure);
        for (i = 0; i < n; i++) {
            volatile int before = gl_kit_error_count();
            gl_judge_test_begin(300, NULL);
            if (setjmp(probe_failed) == 0)
                gl_lab_probe(res[i].launcher);
            else if (gl_kit_error_count() != before)
                snprintf(res[i].kit_error, sizeof res[i].kit_error, "%s", probe_why);
            else if (!res[i].error[0])
                snprintf(res[i].error, sizeof res[i].error,
                         "under compute-sanitizer %s, the call went wrong: %.1000s", tools[t],
                         probe_why);
            gl_judge_test_end(0);
        }
        gl_set_fail_handler(old);
        gl_gpu_unlock();
        gl_judge_quit_and_wait(300.0); /* the tool writes its log as the subject ends */
        gl_judge_wrap_subject(NULL);
        text = gl_read_file(log);
        remove(log);
        if (!text) {
            for (i = 0; i < n; i++)
                if (!res[i].kit_error[0])
                    snprintf(res[i].kit_error, sizeof res[i].kit_error,
                             "compute-sanitizer %s wrote no log (%s)", tools[t], sanitizer);
            continue;
        }
        for (i = 0; i < n; i++) {
            char kernels[8][224], block[1024];
            int nk = gl_every_kernel(res[i].launcher, kernels, 8);
            if (!res[i].found && find_error(text, kernels, nk, block, sizeof block)) {
                res[i].found = 1;
                snprintf(res[i].error, sizeof res[i].error, "compute-sanitizer %s: %.900s",
                         tools[t], block);
            }
        }
        free(text);
    }
    free(ptx);
    rmdir(dir);
}
