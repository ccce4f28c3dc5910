/* judge_subject.c: the subject's life, as the judge leads it: a subject process starts in two
 * steps (spawned, then loaded with the student's file or the kit's), runs the calls of the
 * tests (judge_calls.c) until one breaks it or a kit's call needs the other kind, and is
 * ended with its whole process group; it may run wrapped in a tool (Nsight Compute,
 * compute-sanitizer). Each test starts with its deadline and the whole pool. */
#define _GNU_SOURCE
#include "grader.h"
#include "judge.h"
#include "judge_state.h"
#include "link.h"
#include "record.h"

#include "gl_check.h"
#include "gl_timing.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the subject's life ---- */

static double now(void)
{
    return gl_host_seconds();
}

void subject_died(int r, const char *during, const char *launcher)
{
    char why[1024];
    if (r == -2 || !gl_link_running()) {
        gl_link_kill();
        gl_fail("%s did not finish within %d s and was stopped: a kernel that never ends (a "
                "loop whose exit test never holds, a __syncthreads() that some threads of a "
                "block never reach, a wait on another block), or host code that never returns",
                launcher, J.timeout_s);
    }
    gl_link_reap(why, sizeof why, during);
    gl_fail("%s %s", launcher, why);
}

/* A subject starts in two steps. subject_spawn: its process, its CUDA context, the pool
 * mapped, its record started, its containment: the kit's code only, so it may run while the
 * other labs' tests run (gl_judge_prestart_subject). subject_load: the judge says go, the
 * subject loads the student's file (its constructors run then) and says it is ready: under
 * the GPU's lock, as every call of the student's code is. */
static const char *subject_spawn(void)
{
    gl_hello hello;
    gl_link_start s;
    memset(&hello, 0, sizeof hello);
    memcpy(hello.ipc_handle, &J.handle, sizeof J.handle);
    hello.vmm = J.vmm_fd >= 0;
    hello.pool_bytes = J.pool_bytes;
    hello.host_pool_bytes = J.host_pool ? J.host_pool_bytes : 0;
    snprintf(hello.submission, sizeof hello.submission, "%s", J.kit ? J.baseline : J.submission);
    hello.kit = J.kit;
    snprintf(hello.cupti, sizeof hello.cupti, "%s", J.cupti);
    if (!J.kit)
        snprintf(hello.cubin, sizeof hello.cubin, "%s", J.cubin);
    if (J.wrapper) { /* Nsight Compute: its target takes $TMPDIR/nvidia/nsight_compute/lock */
        const char *tmp = getenv("TMPDIR");
        char dir[512];
        hello.profiled = 1;
        if (getenv("GL_PROFILE_CONTAIN")) /* the instructor's diagnosis of a profiler */
            hello.profiled_contain = atoi(getenv("GL_PROFILE_CONTAIN"));
        snprintf(dir, sizeof dir, "%s/nvidia", tmp && *tmp ? tmp : "/tmp");
        mkdir(dir, 0777);
        snprintf(dir + strlen(dir), sizeof dir - strlen(dir), "/nsight_compute");
        mkdir(dir, 0777); /* made by the judge: the subject may only write inside it */
        snprintf(hello.ncu_lock, sizeof hello.ncu_lock, "%s", dir);
    }
    s.exe = J.subject_exe;
    s.wrapper = J.wrapper;
    s.hello = &hello;
    s.pool_fd = J.vmm_fd;
    s.host_pool_fd = J.host_pool ? J.host_fd : -1;
    J.subject_kit = J.kit;
    return gl_link_spawn(&s);
}

static void describe_protections(const gl_ready *ready)
{
    char line[1024];
    size_t n;
    snprintf(line, sizeof line, "%s%s%s%s", ready->landlock ? "landlock" : "",
             ready->landlock ? ", " : "", ready->seccomp ? "seccomp, " : "",
             ready->no_new_privs ? "no_new_privs, " : "");
    if (ready->landlock) {
        char abi[32];
        snprintf(abi, sizeof abi, "landlock (ABI %d)", ready->landlock_abi);
        memmove(line + strlen(abi), line + 8, strlen(line + 8) + 1);
        memcpy(line, abi, strlen(abi));
    }
    n = strlen(line);
    snprintf(line + n, sizeof line - n, "%s", ready->pdeathsig ? "pdeathsig, " : "");
    n = strlen(line);
    if (J.wrapper) { /* under a tool: said apart, the grade's line is the normal subject's */
        snprintf(J.tool_protections, sizeof J.tool_protections, "%s%s", line,
                 "files opened for writing allowed (the tool's own)");
        return;
    }
    if (J.subject_kit)
        return;
    snprintf(line + n, sizeof line - n, "%s (the judge owns the memory), a mailbox for every word",
             J.vmm_fd >= 0 ? "a pool shared through the CUDA driver's VMM API"
                           : "a pool shared through CUDA IPC");
    n = strlen(line);
    J.isolated = ready->landlock && ready->seccomp && ready->no_new_privs;
    if (ready->cupti)
        snprintf(line + n, sizeof line - n, ", CUPTI (every route to the GPU)%s",
                 ready->modules ? ", kernels known by their code" : "");
    else
        snprintf(line + n, sizeof line - n, "; no CUPTI (%s): only the CUDA calls of the "
                 "student's file are recorded",
                 J.cupti[0] ? "it did not start" : "not found");
    n = strlen(line);
    if (ready->cupti && !ready->modules)
        snprintf(line + n, sizeof line - n, "; kernels NOT known by their code (%s)",
                 J.cubin[0] ? "no module check" : "no cubin of the file for this GPU");
    n = strlen(line);
    if (!J.isolated)
        snprintf(line + n, sizeof line - n, "; NOT ISOLATED: %s", ready->why);
    snprintf(J.protections, sizeof J.protections, "%s", line);
    {
        gl_record_source src = {ready->cupti, ready->modules, J.ptx, GL_LAB.file};
        gl_record_set_source(&src);
    }
}

/* Loads the student's file in the spawned subject. 0: ready; 1: the subject could not start
 * because the GPU is full for now (other labs graded at once): the caller waits and tries
 * again. Fails the test otherwise (the kit's error where the student's file had not run). */
static int subject_load(const char *launcher)
{
    gl_ready ready;
    double started = now();
    int r = gl_link_load(now() + 60.0, &ready); /* context and loading, whatever the timeout */
    if (r != 0)
        subject_died(r, "while your file was being loaded (a constructor or a static "
                        "initialiser of your file runs then)",
                     launcher);
    if (!ready.ok) {
        gl_link_kill();
        if (ready.kit_error && (strstr(ready.why, "out of memory") ||
                                strstr(ready.why, "busy or unavailable")))
            return 1; /* the GPU full or busy for now: started again */
        if (ready.kit_error)
            gl_kit_error("%s", ready.why);
        gl_fail("%s", ready.why);
    }
    describe_protections(&ready);
    J.records_gpu = ready.cupti;
    J.start_seconds += now() - started;
    J.starts++;
    return 0;
}

void subject_start(const char *launcher)
{
    int tries;
    double begun = now();
    for (tries = 0;; tries++) {
        if (!gl_link_running()) {
            double t0 = now();
            const char *why = subject_spawn();
            if (why)
                gl_kit_error("%s", why);
            J.start_seconds += now() - t0;
        }
        if (gl_link_loaded() || subject_load(launcher) == 0) {
            /* a test's timeout is its calls' time: the subject's start (its context, made
             * while many labs share the GPU, and the loading, bounded on its own) is not */
            J.deadline += now() - begun;
            return;
        }
        if (tries == 20)
            gl_kit_error("the subject could not create its CUDA context: the GPU stayed out of "
                         "memory for a minute (too many labs graded at once on it?)");
        gl_gpu_wait(3.0); /* without the GPU's lock: the other labs may finish and free it */
    }
}

void gl_judge_prestart_subject(int kit)
{
    int saved = J.kit;
    if (gl_link_running() || J.in_process || !J.subject_exe[0])
        return; /* one is there (loaded or not): it is ended under the lock, where it is used */
    J.kit = kit;
    (void)subject_spawn(); /* if it cannot start, the test that needs it says why */
    J.kit = saved;
}

void gl_judge_test_begin(int timeout_s, const char *id)
{
    snprintf(J.test, sizeof J.test, "%s", id ? id : "");
    J.test_baselines = 0;
    J.timeout_s = timeout_s;
    J.deadline = now() + timeout_s;
    J.batch = J.preparing = 0;
    J.delay.set = 0;
    J.batch_launcher = NULL;
    J.npending = 0;
    nused = 0; /* every test starts with the whole pool */
    host_pool_reset();
}

void gl_judge_test_end(int broke)
{
    J.batch = J.preparing = 0;
    if (broke || J.subject_kit)
        gl_link_kill(); /* a fresh subject for the next test (a student's) */
    J.kit = 0;
    cudaGetLastError();
    cudaDeviceSynchronize();
}

void gl_judge_start_subject(const char *what)
{
    if (!gl_link_loaded())
        subject_start(what);
}

void gl_judge_stop_subject(void)
{
    gl_link_kill();
}

void gl_judge_wrap_subject(const char *const *argv_prefix)
{
    gl_link_kill();
    J.wrapper = argv_prefix;
}

int gl_judge_quit_and_wait(double timeout_s)
{
    return gl_link_quit_and_wait(timeout_s);
}
