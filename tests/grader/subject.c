/* subject.c: the only process that runs a student's code.
 *
 *   subject    (started by the judge, tests/grader/judge_subject.c; fd 6 is the mailbox it shares
 *               with the judge, fds 3 and 4 the doorbells from and to it, fd 5 the pool)
 *
 * It maps the mailbox and the judge's memory pool while it still may, starts the record
 * of what reaches the GPU (gpu_record.c: CUPTI, every route), contains itself (contain.h:
 * no file writes, no new processes, no signals to others, no network), and only then loads
 * the submission: the student's constructors run contained. Then it serves calls: the
 * judge names a launcher of the lab's table (gl_exec.h) and its arguments (offsets in the
 * pool, numbers, host arrays); the subject calls it, synchronises when asked, and answers
 * with the CUDA status and a record of what the launcher did: what it asked the driver for
 * (copies, memsets, streams, host functions, contexts of its own ...), and what the GPU ran
 * (every kernel, copy and memset, placed by the call that started it).
 *
 * Every word goes through the mailbox, never through a file descriptor (the student's code
 * may own those); nothing this process says decides a grade by itself: the judge reads the
 * outputs from its own memory, keeps the time, and checks the record against the lab. */
#define _GNU_SOURCE
#include "contain.h"
#include "gpu_record.h"
#include "protocol.h"
#include "subject.h"
#include "vmm_pool.h"
#include "host_pool.h"

#include "gl_delay.h"
#include "gl_exec.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define FROM_JUDGE 3
#define TO_JUDGE 4
#define POOL_FD 5

static gl_mailbox *mb;
static void *submission;            /* dlopen handle */
static int kit;                     /* the library is the lab's own baselines */
static char submission_path[4096];  /* its path as the loader knows it */
static unsigned char *pool;         /* the judge's pool, mapped here */
static unsigned char *host_pool;    /* the judge's pinned host pool (host_pool.h), or NULL */
static int cupti_on;                /* CUPTI records every route: the interposers only forward */

/* ---- the record ---- */

/* Who the calling thread is: only the thread that serves the judge is ever the kit or in a
 * call; any other thread (the student's own, the runtime's) is outside every call. */
enum { ROLE_OUTSIDE = 0, ROLE_KIT, ROLE_CALL };
static __thread int role;
static gl_reply *current;           /* the answer of the call being served */
static uint32_t current_seq;        /* its request number */
static unsigned outside;            /* things done outside any call since the last answer */

static int origin_of_thread(void)
{
    return role == ROLE_CALL ? (int)current_seq : role == ROLE_KIT ? GL_ORIGIN_KIT
                                                                   : GL_ORIGIN_OUTSIDE;
}

int gl_subject_from_submission(const void *addr)
{
    Dl_info info;
    return addr && dladdr(addr, &info) && info.dli_fname &&
           !strcmp(info.dli_fname, submission_path);
}

/* Adds one thing to the current call's record: a kind that was seen before counts once more
 * (the same type, name and stream), a new one takes an entry; when none is left the answer
 * says it overflowed, and the judge fails the call (nothing is merged into another kind). */
static void add(int origin, uint32_t type, const char *name, int in_sub, int other,
                uint64_t threads, uint64_t bytes)
{
    gl_event *e = NULL;
    uint32_t i;
    if (origin == GL_ORIGIN_KIT)
        return;
    if (origin < 0 || !current) {
        /* waits, events and allocations start no work; CUDA's own threads make some */
        if (type != GL_EV_SYNC && type != GL_EV_EVENT && type != GL_EV_ALLOC)
            __atomic_add_fetch(&outside, 1, __ATOMIC_RELAXED);
        return;
    }
    for (i = 0; i < current->nevents; i++)
        if (current->events[i].type == type && current->events[i].other_stream == other &&
            current->events[i].in_submission == in_sub && !strcmp(current->events[i].name, name)) {
            e = &current->events[i];
            break;
        }
    if (!e) {
        if (current->nevents == GL_PROTO_EVENTS) {
            current->overflow++;
            return;
        }
        e = &current->events[current->nevents++];
        memset(e, 0, sizeof *e);
        e->type = type;
        e->other_stream = other;
        e->in_submission = in_sub;
        snprintf(e->name, sizeof e->name, "%s", name);
    }
    e->count++;
    e->threads += threads;
    if (type == GL_EV_KERNEL)
        e->bytes = bytes > e->bytes ? bytes : e->bytes; /* the largest dynamic shared memory */
    else
        e->bytes += bytes;
}

void gl_subject_record(uint32_t type, const char *name, int in_submission, int other_stream,
                       uint64_t threads, uint64_t bytes)
{
    if (!cupti_on)
        add(origin_of_thread(), type, name, in_submission, other_stream, threads, bytes);
}

/* CUPTI's hooks (gpu_record.h) */
static void api_event(int origin, uint32_t type, const char *name)
{
    size_t n = strlen(name);
    int other = n > 5 && (!strcmp(name + n - 5, "_ptsz") || !strcmp(name + n - 5, "_ptds"));
    add(origin, type, name, 0, other, 0, 0);
}

static void taint(uint32_t flag, const char *what)
{
    if (!(mb->taint & flag) && !mb->taint_what[0])
        snprintf(mb->taint_what, sizeof mb->taint_what, "%s", what);
    __atomic_or_fetch(&mb->taint, flag, __ATOMIC_RELEASE);
}

static uint32_t ngpu, gpu_overflow;

static void gpu_event(const gl_gpu_event *e)
{
    if (ngpu < GL_PROTO_GPU)
        mb->gpu[ngpu++] = *e;
    else
        gpu_overflow++;
}

/* Hands what the GPU ran since the last flush to the judge (in mb->gpu). */
static void flush_gpu_record(gl_reply *rp)
{
    if (!cupti_on)
        return;
    ngpu = gpu_overflow = 0;
    if (gl_gpu_record_flush() != 0)
        gpu_overflow++;
    rp->ngpu = ngpu;
    rp->gpu_overflow = gpu_overflow;
}

/* ---- serving the judge ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static void *pool_ptr(uint64_t off)
{
    return off == ~(uint64_t)0 ? NULL : pool + off;
}

static void *host_ptr(uint64_t off)
{
    return off == ~(uint64_t)0 || !host_pool ? NULL : host_pool + off;
}

static int sticky(cudaError_t err)
{
    /* these leave the context unusable: the judge starts a fresh subject */
    return err == cudaErrorIllegalAddress || err == cudaErrorLaunchFailure ||
           err == cudaErrorAssert || err == cudaErrorIllegalInstruction ||
           err == cudaErrorMisalignedAddress || err == cudaErrorInvalidAddressSpace ||
           err == cudaErrorInvalidPc || err == cudaErrorHardwareStackError ||
           err == cudaErrorLaunchTimeout || err == cudaErrorUnknown;
}

static void serve_call(const gl_request *rq, unsigned char *blob, gl_reply *rp)
{
    const gl_launcher *l;
    gl_arg args[GL_PROTO_ARGS];
    char name[sizeof rq->launcher + 1];
    cudaError_t err;
    void *fn;
    double t0;
    uint32_t i;

    snprintf(name, sizeof name, "%.*s", (int)sizeof rq->launcher, rq->launcher);
    l = gl_launcher_find(name);
    /* a student's subject serves the student's launchers; a kit subject the given ones */
    fn = l && !(l->flags & GL_GIVEN) == !kit ? dlsym(submission, name) : NULL;
    if (l && kit && (l->flags & GL_BUILTIN))
        fn = (void *)l; /* the kit's own (gl_copy): nothing to look up */
    if (!fn) {
        rp->missing = 1;
        return;
    }
    memset(args, 0, sizeof args);
    for (i = 0; i < rq->nargs && i < GL_PROTO_ARGS; i++) {
        const gl_wire_arg *w = &rq->args[i];
        if (w->kind == 'p')
            args[i].p = pool_ptr(w->off);
        else if (w->kind == 'H')
            args[i].p = host_ptr(w->off);
        else if (w->kind == 'h')
            args[i].p = blob + w->off, args[i].n = w->n;
        else if (w->kind == 'f')
            args[i].f = w->f;
        else
            args[i].i = w->i;
    }
    if (rq->flags & GL_CALL_DELAY)
        gl_delayed_copy(rq->flags & GL_CALL_DELAY_HOST ? host_ptr(rq->delay_dst)
                                                       : pool_ptr(rq->delay_dst),
                        pool_ptr(rq->delay_src), rq->delay_bytes,
                        rq->delay_ms);
    role = ROLE_CALL;
    t0 = now_ms();
    rp->ret = l->invoke(fn, args);
    rp->launcher_ms = now_ms() - t0;
    role = ROLE_KIT;
    err = cudaGetLastError();
    if (err == cudaSuccess && (rq->flags & GL_CALL_SYNC)) {
        err = cudaDeviceSynchronize();
        flush_gpu_record(rp);
    }
    rp->status = err;
    rp->sticky = sticky(err);
}

static int loading; /* the student's file is being loaded (or the kit's baselines) */

static void ring(void)
{
    char b = 1;
    ssize_t r;
    do
        r = write(TO_JUDGE, &b, 1);
    while (r < 0 && errno == EINTR);
}

static void fail_ready(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
static void fail_ready(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(mb->ready.why, sizeof mb->ready.why, fmt, ap);
    va_end(ap);
    mb->ready.ok = 0;
    mb->ready.kit_error = !loading; /* before the student's file: the GPU or the kit failed */
    __atomic_store_n(&mb->ready_set, 1, __ATOMIC_RELEASE);
    ring();
    exit(1);
}

/* Waits until the judge has posted request `seq`; 0 when the judge is gone. */
static int wait_for(uint64_t seq)
{
    char buf[64];
    while (__atomic_load_n(&mb->posted, __ATOMIC_ACQUIRE) <= seq) {
        ssize_t r = read(FROM_JUDGE, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
    }
    return 1;
}

/* The student's compiled file, read while the subject may still open files freely. */
static void *read_cubin(const char *path, size_t *bytes)
{
    FILE *f = path[0] ? fopen(path, "rb") : NULL;
    void *p = NULL;
    long n;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (p = malloc((size_t)n)) && fread(p, 1, (size_t)n, f) == (size_t)n)
        *bytes = (size_t)n;
    else
        free(p), p = NULL;
    if (f)
        fclose(f);
    return p;
}

int main(void)
{
    gl_hello *hello;
    gl_ready *ready;
    gl_containment c;
    struct link_map *map = NULL;
    cudaError_t err;
    void *base = NULL, *cubin;
    size_t cubin_bytes = 0;
    uint64_t seq;

    signal(SIGPIPE, SIG_IGN);
    role = ROLE_KIT;
    mb = mmap(NULL, sizeof *mb, PROT_READ | PROT_WRITE, MAP_SHARED, GL_MAILBOX_FD, 0);
    if (mb == MAP_FAILED || mb->magic != GL_PROTO_MAGIC)
        return 2;
    close(GL_MAILBOX_FD);
    hello = &mb->hello;
    ready = &mb->ready;
    hello->submission[sizeof hello->submission - 1] = '\0';
    hello->cupti[sizeof hello->cupti - 1] = '\0';
    hello->cubin[sizeof hello->cubin - 1] = '\0';
    kit = hello->kit;

    /* nothing of the judge's but the doorbells, the pool's descriptor and the standard
     * streams (/dev/null); under a tool (Nsight Compute, compute-sanitizer) the tool's own
     * channels stay open. Before CUDA opens its own. */
    if (!hello->profiled)
        for (int fd = GL_MAILBOX_FD + 1; fd < 1024; fd++)
            if (fd != GL_HOST_POOL_FD || !hello->host_pool_bytes)
                close(fd);

    /* 1. the pool, while opening it is still allowed */
    if (hello->vmm) {
        char why[256];
        if ((err = cudaFree(0)) != cudaSuccess) /* the context the pool is mapped into */
            fail_ready("the subject could not create its CUDA context: %s",
                       cudaGetErrorString(err));
        if (gl_vmm_import(POOL_FD, hello->pool_bytes, &base, why, sizeof why) != 0)
            fail_ready("the subject could not map the judge's memory: %s", why);
        close(POOL_FD);
    } else {
        cudaIpcMemHandle_t handle;
        memcpy(&handle, hello->ipc_handle, sizeof handle);
        err = cudaIpcOpenMemHandle(&base, handle, cudaIpcMemLazyEnablePeerAccess);
        if (err != cudaSuccess)
            fail_ready("the subject could not open the judge's memory (CUDA IPC): %s",
                       cudaGetErrorString(err));
    }
    pool = base;
    /* 1b. the lab's pinned host pool: the GPU's, hidden from this process's CPU */
    if (hello->host_pool_bytes) {
        char why[256];
        void *h = NULL;
        if (gl_host_pool_import(GL_HOST_POOL_FD, hello->host_pool_bytes, &h, why, sizeof why))
            fail_ready("%s", why);
        host_pool = h;
    }
    cubin = read_cubin(hello->cubin, &cubin_bytes);
    if (!hello->profiled && hello->cupti[0]) {
        static const gl_gpu_hooks hooks = {origin_of_thread, api_event, taint, gpu_event};
        char why[256];
        if (gl_gpu_record_start(hello->cupti, &hooks, why, sizeof why) == 0)
            cupti_on = ready->cupti = 1;
    }
    ready->modules = cupti_on && cubin;

    /* 2. contained from here on. Under Nsight Compute its injected library
     * takes a lock file and opens files for writing: then only Landlock (this
     * thread and those it makes) guards the files, not seccomp. */
    if (hello->profiled) {
        const char *lock[] = {hello->ncu_lock, NULL};
        hello->ncu_lock[sizeof hello->ncu_lock - 1] = '\0';
        gl_contain_ex(&c, lock, GL_CONTAIN_WRITE_OPENS | hello->profiled_contain);
    } else {
        gl_contain(&c);
    }
    ready->landlock_abi = c.landlock_abi;
    ready->landlock = c.landlock;
    ready->seccomp = c.seccomp;
    ready->no_new_privs = c.no_new_privs;
    ready->pdeathsig = c.pdeathsig;
    snprintf(ready->why, sizeof ready->why, "%s", c.why);

    /* 3. the student's code: its constructors run now, contained, when the judge says so
     * (it holds the GPU's lock then; what came before ran while it did not) */
    if (!wait_for(0) || mb->slot[0].rq.op != GL_OP_LOAD)
        return 0; /* the judge is gone, or ends this subject before it is used */
    loading = 1;
    gl_gpu_record_student(cubin, cubin_bytes, pool, hello->pool_bytes);
    role = ROLE_OUTSIDE; /* constructors are outside every call */
    submission = dlopen(hello->submission, RTLD_NOW | RTLD_LOCAL);
    role = ROLE_KIT;
    if (!submission)
        fail_ready("the submission could not be loaded: %s", dlerror());
    if (dlinfo(submission, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        snprintf(submission_path, sizeof submission_path, "%s", map->l_name);
    ready->ok = 1;
    __atomic_store_n(&mb->ready_set, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&mb->answered, 1, __ATOMIC_RELEASE);
    ring();

    for (seq = 1;; seq++) {
        gl_request rq;
        gl_reply *rp = &mb->slot[seq % GL_PROTO_SLOTS].rp;
        unsigned char *blob = mb->slot[seq % GL_PROTO_SLOTS].blob;
        if (!wait_for(seq))
            return 0; /* the judge is gone */
        rq = mb->slot[seq % GL_PROTO_SLOTS].rq; /* a copy: what it says cannot change now */
        if (rq.op == GL_OP_QUIT)
            return 0;
        memset(rp, 0, sizeof *rp);
        current = rp;
        current_seq = (uint32_t)seq;
        if (rq.op == GL_OP_CALL && rq.blob_bytes <= GL_PROTO_BLOB) {
            serve_call(&rq, blob, rp);
        } else if (rq.op == GL_OP_FLUSH) { /* what the GPU ran, after a timed round */
            flush_gpu_record(rp);
        } else { /* SYNC: everything this process started, on any stream */
            err = cudaDeviceSynchronize();
            rp->status = err;
            rp->sticky = sticky(err);
        }
        current = NULL;
        rp->outside = __atomic_exchange_n(&outside, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&mb->answered, seq + 1, __ATOMIC_RELEASE);
        ring();
    }
}
