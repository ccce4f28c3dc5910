/* judge.c: the grader's side of every call into a student's code.
 *
 * The judge (the runner process) never loads the student's library. It owns the GPU memory
 * of every test: one pool, allocated up front, shared with the subject process (the CUDA
 * driver's VMM API, or CUDA IPC); gl_buf_alloc hands out pieces of it. A launcher of the
 * student's runs in the subject (subject.c, reached through link.c), started in a process
 * group of its own and ended (the whole group) when a test breaks it or the lab is done.
 * A given launcher (the lab's baselines) runs here, from the kit's own build, or, when it is
 * timed, in a subject of the kit's own.
 *
 * Every answer of the subject is checked here against the lab (record.c): the CUDA status,
 * what the call asked for, what the GPU ran, and any taint (a context or code of its own). */
#define _GNU_SOURCE
#include "grader.h"
#include "judge.h"
#include "link.h"
#include "record.h"
#include "vmm_pool.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_exec.h"
#include "gl_timing.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
    char submission[4096], baseline[4096], subject_exe[4096], cubin[4096];
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
    int preparing;           /* a timed round's inputs are being made: no student's call */
    struct {
        int set;
        size_t dst, src, bytes;
        double ms;
    } delay;
    double last_launcher_ms;
    const gl_launcher *batch_launcher; /* the launcher of the current timed round */
    uint64_t pending[GL_PROTO_SLOTS];  /* the round's requests, not answered yet */
    int npending;
    uint64_t batch_first;    /* the round's first request */
    int kit;                 /* the next subject is a kit subject (the baselines, timed as a
                                student's launchers are: the same process boundary and clock) */
    int subject_kit;         /* the running subject is one */
    int plan;                /* the performance tests' first pass: baselines only (runner.c) */
    char test[64];           /* the current test's id, and the baselines it timed so far */
    int test_baselines;
    const char *const *wrapper; /* a program that runs the subject (Nsight Compute), or NULL */
    char cupti[1024];           /* libcupti for the subject, or "" */
    char *ptx;                  /* the student's PTX: its kernels' names */
    int records_gpu;            /* the running subject's record is CUPTI's */
    double start_seconds;       /* subjects' starts, for GL_TRACE */
    int starts;
} J;

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
        gl_kit_error("the grader's memory pool (%zu MiB) is full: a test asked for %zu MiB "
                     "more (a bug of the kit: make the lab's pool larger)",
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

/* The piece of the pool that holds offset off (its index), or -1. */
static int piece_of(size_t off)
{
    int i;
    for (i = 0; i < nused; i++)
        if (off >= used[i].off && off < used[i].off + used[i].bytes)
            return i;
    return -1;
}

/* ---- the subject's life ---- */

static double now(void)
{
    return gl_host_seconds();
}

static void subject_died(int r, const char *during, const char *launcher)
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
        if (ready.kit_error && strstr(ready.why, "out of memory"))
            return 1;
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

static void subject_start(const char *launcher)
{
    int tries;
    for (tries = 0;; tries++) {
        if (!gl_link_running()) {
            double t0 = now();
            const char *why = subject_spawn();
            if (why)
                gl_kit_error("%s", why);
            J.start_seconds += now() - t0;
        }
        if (gl_link_loaded() || subject_load(launcher) == 0)
            return;
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

/* A taint the subject raised (a context or code of its own): this subject is done. */
static void check_taint(const char *launcher)
{
    char what[512];
    uint32_t t = J.subject_kit ? 0 : gl_link_taint(what, sizeof what);
    if (t) {
        gl_link_kill();
        gl_record_check_taint(launcher, t, what);
    }
}

/* A call's answer: the launcher exists, what it did belongs to the lab, no CUDA error. */
static long long answered(const gl_launcher *l, const gl_reply *rp, uint64_t seq)
{
    if (rp->missing)
        gl_fail("%s does not define %s(): keep every function declared in the lab's header, "
                "with the same name and arguments",
                GL_LAB.file, l->name);
    J.last_launcher_ms = rp->launcher_ms;
    if (!J.subject_kit) {
        check_taint(l->name);
        gl_record_check_answer(l, rp);
        gl_record_check_gpu(l, gl_link_gpu(), rp->ngpu, rp->gpu_overflow, seq, seq + 1);
    }
    if (rp->status != 0) {
        if (rp->sticky)
            gl_link_kill();
        describe_status(l->name, rp->status);
    }
    return rp->ret;
}

static long long call_remote(const gl_launcher *l, const gl_arg *args)
{
    static unsigned char blob[GL_PROTO_BLOB];
    int pieces[GL_PROTO_ARGS], npieces = 0;
    unsigned long long touched = 0;
    gl_request rq;
    gl_reply rp;
    size_t nb = 0, off;
    uint64_t seq;
    int i, r, n = (int)strlen(l->layout);

    memset(&rq, 0, sizeof rq);
    rq.op = GL_OP_CALL;
    rq.flags = J.batch ? 0 : GL_CALL_SYNC;
    snprintf(rq.launcher, sizeof rq.launcher, "%s", l->name);
    rq.nargs = (uint32_t)n;
    for (i = 0; i < n && i < GL_PROTO_ARGS; i++) {
        gl_wire_arg *w = &rq.args[i];
        w->kind = (uint32_t)l->layout[i];
        if (l->layout[i] == 'p') {
            if (!args[i].p) {
                w->off = ~(uint64_t)0;
            } else if (in_pool(args[i].p, &off)) {
                int k, p = piece_of(off);
                w->off = off;
                for (k = 0; k < npieces && pieces[k] != p; k++)
                    ;
                if (p >= 0 && k == npieces) { /* each buffer once: the bytes the call has */
                    pieces[npieces++] = p;
                    touched += used[p].bytes;
                }
            } else {
                gl_kit_error("grader bug: argument %d of %s is not in the judge's memory pool",
                             i, l->name);
            }
        } else if (l->layout[i] == 'h') {
            if (nb + args[i].n > sizeof blob)
                gl_kit_error("grader bug: the host arrays of %s exceed %zu bytes", l->name,
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
    if (J.preparing && !J.kit)
        gl_kit_error("grader bug: %s was called while a timed round's inputs were being made: "
                     "a student's code runs before the inputs exist (gl_timed.setup) or on the "
                     "clock, never in between",
                     l->name);
    if (!J.kit && J.plan)
        gl_skip("planned"); /* the plan times the kit's baselines only */
    if (gl_link_running() && J.subject_kit != J.kit)
        gl_link_kill(); /* a student's call after the kit's baselines, or the reverse */
    if (!gl_link_loaded())
        subject_start(l->name);
    if (!J.kit)
        gl_record_bytes(touched);
    if (J.delay.set) {
        rq.flags |= GL_CALL_DELAY;
        rq.delay_dst = J.delay.dst;
        rq.delay_src = J.delay.src;
        rq.delay_bytes = J.delay.bytes;
        rq.delay_ms = J.delay.ms;
        J.delay.set = 0;
    }
    rq.blob_bytes = (uint32_t)nb;
    J.batch_launcher = l;
    /* the judge's own writes (inputs, poison, guards) land before the student's kernels (a
     * timed round synchronised once, before its first call) */
    if (!J.batch)
        GL_CUDA(cudaDeviceSynchronize());
    if (J.batch && J.npending >= GL_PROTO_SLOTS - 1)
        gl_kit_error("grader bug: more than %d calls in one timed round", GL_PROTO_SLOTS - 1);
    seq = gl_link_post(&rq, blob, nb);
    if (J.batch) { /* its answer is read at the end of the round: one round trip per round */
        if (J.npending == 0)
            J.batch_first = seq;
        J.pending[J.npending++] = seq;
        return 0;
    }
    if ((r = gl_link_wait(seq, J.deadline, &rp)) != 0)
        subject_died(r, "during the call", l->name);
    return answered(l, &rp, seq);
}

/* Ends a timed round: the round's answers, then the subject's device idle. */
static void remote_sync(const char *what)
{
    gl_request rq;
    gl_reply rp;
    uint64_t seq;
    int i, r;
    for (i = 0; i < J.npending; i++) { /* the round's calls, answered in order */
        if ((r = gl_link_wait(J.pending[i], J.deadline, &rp)) != 0)
            subject_died(r, "during the timed calls", what);
        if (J.batch_launcher)
            answered(J.batch_launcher, &rp, J.pending[i]);
    }
    J.npending = 0;
    memset(&rq, 0, sizeof rq);
    rq.op = GL_OP_SYNC;
    seq = gl_link_post(&rq, NULL, 0);
    if ((r = gl_link_wait(seq, J.deadline, &rp)) != 0)
        subject_died(r, "while its kernels ran", what);
    if (!J.subject_kit) {
        check_taint(what);
        if (rp.outside)
            gl_fail("%s: your file started GPU work outside the launcher's call (a thread of "
                    "its own?)",
                    what);
    }
    if (rp.status != 0) {
        if (rp.sticky)
            gl_link_kill();
        describe_status(what, rp.status);
    }
}

/* After the clock: what the GPU ran during the round (CUPTI), checked against the lab. */
static void remote_flush(const char *what)
{
    gl_request rq;
    gl_reply rp;
    uint64_t seq;
    int r;
    if (!gl_link_loaded())
        return;
    memset(&rq, 0, sizeof rq);
    rq.op = GL_OP_FLUSH;
    seq = gl_link_post(&rq, NULL, 0);
    if ((r = gl_link_wait(seq, J.deadline, &rp)) != 0)
        subject_died(r, "after the timed calls", what);
    if (J.batch_launcher && !J.subject_kit) {
        check_taint(what);
        gl_record_check_gpu(J.batch_launcher, gl_link_gpu(), rp.ngpu, rp.gpu_overflow,
                            J.batch_first, seq);
        if (rp.outside)
            gl_fail("%s: your file started GPU work outside the launcher's call (a thread of "
                    "its own?)",
                    what);
    }
}

static void *baseline_fn(const char *name)
{
    void *fn;
    if (!J.baseline_lib && !(J.baseline_lib = dlopen(J.baseline, RTLD_NOW | RTLD_LOCAL)))
        gl_kit_error("the grader's baselines %s could not be loaded: %s (rebuild the kit with "
                     "make)",
                     J.baseline, dlerror());
    if (!(fn = dlsym(J.baseline_lib, name)))
        gl_kit_error("the lab's own %s() is missing from %s (rebuild the kit with make)", name,
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

/* The student's file compiled for this GPU (tools/compile-submission writes submission.cubin
 * for the build's ARCH): the code its kernels must come from, where the GPU runs that code
 * as it is (ARCH is the GPU's compute capability). */
static void find_cubin(void)
{
    const char *arch = getenv("ARCH");
    char path[4200];
    int dev = 0, major = 0, minor = 0;
    snprintf(path, sizeof path, "%.*s.cubin", (int)(strlen(J.submission) - 3), J.submission);
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (access(path, R_OK) == 0 && arch && atoi(arch + (strncmp(arch, "sm_", 3) ? 0 : 3)) ==
                                               10 * major + minor)
        snprintf(J.cubin, sizeof J.cubin, "%s", path);
}

/* GPU memory a lab keeps free beside its pool: its subject's context, Nsight Compute's */
#define RESERVE ((size_t)2 << 30)

int gl_judge_init(const char *submission, const char *baseline, const char *subject_exe,
                  size_t pool_bytes, int allow_unisolated, int patience, char *why, size_t len)
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
    /* the lab's largest test and room for its subjects; where other labs hold the GPU's memory
     * now, wait for them (patience: tries left) rather than grade on smaller sizes */
    if (free_b < pool_bytes + RESERVE && total_b > pool_bytes + 2 * RESERVE && patience > 0) {
        snprintf(why, len, "%zu MiB of GPU memory free, %zu MiB needed", free_b >> 20,
                 (pool_bytes + RESERVE) >> 20);
        return -3;
    }
    if (pool_bytes > free_b / 2) /* a small GPU: never more than half of what is free */
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
    find_cubin();
    {
        char path[4200];
        snprintf(path, sizeof path, "%.*s.ptx", (int)(strlen(J.submission) - 3), J.submission);
        J.ptx = gl_read_file(path);
    }
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
    J.batch = J.preparing = 0;
    J.delay.set = 0;
    J.batch_launcher = NULL;
    J.npending = 0;
    nused = 0; /* every test starts with the whole pool */
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

void gl_judge_trace(void)
{
    if (getenv("GL_TRACE"))
        fprintf(stderr, "  trace: %d subject starts %.2f s\n", J.starts, J.start_seconds);
}

void gl_judge_finish(void)
{
    if (gl_link_loaded())
        gl_link_quit_and_wait(0.0);
    gl_link_kill();
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

void gl_next_call_delayed(void *dst, const void *src, size_t bytes, double ms)
{
    if (!in_pool(dst, &J.delay.dst) || !in_pool(src, &J.delay.src))
        gl_kit_error("grader bug: the delayed copy's buffers are not in the pool");
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

int gl_judge_records_gpu(void)
{
    return gl_link_loaded() && J.records_gpu;
}

/* ---- for the clock (clock.c) ---- */

int gl_judge_round_begin(int student)
{
    if (student && J.plan)
        gl_skip("planned");
    if (!student && !J.in_process)
        J.kit = 1; /* the kit's baselines: no student's subject alive (call_remote ends it), and
                    * a subject of the kit's own runs them, so both sides of a ratio cross the
                    * same process boundary */
    return !J.in_process;
}

void gl_judge_round_phase(int phase)
{
    J.preparing = phase == GL_ROUND_PREPARE;
    J.batch = phase == GL_ROUND_CALLS;
}

int gl_judge_round_end(const char *what)
{
    if (!J.in_process && gl_link_loaded()) {
        remote_sync(what);
        return !J.subject_kit;
    }
    GL_CUDA(cudaDeviceSynchronize());
    return 0;
}

void gl_judge_round_record(const char *what)
{
    if (!J.in_process)
        remote_flush(what);
}

void gl_judge_round_done(void)
{
    J.kit = 0; /* the kit subject stays, for the next baseline */
}

const char *gl_judge_round_launcher(void)
{
    return J.batch_launcher ? J.batch_launcher->name : "the timed launcher";
}

void gl_judge_plan(int on)
{
    J.plan = on;
}

const char *gl_judge_test_id(int *baselines)
{
    if (baselines)
        *baselines = J.test_baselines++;
    return J.test;
}
