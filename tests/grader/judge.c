/* judge.c: the grader's side of every call into a student's code.
 *
 * The judge (the runner process) never loads the student's library. It owns
 * the GPU memory of every test: one pool, allocated up front, shared with
 * the subject process through CUDA IPC; gl_buf_alloc hands out pieces of it.
 * A launcher of the student's runs in the subject (subject.c), started with
 * posix_spawn in a process group of its own and ended (the whole group) when
 * a test breaks it or the lab is done. A given launcher (the lab's
 * baselines) runs here, from the kit's own build.
 *
 * Every answer of the subject is checked here: the CUDA status, and the
 * record of what the launcher did against what the lab allows (kernels of the
 * student's file on the default stream; no copies, library calls, host
 * callbacks, streams or graphs). Times are the judge's wall clock over a
 * batch of calls that ends with the subject synchronising its whole device. */
#define _GNU_SOURCE
#include "grader.h"
#include "judge.h"
#include "protocol.h"
#include "vmm_pool.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_exec.h"
#include "gl_timing.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static struct {
    char submission[4096], baseline[4096], subject_exe[4096];
    void *baseline_lib;
    unsigned char *pool;
    size_t pool_bytes;
    cudaIpcMemHandle_t handle;
    int vmm_fd;              /* the pool as the driver exported it, or -1 (CUDA IPC) */
    int in_process;          /* no IPC here: the student's code runs in this process */
    void *in_process_lib;
    char protections[1024];
    char tool_protections[512]; /* under Nsight Compute or compute-sanitizer */
    int isolated;
    double deadline;         /* the current test's end, on the monotonic clock */
    int timeout_s;
    int batch;               /* inside a timed batch: calls are not synchronised one by one */
    struct {
        int set;
        size_t dst, src, bytes;
        double ms;
    } delay;
    double last_launcher_ms;
    int calls_to_subject;
    int delay_sent;          /* the current call ran behind the kit's delayed copy */
    const gl_launcher *batch_launcher; /* the launcher of the current timed round */
    int pending;             /* calls of the round sent, not yet answered */
    int kit;                 /* the subject is a kit subject: the baselines, timed as a student's
                                launchers are (the same process boundary, the same clock) */
    int plan;                /* the performance tests' first pass: baselines only (runner.c) */
    char test[64];           /* the current test's id, and the baselines it timed so far */
    int test_baselines;
    const char *const *wrapper; /* a program that runs the subject (Nsight Compute), or NULL */
    char cupti[1024];           /* libcupti for the subject, or "" */
    int cupti_on;               /* the current subject records the GPU's work with it */
    char *ptx;                  /* the student's PTX: its kernels' names */
    unsigned long kernels;      /* kernel launches recorded since the subject started */
} J;

static struct {
    pid_t pid;
    int to, from;
    int kit; /* a kit subject: it stays between the baselines of a lab, until a student's call */
    int loaded; /* its file is loaded (subject_load): until then it runs only the kit's code */
} S = {0, -1, -1, 0, 0};

/* ---- the pool: first fit over a list of pieces ---- */

#define POOL_ALIGN 256
#define MAX_PIECES 4096

static struct {
    size_t off, bytes;
} used[MAX_PIECES];
static int nused;

static void *pool_alloc(size_t bytes)
{
    size_t at = 0;
    int i, k;
    bytes = (bytes + POOL_ALIGN - 1) / POOL_ALIGN * POOL_ALIGN;
    if (bytes == 0)
        bytes = POOL_ALIGN;
    for (i = 0; i <= nused; i++) {
        size_t end = i < nused ? used[i].off : J.pool_bytes;
        if (end >= at && end - at >= bytes)
            break;
        if (i < nused)
            at = used[i].off + used[i].bytes;
    }
    if (i > nused || nused == MAX_PIECES)
        gl_fail("the grader's memory pool (%zu MiB) is full: a test asked for %zu MiB more (a "
                "bug of the kit: make the lab's pool larger)",
                J.pool_bytes >> 20, bytes >> 20);
    for (k = nused; k > i; k--)
        used[k] = used[k - 1];
    used[i].off = at;
    used[i].bytes = bytes;
    nused++;
    return J.pool + at;
}

static void pool_free(void *p)
{
    size_t off = (size_t)((unsigned char *)p - J.pool);
    int i;
    for (i = 0; i < nused; i++)
        if (used[i].off == off) {
            memmove(&used[i], &used[i + 1], (size_t)(nused - i - 1) * sizeof used[0]);
            nused--;
            return;
        }
}

static int in_pool(const void *p, size_t *off)
{
    const unsigned char *c = p;
    if (!J.pool || c < J.pool || c >= J.pool + J.pool_bytes)
        return 0;
    *off = (size_t)(c - J.pool);
    return 1;
}

/* ---- the subject's life ---- */

static double now(void)
{
    return gl_host_seconds();
}

static void subject_kill(void)
{
    int status;
    if (S.pid > 0) {
        kill(-S.pid, SIGKILL); /* its whole process group */
        kill(S.pid, SIGKILL);
        waitpid(S.pid, &status, 0);
    }
    if (S.to >= 0)
        close(S.to);
    if (S.from >= 0)
        close(S.from);
    S.pid = 0;
    S.to = S.from = -1;
    S.loaded = 0;
    J.pending = 0;
    J.kernels = 0; /* the next subject counts its launches from 0, as Nsight Compute does */
}

/* Why the subject is gone (r: -1 it closed its end, -2 the test's time ran
 * out), in the student's terms; ends it for good. */
static void subject_died(int r, const char *during, const char *launcher)
{
    int status = 0, code, sig, i;
    pid_t got = 0;
    char why[1024];
    if (r == -2 || S.pid <= 0) {
        subject_kill();
        gl_fail("%s did not finish within %d s and was stopped: a kernel that never ends (a "
                "loop whose exit test never holds, a __syncthreads() that some threads of a "
                "block never reach, a wait on another block), or host code that never returns",
                launcher, J.timeout_s);
    }
    for (i = 0; i < 200 && (got = waitpid(S.pid, &status, WNOHANG)) == 0; i++)
        usleep(10000); /* it closed its pipe: give it 2 s to end */
    if (got == S.pid)
        S.pid = 0; /* reaped */
    subject_kill();
    if (got <= 0) {
        snprintf(why, sizeof why, "closed the grader's pipe %s and was stopped", during);
    } else if (WIFSIGNALED(status)) {
        sig = WTERMSIG(status);
        snprintf(why, sizeof why, "crashed (signal %d, %s) %s. %s", sig, strsignal(sig), during,
                 sig == SIGABRT ? "abort() or a failed assert() in host code raises it"
                 : sig == SIGSEGV || sig == SIGBUS
                     ? "Host code read or wrote memory it does not own: often a device pointer "
                       "used on the host (the launchers get device pointers: only kernels may "
                       "read them)"
                 : sig == SIGFPE ? "An integer division by zero in host code?"
                 : sig == SIGSYS ? "It made a system call the grader does not allow"
                                 : "Something in your code raised it");
    } else if (WIFEXITED(status)) {
        code = WEXITSTATUS(status);
        snprintf(why, sizeof why,
                 "exited with status %d %s: something called exit(%d), _exit or quick_exit. "
                 "Launchers must return to their caller (CUDA errors are the caller's to check)",
                 code, during, code);
    } else {
        snprintf(why, sizeof why, "stopped answering %s", during);
    }
    gl_fail("%s %s", launcher, why);
}

static int write_all(int fd, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n) {
        ssize_t put = write(fd, p, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        p += put;
        n -= (size_t)put;
    }
    return 0;
}

static int read_until(int fd, void *buf, size_t n, double deadline);

/* An answer: its header, then the events it says it has. */
static int read_reply(gl_reply *rp, double deadline)
{
    int r = read_until(S.from, rp, offsetof(gl_reply, events), deadline);
    if (r != 0)
        return r;
    if (rp->magic != GL_PROTO_MAGIC || rp->nevents > GL_PROTO_EVENTS)
        return -1;
    return read_until(S.from, rp->events, rp->nevents * sizeof(gl_event), deadline);
}

/* Reads n bytes before the test's deadline; -1 on end of file, -2 on timeout. */
static int read_until(int fd, void *buf, size_t n, double deadline)
{
    unsigned char *p = buf;
    while (n) {
        struct pollfd pf = {fd, POLLIN, 0};
        double left = deadline - now();
        int r;
        if (left <= 0)
            return -2;
        r = poll(&pf, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return -2;
        {
            ssize_t got = read(fd, p, n);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                return -1;
            p += got;
            n -= (size_t)got;
        }
    }
    return 0;
}

/* The subject's environment: what CUDA needs, nothing of the grader's. */
static char **subject_env(void)
{
    static char *env[64];
    static const char *keep[] = {"PATH=", "LD_LIBRARY_PATH=", "CUDA_", "NVIDIA_", "HOME=",
                                 "LANG=", "TMPDIR=", NULL};
    int n = 0, i;
    char **e;
    for (e = environ; *e && n < 62; e++)
        for (i = 0; keep[i]; i++)
            if (!strncmp(*e, keep[i], strlen(keep[i]))) {
                env[n++] = *e;
                break;
            }
    env[n] = NULL;
    return env;
}

/* where the grading time goes (GL_TRACE=1) */
static struct {
    double start, prepare, calls, flush, verify;
    int starts, rounds;
} T;

/* A subject that runs the student's launchers (or the kit's) now. */
static int subject_serving(void)
{
    return S.pid > 0 && S.loaded;
}

/* A subject starts in two steps. subject_spawn: its process, its CUDA context, the pool
 * mapped, its containment: the kit's code only, so it may run while the other labs' tests
 * run (gl_judge_prestart_subject). subject_load: the judge says go, the subject loads the
 * student's file (its constructors run then) and says it is ready: under the GPU's lock,
 * as every call of the student's code is. */
static const char *subject_spawn(void)
{
    static char why[512];
    int to[2], from[2], r;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    char *argv[64];
    int argc = 0;
    gl_hello hello;

    if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) {
        snprintf(why, sizeof why, "grader: no pipe for the subject: %s", strerror(errno));
        return why;
    }
    if (J.wrapper)
        while (J.wrapper[argc] && argc < 60)
            argv[argc] = (char *)J.wrapper[argc], argc++;
    argv[argc++] = J.subject_exe;
    argv[argc] = NULL;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to[0], 3);
    posix_spawn_file_actions_adddup2(&fa, from[1], 4);
    if (J.vmm_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, J.vmm_fd, 5);
    /* what the student's code prints is not the grader's output */
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    fflush(NULL);
    r = posix_spawn(&S.pid, argv[0], &fa, &at, argv, subject_env());
    J.kernels = 0;
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(to[0]);
    close(from[1]);
    if (r != 0) {
        close(to[1]);
        close(from[0]);
        S.pid = 0;
        snprintf(why, sizeof why, "grader: could not start %s: %s (rebuild the kit with make)",
                 argv[0], strerror(r));
        return why;
    }
    S.to = to[1];
    S.from = from[0];

    memset(&hello, 0, sizeof hello);
    hello.magic = GL_PROTO_MAGIC;
    memcpy(hello.ipc_handle, &J.handle, sizeof J.handle);
    hello.vmm = J.vmm_fd >= 0;
    hello.pool_bytes = J.pool_bytes;
    snprintf(hello.submission, sizeof hello.submission, "%s", J.kit ? J.baseline : J.submission);
    hello.kit = J.kit;
    S.kit = J.kit;
    snprintf(hello.cupti, sizeof hello.cupti, "%s", J.cupti);
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
    S.loaded = 0;
    /* a subject that failed at once: subject_load reads why (or sees it gone) */
    (void)write_all(S.to, &hello, sizeof hello);
    return NULL;
}

static void subject_load(const char *launcher)
{
    gl_ready ready;
    gl_request go;
    double deadline, started = now();
    int r;

    memset(&go, 0, sizeof go);
    go.magic = GL_PROTO_MAGIC;
    go.op = GL_OP_LOAD;
    deadline = now() + 60.0; /* context creation and loading, whatever the test's timeout */
    (void)write_all(S.to, &go, sizeof go); /* if it is gone, its pipe says why */
    if ((r = read_until(S.from, &ready, sizeof ready, deadline)) != 0)
        subject_died(r == -2 ? -2 : -1, "while your file was being loaded (a constructor or a "
                     "static initialiser of your file runs then)",
                     launcher);
    if (!ready.ok) {
        subject_kill();
        if (ready.kit_error)
            gl_kit_error("%s", ready.why);
        gl_fail("%s", ready.why);
    }
    {
        char line[512];
        size_t n;
        snprintf(line, sizeof line, "%s%s%s%s%s",
                 ready.landlock ? "landlock" : "", ready.landlock ? ", " : "",
                 ready.seccomp ? "seccomp, " : "", ready.no_new_privs ? "no_new_privs, " : "",
                 ready.pdeathsig ? "pdeathsig, " : "");
        if (ready.landlock) {
            char abi[32];
            snprintf(abi, sizeof abi, "landlock (ABI %d)", ready.landlock_abi);
            memmove(line + strlen(abi), line + 8, strlen(line + 8) + 1);
            memcpy(line, abi, strlen(abi));
        }
        n = strlen(line);
        if (J.wrapper) { /* under a tool: said apart, the grade's line is the normal subject's */
            snprintf(J.tool_protections, sizeof J.tool_protections, "%s%s", line,
                     "files opened for writing allowed (the tool's own)");
            J.cupti_on = 0;
        } else if (!J.kit) {
            snprintf(line + n, sizeof line - n, "%s (the judge owns the memory)",
                     J.vmm_fd >= 0 ? "a pool shared through the CUDA driver's VMM API"
                                   : "a pool shared through CUDA IPC");
            n = strlen(line);
            J.isolated = ready.landlock && ready.seccomp && ready.no_new_privs;
            J.cupti_on = ready.cupti;
            if (ready.cupti)
                snprintf(line + n, sizeof line - n, ", CUPTI (what ran on the GPU)");
            else
                snprintf(line + n, sizeof line - n, "; no CUPTI (%s): only the CUDA calls of "
                         "the student's file are recorded",
                         J.cupti[0] ? "it did not start" : "not found");
            n = strlen(line);
            if (!J.isolated)
                snprintf(line + n, sizeof line - n, "; NOT ISOLATED: %s", ready.why);
            snprintf(J.protections, sizeof J.protections, "%s", line);
        }
    }
    S.loaded = 1;
    T.start += now() - started;
    T.starts++;
}

static void subject_start(const char *launcher)
{
    if (!S.pid) {
        double t0 = now();
        const char *why = subject_spawn();
        if (why)
            gl_fail("%s", why);
        T.start += now() - t0;
    }
    if (!S.loaded)
        subject_load(launcher);
}

void gl_judge_prestart_subject(int kit)
{
    int saved = J.kit;
    if (S.pid || J.in_process || !J.subject_exe[0])
        return; /* one is there (loaded or not): it is ended under the lock, where it is used */
    J.kit = kit;
    (void)subject_spawn(); /* if it cannot start, the test that needs it says why */
    J.kit = saved;
}

/* ---- what a launcher may do ---- */

typedef struct {
    char launcher[64];
    char kernel[224];
    unsigned long long threads;
    unsigned long long dynamic_smem; /* the largest of a launch */
} seen_kernel;

#define MAX_SEEN 256
static seen_kernel seen[MAX_SEEN];
static int nseen;

static void remember(const char *launcher, const char *kernel, unsigned long long threads,
                     unsigned long long dynamic_smem)
{
    int i;
    for (i = 0; i < nseen; i++)
        if (!strcmp(seen[i].launcher, launcher) && !strcmp(seen[i].kernel, kernel)) {
            seen[i].threads += threads;
            if (dynamic_smem > seen[i].dynamic_smem)
                seen[i].dynamic_smem = dynamic_smem;
            return;
        }
    if (nseen == MAX_SEEN)
        return;
    snprintf(seen[nseen].launcher, sizeof seen[nseen].launcher, "%s", launcher);
    snprintf(seen[nseen].kernel, sizeof seen[nseen].kernel, "%s", kernel);
    seen[nseen].threads = threads;
    seen[nseen].dynamic_smem = dynamic_smem;
    nseen++;
}

static const char *event_what(const gl_event *e)
{
    switch (e->type) {
    case GL_EV_COPY:
        return "copied memory";
    case GL_EV_MEMSET:
        return "set memory";
    case GL_EV_SYMBOL_COPY:
        return "copied to a __constant__ symbol";
    case GL_EV_HOST_FN:
        return "enqueued a host function";
    case GL_EV_STREAM:
        return "created a stream";
    case GL_EV_GRAPH:
        return "launched a CUDA graph";
    case GL_EV_GPU_COPY:
        return "made the GPU copy memory";
    case GL_EV_GPU_MEMSET:
        return "made the GPU set memory";
    default:
        return "called";
    }
}

/* Is name (a device function's mangled name) an entry of the student's PTX? */
static int student_kernel(const char *name)
{
    char pattern[300];
    const char *p;
    size_t n = strlen(name);
    if (!J.ptx) {
        char path[4200];
        snprintf(path, sizeof path, "%.*s.ptx", (int)(strlen(J.submission) - 3), J.submission);
        J.ptx = gl_read_file(path);
        if (!J.ptx)
            return 1; /* no PTX to tell: the interposed record decides alone */
    }
    snprintf(pattern, sizeof pattern, ".entry %s", name);
    for (p = J.ptx; (p = strstr(p, pattern)) != NULL; p += 7)
        if (p[7 + n] == '(' || p[7 + n] == ' ' || p[7 + n] == '\n' || p[7 + n] == '\r')
            return 1;
    return 0;
}

/* Checks a call's record against the lab; fails the test on the first thing
 * that does not belong. */
static void check_record(const gl_launcher *l, const gl_reply *r)
{
    uint32_t i;
    if (r->outside)
        gl_fail("your file started GPU work outside any call of the grader (%u CUDA calls "
                "between two calls: a thread of its own, or work left behind by a constructor): "
                "a launcher does its work when it is called, on the default stream",
                r->outside);
    for (i = 0; i < r->nevents && i < GL_PROTO_EVENTS; i++) {
        const gl_event *e = &r->events[i];
        if (e->type == GL_EV_KERNEL) {
            if (!e->in_submission)
                gl_fail("%s launched %s, which is not a kernel of %s (a library's kernel?): "
                        "the lab's work must be done by your own kernels",
                        l->name, e->name, GL_LAB.file);
            if (l->flags & GL_HOST_CODE)
                gl_fail("%s is host code: it must compute its answer on the CPU and launch "
                        "nothing, but it launched %s",
                        l->name, e->name);
            if (e->other_stream)
                gl_fail("%s launched %s on a stream other than the default one: launchers "
                        "launch on the default stream (the caller's order of work depends on "
                        "it)",
                        l->name, e->name);
            if (!J.cupti_on) /* else CUPTI's record says what ran */
                remember(l->name, e->name, e->threads, e->bytes);
            J.kernels += e->count;
            continue;
        }
        if (e->type == GL_EV_GPU_KERNEL) { /* CUPTI: whoever launched it */
            if (J.delay_sent && strstr(e->name, "gl_delayed_copy_kernel"))
                continue; /* the kit's own delay, before the call */
            if (!student_kernel(e->name))
                gl_fail("while %s ran, the GPU ran %s, which is not a kernel of %s (a "
                        "library's kernel?): the lab's work must be done by your own kernels",
                        l->name, e->name, GL_LAB.file);
            if (l->flags & GL_HOST_CODE)
                gl_fail("%s is host code: it must compute its answer on the CPU and launch "
                        "nothing, but %s ran on the GPU",
                        l->name, e->name);
            remember(l->name, e->name, e->threads, e->bytes);
            continue;
        }
        if (e->type == GL_EV_GPU_COPY && (l->flags & GL_MAY_COPY_SYMBOL))
            continue; /* the copy to the __constant__ symbol */
        if (e->type == GL_EV_GPU_MEMSET && (l->flags & GL_MAY_MEMSET))
            continue;
        if (e->type == GL_EV_SYNC || e->type == GL_EV_EVENT || e->type == GL_EV_ALLOC)
            continue; /* allowed; the launch-returns-at-once tests judge synchronising */
        if (e->type == GL_EV_MEMSET && (l->flags & GL_MAY_MEMSET) && !e->other_stream)
            continue;
        if (e->type == GL_EV_SYMBOL_COPY && (l->flags & GL_MAY_COPY_SYMBOL) && !e->other_stream)
            continue;
        gl_fail("%s %s (%s, %llu time%s): %s", l->name, event_what(e), e->name,
                (unsigned long long)e->count, e->count == 1 ? "" : "s",
                e->type == GL_EV_COPY || e->type == GL_EV_MEMSET || e->type == GL_EV_GPU_COPY ||
                        e->type == GL_EV_GPU_MEMSET
                    ? "the lab asks for a kernel of your file to do the work, not a copy"
                : e->type == GL_EV_HOST_FN || e->type == GL_EV_GRAPH
                    ? "a launcher only launches its kernels on the default stream"
                : e->type == GL_EV_STREAM ? "launch on the default stream: no stream of your own"
                                          : "this launcher may not do that");
    }
}

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

#define MAX_PENDING 32 /* a round's calls, sent at once (their answers fit the pipe) */
static long long answered(const gl_launcher *l, gl_reply *rp);

static long long call_remote(const gl_launcher *l, const gl_arg *args)
{
    static unsigned char blob[GL_PROTO_BLOB];
    gl_request rq;
    gl_reply rp;
    size_t nb = 0, off;
    int i, r, n = (int)strlen(l->layout);

    memset(&rq, 0, sizeof rq);
    rq.magic = GL_PROTO_MAGIC;
    rq.op = GL_OP_CALL;
    rq.flags = J.batch ? 0 : GL_CALL_SYNC;
    snprintf(rq.launcher, sizeof rq.launcher, "%s", l->name);
    rq.nargs = (uint32_t)n;
    for (i = 0; i < n && i < GL_PROTO_ARGS; i++) {
        gl_wire_arg *w = &rq.args[i];
        w->kind = (uint32_t)l->layout[i];
        if (l->layout[i] == 'p') {
            if (!args[i].p)
                w->off = ~(uint64_t)0;
            else if (in_pool(args[i].p, &off))
                w->off = off;
            else
                gl_fail("grader bug: argument %d of %s is not in the judge's memory pool", i,
                        l->name);
        } else if (l->layout[i] == 'h') {
            if (nb + args[i].n > sizeof blob)
                gl_fail("grader bug: the host arrays of %s exceed %zu bytes", l->name,
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
    J.delay_sent = J.delay.set;
    J.batch_launcher = l;
    if (J.delay.set) {
        rq.flags |= GL_CALL_DELAY;
        rq.delay_dst = J.delay.dst;
        rq.delay_src = J.delay.src;
        rq.delay_bytes = J.delay.bytes;
        rq.delay_ms = J.delay.ms;
        J.delay.set = 0;
    }
    rq.blob_bytes = (uint32_t)nb;
    if (!J.kit && J.plan)
        gl_skip("planned"); /* the plan times the kit's baselines only */
    if (S.pid && S.kit != J.kit)
        subject_kill(); /* a student's call after the kit's baselines, or the reverse */
    if (!S.pid || !S.loaded)
        subject_start(l->name);
    /* the judge's own writes (inputs, poison, guards) land before the student's kernels (a
     * timed round synchronised once, before its first call) */
    if (!J.batch)
        GL_CUDA(cudaDeviceSynchronize());
    J.calls_to_subject++;
    if (J.batch && J.pending >= MAX_PENDING)
        gl_fail("grader bug: more than %d calls in one timed round", MAX_PENDING);
    if (write_all(S.to, &rq, sizeof rq) || write_all(S.to, blob, nb))
        subject_died(-1, "before the call", l->name);
    if (J.batch) { /* its answer is read at the end of the round: one round trip per round */
        J.pending++;
        return 0;
    }
    r = read_reply(&rp, J.deadline);
    if (r != 0)
        subject_died(r == -2 ? -2 : -1, "during the call", l->name);
    return answered(l, &rp);
}

/* A call's answer: the launcher exists, what it did belongs to the lab, no CUDA error. */
static long long answered(const gl_launcher *l, gl_reply *rpp)
{
    gl_reply rp = *rpp;
    if (rp.missing)
        gl_fail("%s does not define %s(): keep every function declared in the lab's header, "
                "with the same name and arguments",
                GL_LAB.file, l->name);
    J.last_launcher_ms = rp.launcher_ms;
    if (!J.kit)
        check_record(l, &rp);
    if (rp.status != 0) {
        if (rp.sticky)
            subject_kill();
        describe_status(l->name, rp.status);
    }
    return rp.ret;
}

/* Ends a timed round: the round's answers, then the subject's device idle. */
static void remote_sync(const char *what)
{
    gl_request rq;
    gl_reply rp;
    int r = 0;
    memset(&rq, 0, sizeof rq);
    rq.magic = GL_PROTO_MAGIC;
    rq.op = GL_OP_SYNC;
    while (J.pending > 0) { /* the round's calls answered in order, before the sync's answer */
        J.pending--;
        if ((r = read_reply(&rp, J.deadline)) != 0)
            subject_died(r == -2 ? -2 : -1, "during the timed calls", what);
        if (J.batch_launcher && !J.kit)
            answered(J.batch_launcher, &rp);
    }
    if (write_all(S.to, &rq, sizeof rq) ||
        (r = read_reply(&rp, J.deadline)) != 0)
        subject_died(r == -2 ? -2 : -1, "while its kernels ran", what);
    if (rp.outside)
        gl_fail("%s: your file started GPU work outside the launcher's call (a thread of its "
                "own?)",
                what);
    if (rp.status != 0) {
        if (rp.sticky)
            subject_kill();
        describe_status(what, rp.status);
    }
}

/* After the clock: what the GPU ran during the round (CUPTI), checked against the lab. */
static void remote_flush(const char *what)
{
    gl_request rq;
    gl_reply rp;
    int r = 0;
    if (!subject_serving())
        return;
    memset(&rq, 0, sizeof rq);
    rq.magic = GL_PROTO_MAGIC;
    rq.op = GL_OP_FLUSH;
    if (write_all(S.to, &rq, sizeof rq) || (r = read_reply(&rp, J.deadline)) != 0)
        subject_died(r == -2 ? -2 : -1, "after the timed calls", what);
    if (J.batch_launcher && !J.kit)
        check_record(J.batch_launcher, &rp);
}

static void *baseline_fn(const char *name)
{
    void *fn;
    if (!J.baseline_lib && !(J.baseline_lib = dlopen(J.baseline, RTLD_NOW | RTLD_LOCAL)))
        gl_fail("the grader's baselines %s could not be loaded: %s (rebuild the kit with make)",
                J.baseline, dlerror());
    if (!(fn = dlsym(J.baseline_lib, name)))
        gl_fail("the lab's own %s() is missing from %s (rebuild the kit with make)", name,
                J.baseline);
    return fn;
}

static long long judge_backend(const gl_launcher *l, const gl_arg *args)
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

/* ---- the judge's life ---- */

/* CUPTI beside the CUDA runtime this program uses, or under CUDA_HOME. */
static void find_cupti(void)
{
    const char *home = getenv("CUDA_HOME");
    char cand[1100], dir[1024] = "";
    Dl_info info;
    int i;
    if (dladdr((void *)cudaMalloc, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash)
            snprintf(dir, sizeof dir, "%.*s", (int)(slash - info.dli_fname), info.dli_fname);
    }
    for (i = 0; i < 4; i++) {
        if (i == 0 && dir[0])
            snprintf(cand, sizeof cand, "%s/libcupti.so", dir);
        else if (i == 1 && home)
            snprintf(cand, sizeof cand, "%s/lib64/libcupti.so", home);
        else if (i == 2 && home)
            snprintf(cand, sizeof cand, "%s/extras/CUPTI/lib64/libcupti.so", home);
        else if (i == 3 && home)
            snprintf(cand, sizeof cand, "%s/targets/x86_64-linux/lib/libcupti.so", home);
        else
            continue;
        if (access(cand, R_OK) == 0) {
            snprintf(J.cupti, sizeof J.cupti, "%s", cand);
            return;
        }
    }
}

int gl_judge_init(const char *submission, const char *baseline, const char *subject_exe,
                  size_t pool_bytes, int allow_unisolated, char *why, size_t len)
{
    cudaError_t err;
    size_t free_b = 0, total_b = 0;
    snprintf(J.submission, sizeof J.submission, "%s", submission);
    snprintf(J.baseline, sizeof J.baseline, "%s", baseline);
    snprintf(J.subject_exe, sizeof J.subject_exe, "%s", subject_exe);
    if ((err = cudaFree(0)) != cudaSuccess || (err = cudaMemGetInfo(&free_b, &total_b))) {
        int count = 0;
        snprintf(why, len, "%s", cudaGetErrorString(err));
        cudaGetLastError();
        /* no GPU here (-1), or one that is busy or full now (-3) */
        return (err == cudaErrorMemoryAllocation || err == cudaErrorDevicesUnavailable) &&
                       cudaGetDeviceCount(&count) == cudaSuccess && count > 0
                   ? -3
                   : -1;
    }
    /* the lab's largest test, but never more than half of what is free */
    if (pool_bytes > free_b / 2)
        pool_bytes = free_b / 2 / (1 << 20) * (1 << 20);
    J.pool_bytes = pool_bytes;
    J.vmm_fd = -1;
    {   /* shared through the driver's virtual memory API: the subject maps it as fast as its
         * own memory; else through CUDA IPC (slower in the subject: tests/unit/ipc_probe) */
        char vwhy[256];
        void *p = NULL;
        int fd = -1;
        if (gl_vmm_create(&J.pool_bytes, &p, &fd, vwhy, sizeof vwhy) == 0) {
            J.pool = p;
            J.vmm_fd = fd;
        }
    }
    if (J.vmm_fd < 0 && (err = cudaMalloc((void **)&J.pool, pool_bytes)) != cudaSuccess) {
        snprintf(why, len, "the grader could not allocate its %zu MiB memory pool: %s",
                 pool_bytes >> 20, cudaGetErrorString(err));
        cudaGetLastError();
        return -3;
    }
    gl_buf_set_allocator(pool_alloc, pool_free);
    gl_exec_set_backend(judge_backend);
    find_cupti();
    err = J.vmm_fd >= 0 ? cudaSuccess : cudaIpcGetMemHandle(&J.handle, J.pool);
    if (err != cudaSuccess) {
        cudaGetLastError();
        if (!allow_unisolated) {
            snprintf(why, len,
                     "CUDA IPC is not available here (%s), so the student's code cannot run "
                     "in a process of its own. ALLOW_UNISOLATED=1 grades in one process, "
                     "marked NOT ISOLATED",
                     cudaGetErrorString(err));
            return -2;
        }
        J.in_process = 1;
        J.in_process_lib = dlopen(submission, RTLD_NOW | RTLD_LOCAL);
        if (!J.in_process_lib) {
            snprintf(why, len, "%s could not be loaded: %s", submission, dlerror());
            return -1;
        }
        snprintf(J.protections, sizeof J.protections,
                 "NOT ISOLATED: one process (CUDA IPC is not available here: %s)",
                 cudaGetErrorString(err));
        J.isolated = 0;
    }
    return 0;
}

const char *gl_judge_protections(void)
{
    return J.protections[0] ? J.protections : "not known yet (no subject started)";
}

int gl_judge_protections_known(void)
{
    return J.protections[0] != '\0';
}

const char *gl_judge_tool_protections(void)
{
    return J.tool_protections;
}

int gl_judge_isolated(void)
{
    return J.isolated;
}

void gl_judge_test_begin(int timeout_s, const char *id)
{
    snprintf(J.test, sizeof J.test, "%s", id ? id : "");
    J.test_baselines = 0;
    J.timeout_s = timeout_s;
    J.deadline = now() + timeout_s;
    J.batch = 0;
    J.delay.set = 0;
    J.batch_launcher = NULL;
    J.pending = 0;
    nused = 0; /* every test starts with the whole pool */
}

void gl_judge_test_end(int broke)
{
    J.batch = 0;
    if (broke || J.kit)
        subject_kill(); /* a fresh subject for the next test (a student's) */
    J.kit = 0;
    cudaGetLastError();
    cudaDeviceSynchronize();
}

/* ---- where the grading time goes (GL_TRACE=1: printed when the lab ends) ---- */

static void trace_print(void)
{
    if (getenv("GL_TRACE"))
        fprintf(stderr, "  trace: %d subject starts %.2f s; %d timed rounds: prepare %.2f s, "
                "calls %.2f s, record %.2f s, verify %.2f s\n",
                T.starts, T.start, T.rounds, T.prepare, T.calls, T.flush, T.verify);
}

void gl_judge_finish(void)
{
    trace_print();
    if (subject_serving()) {
        gl_request rq;
        memset(&rq, 0, sizeof rq);
        rq.magic = GL_PROTO_MAGIC;
        rq.op = GL_OP_QUIT;
        write_all(S.to, &rq, sizeof rq);
    }
    subject_kill();
}

void gl_judge_release(void)
{
    /* the pool and the context end here, while the runner holds the GPU's lock, and not in
     * the process's exit, which another lab's timed test would feel */
    if (J.vmm_fd >= 0) {
        gl_vmm_destroy(J.pool, J.pool_bytes);
        close(J.vmm_fd);
        J.vmm_fd = -1;
    } else if (J.pool && !J.in_process) {
        cudaFree(J.pool);
    }
    J.pool = NULL;
    cudaDeviceReset();
}

void gl_judge_start_subject(const char *what)
{
    if (!S.pid || !S.loaded)
        subject_start(what);
}

void gl_judge_stop_subject(void)
{
    subject_kill();
}

void gl_judge_wrap_subject(const char *const *argv_prefix)
{
    subject_kill();
    J.wrapper = argv_prefix;
}

unsigned long gl_judge_kernel_count(void)
{
    return J.kernels;
}

int gl_judge_quit_and_wait(double timeout_s)
{
    gl_request rq;
    int status = 0, i;
    pid_t got = 0;
    if (S.pid <= 0)
        return -1;
    if (!S.loaded) { /* it never ran anything */
        subject_kill();
        return -1;
    }
    memset(&rq, 0, sizeof rq);
    rq.magic = GL_PROTO_MAGIC;
    rq.op = GL_OP_QUIT;
    write_all(S.to, &rq, sizeof rq);
    for (i = 0; i < (int)(timeout_s * 100) && (got = waitpid(S.pid, &status, WNOHANG)) == 0; i++)
        usleep(10000);
    if (got == S.pid)
        S.pid = 0;
    subject_kill();
    return got > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void gl_next_call_delayed(void *dst, const void *src, size_t bytes, double ms)
{
    if (!in_pool(dst, &J.delay.dst) || !in_pool(src, &J.delay.src))
        gl_fail("grader bug: the delayed copy's buffers are not in the pool");
    J.delay.bytes = bytes;
    J.delay.ms = ms;
    J.delay.set = 1;
}

double gl_last_launcher_ms(void)
{
    return J.last_launcher_ms;
}

int gl_pool_mib(void)
{
    return (int)(J.pool_bytes >> 20);
}

int gl_judge_in_process(void)
{
    return J.in_process;
}

/* ---- the clock ---- */

static double time_rounds(const gl_timed *t, void *ctx, int student)
{
    double ms[64], t0, t1, median;
    int r, i, rounds = t->rounds < 1 ? 1 : t->rounds > 63 ? 63 : t->rounds;
    if (student && J.plan)
        gl_skip("planned");
    if (!student && !J.in_process)
        J.kit = 1; /* the kit's baselines: no student's subject alive (call_remote ends it), and
                    * a subject of the kit's own runs them, so both sides of a ratio cross the
                    * same process boundary */
    for (r = 0; r <= rounds; r++) { /* round 0 warms up */
        double p0 = now(), t2, t3;
        if (t->prepare)
            t->prepare(ctx, r);
        GL_CUDA(cudaDeviceSynchronize());
        J.batch = 1;
        t0 = now();
        T.prepare += t0 - p0;
        for (i = 0; i < t->calls; i++)
            t->call(ctx, i);
        if (!J.in_process && subject_serving())
            remote_sync("the timed calls");
        else
            GL_CUDA(cudaDeviceSynchronize());
        t1 = now();
        J.batch = 0;
        if (!J.in_process)
            remote_flush("the timed calls");
        GL_CHECK_LAUNCH("the timed calls");
        t2 = now();
        if (t->verify)
            t->verify(ctx, r);
        t3 = now();
        T.calls += t1 - t0;
        T.flush += t2 - t1;
        T.verify += t3 - t2;
        T.rounds++;
        if (r > 0)
            ms[r - 1] = 1e3 * (t1 - t0) / t->calls;
    }
    median = gl_median(ms, rounds);
    J.kit = 0; /* the kit subject stays, for the next baseline */
    return median;
}

double gl_time_student(const gl_timed *t, void *ctx)
{
    return time_rounds(t, ctx, 1);
}

/* Baselines timed once: by the key a suite gives (shared by the lab's tests), or by the test
 * and the order of its baselines (the plan's time, used again by the test itself). */
static struct {
    char key[160];
    double ms;
} memo[64];
static int nmemo;

static double time_memo(const char *key, const gl_timed *t, void *ctx)
{
    double ms;
    int i;
    for (i = 0; i < nmemo; i++)
        if (!strcmp(memo[i].key, key))
            return memo[i].ms;
    ms = time_rounds(t, ctx, 0);
    if (nmemo < 64) {
        snprintf(memo[nmemo].key, sizeof memo[nmemo].key, "%s", key);
        memo[nmemo++].ms = ms;
    }
    return ms;
}

double gl_time_baseline(const gl_timed *t, void *ctx)
{
    char key[160];
    snprintf(key, sizeof key, "test %s, baseline %d", J.test, J.test_baselines++);
    return time_memo(key, t, ctx);
}

double gl_time_baseline_once(const char *key, const gl_timed *t, void *ctx)
{
    J.test_baselines++;
    return time_memo(key, t, ctx);
}

void gl_judge_plan(int on)
{
    J.plan = on;
}

/* ---- which kernels ran ---- */

long gl_launched_dynamic_smem(const char *kernel)
{
    unsigned long long most = 0;
    int i, found = 0;
    for (i = 0; i < nseen; i++)
        if (!strcmp(seen[i].kernel, kernel)) {
            found = 1;
            most = seen[i].dynamic_smem > most ? seen[i].dynamic_smem : most;
        }
    return found ? (long)most : -1;
}

void gl_forget_kernels(const char *launcher)
{
    int i, k = 0;
    for (i = 0; i < nseen; i++)
        if (strcmp(seen[i].launcher, launcher) != 0)
            seen[k++] = seen[i];
    nseen = k;
}

int gl_launched_kernels(const char *launcher, char (*names)[224], int max)
{
    unsigned long long total = 0;
    int i, n = 0;
    for (i = 0; i < nseen; i++)
        if (!strcmp(seen[i].launcher, launcher))
            total += seen[i].threads;
    /* the kernels that did the work: a tenth of the threads or more (a one-block decoy does not
     * count, a small second pass does not hide the main one) */
    for (i = 0; i < nseen && n < max; i++)
        if (!strcmp(seen[i].launcher, launcher) && seen[i].threads * 10 >= total)
            snprintf(names[n++], 224, "%s", seen[i].kernel);
    return n;
}
