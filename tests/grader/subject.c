/* subject.c: the only process that runs a student's code.
 *
 *   subject    (started by the judge, tests/grader/judge.c; fds 3 and 4 are
 *               its pipes from and to the judge)
 *
 * It opens the judge's memory pool (CUDA IPC) while it still may, contains
 * itself (contain.h: no file writes, no new processes, no signals to others,
 * no network), and only then loads the submission: the student's
 * constructors run contained. Then it serves calls: the judge names a
 * launcher of the lab's table (gl_exec.h) and its arguments (offsets in the
 * pool, numbers, host arrays); the subject calls it, synchronises when asked,
 * and answers with the CUDA status and a record of what the launcher did:
 * its kernel launches (by device name, and whether they are functions of the
 * student's file), copies, memsets, host callbacks, streams, graphs,
 * synchronisations. The record comes from the CUDA runtime calls below, which
 * this executable defines and exports: the student's library binds to them
 * before libcudart, and each forwards to the real one.
 *
 * Nothing this process says decides a grade by itself: the judge reads the
 * outputs from its own memory, keeps the time, and checks the record against
 * the lab. */
#define _GNU_SOURCE
#include "contain.h"
#include "gpu_record.h"
#include "protocol.h"
#include "vmm_pool.h"

#include "gl_delay.h"
#include "gl_exec.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FROM_JUDGE 3
#define TO_JUDGE 4

static void *submission;            /* dlopen handle */
static int kit;                     /* the library is the lab's own baselines */
static char submission_path[4096];  /* its path as the loader knows it */
static unsigned char *pool;         /* the judge's pool, mapped here */
static uint64_t pool_bytes;

/* ---- the record ---- */

static volatile int in_kit;         /* the kit's own CUDA calls are not recorded */
static volatile int in_call;        /* inside a launcher the judge asked for */
static gl_reply reply;              /* the record of the current call */
static unsigned outside;            /* things done between calls */

static int from_submission(const void *addr)
{
    Dl_info info;
    return addr && dladdr(addr, &info) && info.dli_fname &&
           !strcmp(info.dli_fname, submission_path);
}

static int other_stream(cudaStream_t s)
{
    return s != 0 && s != cudaStreamLegacy;
}

static void record(uint32_t type, const char *name, int in_sub, int other, uint64_t threads,
                   uint64_t bytes)
{
    gl_event *e = NULL;
    uint32_t i;
    if (in_kit)
        return;
    if (!in_call) {
        outside++;
        return;
    }
    for (i = 0; i < reply.nevents; i++)
        if (reply.events[i].type == type && reply.events[i].other_stream == other &&
            !strcmp(reply.events[i].name, name)) {
            e = &reply.events[i];
            break;
        }
    if (!e) {
        if (reply.nevents == GL_PROTO_EVENTS)
            e = &reply.events[GL_PROTO_EVENTS - 1]; /* the rest count as the last kind */
        else {
            e = &reply.events[reply.nevents++];
            memset(e, 0, sizeof *e);
            e->type = type;
            e->other_stream = other;
            e->in_submission = in_sub;
            snprintf(e->name, sizeof e->name, "%s", name);
        }
    }
    e->count++;
    e->threads += threads;
    if (type == GL_EV_KERNEL || type == GL_EV_GPU_KERNEL)
        e->bytes = bytes > e->bytes ? bytes : e->bytes; /* the largest dynamic shared memory */
    else
        e->bytes += bytes;
}

static void record_kernel(const void *func, dim3 grid, dim3 block, size_t shmem,
                          cudaStream_t stream)
{
    const char *name = NULL;
    Dl_info info;
    char buf[224];
    int saved = in_kit;
    if (in_kit)
        return;
    /* the device name from the runtime (CUDA 12.3 and newer), else the
     * host stub's symbol, which has the same mangled name unless static */
    static cudaError_t (*get_name)(const char **, const void *);
    if (!get_name)
        *(void **)&get_name = dlsym(RTLD_DEFAULT, "cudaFuncGetName");
    in_kit = 1;
    if (!get_name || get_name(&name, func) != cudaSuccess || !name) {
        cudaGetLastError();
        name = dladdr(func, &info) && info.dli_sname ? info.dli_sname : NULL;
    }
    in_kit = saved;
    snprintf(buf, sizeof buf, "%s", name ? name : "(a kernel without a name)");
    record(GL_EV_KERNEL, buf, from_submission(func), other_stream(stream),
           (uint64_t)grid.x * grid.y * grid.z * block.x * block.y * block.z, (uint64_t)shmem);
}

/* CUDA 13's launch stubs look a kernel up once (__cudaGetKernel: its host
 * stub to a handle) and launch the handle (__cudaLaunchKernel): the handle
 * is mapped back to the stub, which names the kernel. */
#define MAX_HANDLES 1024
static struct {
    void *handle;
    const void *func;
} handles[MAX_HANDLES];
static int nhandles;

static const void *func_of(void *handle)
{
    int i;
    for (i = 0; i < nhandles; i++)
        if (handles[i].handle == handle)
            return handles[i].func;
    return handle;
}

/* What CUPTI saw the GPU do (gpu_record.c), added to the current answer. */
static int cupti_on;

static void gpu_event(void *ctx, int what, const char *name, unsigned long long threads,
                      unsigned long long bytes)
{
    int saved_call = in_call, saved_kit = in_kit;
    (void)ctx;
    in_call = 1;
    in_kit = 0;
    record(what == GL_GPU_KERNEL ? GL_EV_GPU_KERNEL
           : what == GL_GPU_COPY ? GL_EV_GPU_COPY
                                 : GL_EV_GPU_MEMSET,
           name, 0, 0, threads, bytes);
    in_call = saved_call;
    in_kit = saved_kit;
}

static void flush_gpu_record(void)
{
    if (cupti_on)
        gl_gpu_record_flush(gpu_event, NULL);
}

/* The real function: the next definition after this executable's. */
#define REAL(ret, name, params)                                                               \
    static ret(*real_fn) params;                                                              \
    if (!real_fn)                                                                             \
        *(void **)&real_fn = dlsym(RTLD_NEXT, name);                                          \
    if (!real_fn)                                                                             \
        return cudaErrorNotSupported

cudaError_t __cudaGetKernel(void **handle, const void *func);
cudaError_t __cudaGetKernel(void **handle, const void *func)
{
    cudaError_t err;
    REAL(cudaError_t, "__cudaGetKernel", (void **, const void *));
    err = real_fn(handle, func);
    if (err == cudaSuccess && handle && nhandles < MAX_HANDLES) {
        handles[nhandles].handle = *handle;
        handles[nhandles].func = func;
        nhandles++;
    }
    return err;
}

cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t shmem,
                               cudaStream_t stream);
cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t shmem,
                               cudaStream_t stream)
{
    REAL(cudaError_t, "__cudaLaunchKernel", (void *, dim3, dim3, void **, size_t, cudaStream_t));
    record_kernel(func_of(kernel), grid, block, shmem, stream);
    return real_fn(kernel, grid, block, args, shmem, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(void *kernel, dim3 grid, dim3 block, void **args,
                                    size_t shmem, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(void *kernel, dim3 grid, dim3 block, void **args,
                                    size_t shmem, cudaStream_t stream)
{
    REAL(cudaError_t, "__cudaLaunchKernel_ptsz",
         (void *, dim3, dim3, void **, size_t, cudaStream_t));
    record_kernel(func_of(kernel), grid, block, shmem, (cudaStream_t)1);
    return real_fn(kernel, grid, block, args, shmem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                             cudaStream_t stream)
{
    REAL(cudaError_t, "cudaLaunchKernel",
         (const void *, dim3, dim3, void **, size_t, cudaStream_t));
    record_kernel(func, grid, block, shmem, stream);
    return real_fn(func, grid, block, args, shmem, stream);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                  size_t shmem, cudaStream_t stream);
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                  size_t shmem, cudaStream_t stream)
{
    REAL(cudaError_t, "cudaLaunchKernel_ptsz",
         (const void *, dim3, dim3, void **, size_t, cudaStream_t));
    record_kernel(func, grid, block, shmem, (cudaStream_t)1);
    return real_fn(func, grid, block, args, shmem, stream);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t shmem, cudaStream_t stream)
{
    REAL(cudaError_t, "cudaLaunchCooperativeKernel",
         (const void *, dim3, dim3, void **, size_t, cudaStream_t));
    record_kernel(func, grid, block, shmem, stream);
    return real_fn(func, grid, block, args, shmem, stream);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    REAL(cudaError_t, "cudaLaunchKernelExC", (const cudaLaunchConfig_t *, const void *, void **));
    if (config)
        record_kernel(func, config->gridDim, config->blockDim, config->dynamicSmemBytes,
                      config->stream);
    return real_fn(config, func, args);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                     void **args);
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                     void **args)
{
    REAL(cudaError_t, "cudaLaunchKernelExC_ptsz",
         (const cudaLaunchConfig_t *, const void *, void **));
    if (config)
        record_kernel(func, config->gridDim, config->blockDim, config->dynamicSmemBytes,
                      (cudaStream_t)1);
    return real_fn(config, func, args);
}

/* Copies and memsets: the call's name, its bytes, its stream. */
#define COPY(name, type, params, args, bytes, stream)                                         \
    cudaError_t name params;                                                                  \
    cudaError_t name params                                                                   \
    {                                                                                         \
        REAL(cudaError_t, #name, params);                                                     \
        record(type, #name, 0, other_stream(stream), 0, (uint64_t)(bytes));                   \
        return real_fn args;                                                                  \
    }

COPY(cudaMemcpy, GL_EV_COPY, (void *d, const void *s, size_t n, enum cudaMemcpyKind k),
     (d, s, n, k), n, 0)
COPY(cudaMemcpy_ptds, GL_EV_COPY, (void *d, const void *s, size_t n, enum cudaMemcpyKind k),
     (d, s, n, k), n, (cudaStream_t)1)
COPY(cudaMemcpyAsync, GL_EV_COPY,
     (void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st),
     (d, s, n, k, st), n, st)
COPY(cudaMemcpyAsync_ptsz, GL_EV_COPY,
     (void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st),
     (d, s, n, k, st), n, (cudaStream_t)1)
COPY(cudaMemcpy2D, GL_EV_COPY,
     (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k),
     (d, dp, s, sp, w, h, k), w * h, 0)
COPY(cudaMemcpy2D_ptds, GL_EV_COPY,
     (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k),
     (d, dp, s, sp, w, h, k), w * h, (cudaStream_t)1)
COPY(cudaMemcpy2DAsync, GL_EV_COPY,
     (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k,
      cudaStream_t st),
     (d, dp, s, sp, w, h, k, st), w * h, st)
COPY(cudaMemcpy2DAsync_ptsz, GL_EV_COPY,
     (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k,
      cudaStream_t st),
     (d, dp, s, sp, w, h, k, st), w * h, (cudaStream_t)1)
COPY(cudaMemcpy3D, GL_EV_COPY, (const struct cudaMemcpy3DParms *p), (p), 0, 0)
COPY(cudaMemcpy3DAsync, GL_EV_COPY, (const struct cudaMemcpy3DParms *p, cudaStream_t st), (p, st),
     0, st)
COPY(cudaMemcpyPeer, GL_EV_COPY, (void *d, int dd, const void *s, int sd, size_t n),
     (d, dd, s, sd, n), n, 0)
COPY(cudaMemcpyPeerAsync, GL_EV_COPY,
     (void *d, int dd, const void *s, int sd, size_t n, cudaStream_t st), (d, dd, s, sd, n, st),
     n, st)
COPY(cudaMemcpyToSymbol, GL_EV_SYMBOL_COPY,
     (const void *sym, const void *s, size_t n, size_t off, enum cudaMemcpyKind k),
     (sym, s, n, off, k), n, 0)
COPY(cudaMemcpyToSymbol_ptds, GL_EV_SYMBOL_COPY,
     (const void *sym, const void *s, size_t n, size_t off, enum cudaMemcpyKind k),
     (sym, s, n, off, k), n, (cudaStream_t)1)
COPY(cudaMemcpyToSymbolAsync, GL_EV_SYMBOL_COPY,
     (const void *sym, const void *s, size_t n, size_t off, enum cudaMemcpyKind k,
      cudaStream_t st),
     (sym, s, n, off, k, st), n, st)
COPY(cudaMemcpyToSymbolAsync_ptsz, GL_EV_SYMBOL_COPY,
     (const void *sym, const void *s, size_t n, size_t off, enum cudaMemcpyKind k,
      cudaStream_t st),
     (sym, s, n, off, k, st), n, (cudaStream_t)1)
COPY(cudaMemcpyFromSymbol, GL_EV_COPY,
     (void *d, const void *sym, size_t n, size_t off, enum cudaMemcpyKind k),
     (d, sym, n, off, k), n, 0)
COPY(cudaMemcpyFromSymbolAsync, GL_EV_COPY,
     (void *d, const void *sym, size_t n, size_t off, enum cudaMemcpyKind k, cudaStream_t st),
     (d, sym, n, off, k, st), n, st)
COPY(cudaMemset, GL_EV_MEMSET, (void *d, int v, size_t n), (d, v, n), n, 0)
COPY(cudaMemset_ptds, GL_EV_MEMSET, (void *d, int v, size_t n), (d, v, n), n, (cudaStream_t)1)
COPY(cudaMemsetAsync, GL_EV_MEMSET, (void *d, int v, size_t n, cudaStream_t st), (d, v, n, st),
     n, st)
COPY(cudaMemsetAsync_ptsz, GL_EV_MEMSET, (void *d, int v, size_t n, cudaStream_t st),
     (d, v, n, st), n, (cudaStream_t)1)
COPY(cudaMemset2D, GL_EV_MEMSET, (void *d, size_t p, int v, size_t w, size_t h), (d, p, v, w, h),
     w * h, 0)
COPY(cudaMemset2DAsync, GL_EV_MEMSET,
     (void *d, size_t p, int v, size_t w, size_t h, cudaStream_t st), (d, p, v, w, h, st), w * h,
     st)
COPY(cudaLaunchHostFunc, GL_EV_HOST_FN, (cudaStream_t st, cudaHostFn_t fn, void *data),
     (st, fn, data), 0, st)
COPY(cudaLaunchHostFunc_ptsz, GL_EV_HOST_FN, (cudaStream_t st, cudaHostFn_t fn, void *data),
     (st, fn, data), 0, (cudaStream_t)1)
COPY(cudaStreamAddCallback, GL_EV_HOST_FN,
     (cudaStream_t st, cudaStreamCallback_t fn, void *data, unsigned int flags),
     (st, fn, data, flags), 0, st)
COPY(cudaStreamAddCallback_ptsz, GL_EV_HOST_FN,
     (cudaStream_t st, cudaStreamCallback_t fn, void *data, unsigned int flags),
     (st, fn, data, flags), 0, (cudaStream_t)1)
COPY(cudaStreamCreate, GL_EV_STREAM, (cudaStream_t *s), (s), 0, (cudaStream_t)1)
COPY(cudaStreamCreateWithFlags, GL_EV_STREAM, (cudaStream_t *s, unsigned int f), (s, f), 0,
     (cudaStream_t)1)
COPY(cudaStreamCreateWithPriority, GL_EV_STREAM, (cudaStream_t *s, unsigned int f, int p),
     (s, f, p), 0, (cudaStream_t)1)
COPY(cudaGraphLaunch, GL_EV_GRAPH, (cudaGraphExec_t g, cudaStream_t st), (g, st), 0, st)
COPY(cudaGraphLaunch_ptsz, GL_EV_GRAPH, (cudaGraphExec_t g, cudaStream_t st), (g, st), 0,
     (cudaStream_t)1)
COPY(cudaDeviceSynchronize, GL_EV_SYNC, (void), (), 0, 0)
COPY(cudaStreamSynchronize, GL_EV_SYNC, (cudaStream_t st), (st), 0, st)
COPY(cudaStreamSynchronize_ptsz, GL_EV_SYNC, (cudaStream_t st), (st), 0, (cudaStream_t)1)
COPY(cudaEventRecord, GL_EV_EVENT, (cudaEvent_t e, cudaStream_t st), (e, st), 0, st)
COPY(cudaStreamWaitEvent, GL_EV_EVENT, (cudaStream_t st, cudaEvent_t e, unsigned int f),
     (st, e, f), 0, st)
COPY(cudaMalloc, GL_EV_ALLOC, (void **p, size_t n), (p, n), n, 0)
COPY(cudaMallocAsync, GL_EV_ALLOC, (void **p, size_t n, cudaStream_t st), (p, n, st), n, st)
COPY(cudaMallocManaged, GL_EV_ALLOC, (void **p, size_t n, unsigned int f), (p, n, f), n, 0)

/* ---- serving the judge ---- */

static int read_all(int fd, void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n) {
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        n -= (size_t)got;
    }
    return 0;
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

static int sticky(cudaError_t err)
{
    /* these leave the context unusable: the judge starts a fresh subject */
    return err == cudaErrorIllegalAddress || err == cudaErrorLaunchFailure ||
           err == cudaErrorAssert || err == cudaErrorIllegalInstruction ||
           err == cudaErrorMisalignedAddress || err == cudaErrorInvalidAddressSpace ||
           err == cudaErrorInvalidPc || err == cudaErrorHardwareStackError ||
           err == cudaErrorLaunchTimeout || err == cudaErrorUnknown;
}

static void serve_call(const gl_request *rq, unsigned char *blob)
{
    const gl_launcher *l = gl_launcher_find(rq->launcher);
    gl_arg args[GL_PROTO_ARGS];
    cudaError_t err;
    void *fn;
    double t0;
    uint32_t i;

    memset(&reply, 0, sizeof reply);
    reply.magic = GL_PROTO_MAGIC;
    reply.outside = outside;
    outside = 0;
    /* a student's subject serves the student's launchers; a kit subject the given ones */
    fn = l && !(l->flags & GL_GIVEN) == !kit ? dlsym(submission, rq->launcher) : NULL;
    if (l && kit && (l->flags & GL_BUILTIN))
        fn = (void *)l; /* the kit's own (gl_copy): nothing to look up */
    if (!fn) {
        reply.missing = 1;
        return;
    }
    memset(args, 0, sizeof args);
    for (i = 0; i < rq->nargs && i < GL_PROTO_ARGS; i++) {
        const gl_wire_arg *w = &rq->args[i];
        if (w->kind == 'p')
            args[i].p = pool_ptr(w->off);
        else if (w->kind == 'h')
            args[i].p = blob + w->off, args[i].n = w->n;
        else if (w->kind == 'f')
            args[i].f = w->f;
        else
            args[i].i = w->i;
    }
    if (rq->flags & GL_CALL_DELAY) {
        in_kit = 1;
        gl_delayed_copy(pool_ptr(rq->delay_dst), pool_ptr(rq->delay_src), rq->delay_bytes,
                        rq->delay_ms);
        in_kit = 0;
    }
    in_call = 1;
    t0 = now_ms();
    reply.ret = l->invoke(fn, args);
    reply.launcher_ms = now_ms() - t0;
    in_call = 0;
    in_kit = 1;
    err = cudaGetLastError();
    if (err == cudaSuccess && (rq->flags & GL_CALL_SYNC)) {
        err = cudaDeviceSynchronize();
        flush_gpu_record();
    }
    in_kit = 0;
    reply.status = err;
    reply.sticky = sticky(err);
}

static int loading; /* the student's file is being loaded (or the kit's baselines) */

static void fail_ready(gl_ready *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    r->ok = 0;
    r->kit_error = !loading; /* before the student's file: the GPU or the kit failed */
    write_all(TO_JUDGE, r, sizeof *r);
    exit(1);
}

int main(void)
{
    static unsigned char blob[GL_PROTO_BLOB];
    gl_hello hello;
    gl_ready ready;
    gl_containment c;
    cudaIpcMemHandle_t handle;
    struct link_map *map = NULL;
    cudaError_t err;
    void *base = NULL;

    signal(SIGPIPE, SIG_IGN);
    memset(&ready, 0, sizeof ready);
    ready.magic = GL_PROTO_MAGIC;
    if (read_all(FROM_JUDGE, &hello, sizeof hello) || hello.magic != GL_PROTO_MAGIC)
        return 2;

    hello.submission[sizeof hello.submission - 1] = '\0';
    kit = hello.kit;

    /* nothing of the judge's but the two pipes, the pool's descriptor (fd 5) and the standard
     * streams (/dev/null); under a tool (Nsight Compute, compute-sanitizer) the tool's own
     * channels stay open. Before CUDA opens its own. */
    if (!hello.profiled)
        for (int fd = 6; fd < 1024; fd++)
            close(fd);

    /* 1. the pool, while opening it is still allowed */
    in_kit = 1;
    if (hello.vmm) {
        char why[256];
        if ((err = cudaFree(0)) != cudaSuccess) /* the context the pool is mapped into */
            fail_ready(&ready, "the subject could not create its CUDA context: %s",
                       cudaGetErrorString(err));
        if (gl_vmm_import(5, hello.pool_bytes, &base, why, sizeof why) != 0)
            fail_ready(&ready, "the subject could not map the judge's memory: %s", why);
        close(5);
    } else {
        memcpy(&handle, hello.ipc_handle, sizeof handle);
        err = cudaIpcOpenMemHandle(&base, handle, cudaIpcMemLazyEnablePeerAccess);
        if (err != cudaSuccess)
            fail_ready(&ready, "the subject could not open the judge's memory (CUDA IPC): %s",
                       cudaGetErrorString(err));
    }
    pool = base;
    pool_bytes = hello.pool_bytes;
    hello.cupti[sizeof hello.cupti - 1] = '\0';
    if (!hello.profiled && hello.cupti[0] && gl_gpu_record_start(hello.cupti) == 0)
        cupti_on = ready.cupti = 1;
    in_kit = 0;

    /* 2. contained from here on. Under Nsight Compute its injected library
     * takes a lock file and opens files for writing: then only Landlock (this
     * thread and those it makes) guards the files, not seccomp. */
    if (hello.profiled) {
        const char *lock[] = {hello.ncu_lock, NULL};
        hello.ncu_lock[sizeof hello.ncu_lock - 1] = '\0';
        gl_contain_ex(&c, lock, GL_CONTAIN_WRITE_OPENS | hello.profiled_contain);
    } else {
        gl_contain(&c);
    }
    ready.landlock_abi = c.landlock_abi;
    ready.landlock = c.landlock;
    ready.seccomp = c.seccomp;
    ready.no_new_privs = c.no_new_privs;
    ready.pdeathsig = c.pdeathsig;
    snprintf(ready.why, sizeof ready.why, "%s", c.why);

    /* 3. the student's code: its constructors run now, contained, when the judge says so
     * (it holds the GPU's lock then; what came before ran while it did not) */
    {
        gl_request rq;
        if (read_all(FROM_JUDGE, &rq, sizeof rq) || rq.magic != GL_PROTO_MAGIC ||
            rq.op != GL_OP_LOAD)
            return 0; /* the judge is gone, or ends this subject before it is used */
    }
    loading = 1;
    submission = dlopen(hello.submission, RTLD_NOW | RTLD_LOCAL);
    if (!submission)
        fail_ready(&ready, "the submission could not be loaded: %s", dlerror());
    if (dlinfo(submission, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        snprintf(submission_path, sizeof submission_path, "%s", map->l_name);
    ready.ok = 1;
    if (write_all(TO_JUDGE, &ready, sizeof ready))
        return 1;

    for (;;) {
        gl_request rq;
        if (read_all(FROM_JUDGE, &rq, sizeof rq) || rq.magic != GL_PROTO_MAGIC)
            return 0; /* the judge is gone */
        if (rq.op == GL_OP_QUIT)
            return 0;
        if (rq.blob_bytes > sizeof blob || read_all(FROM_JUDGE, blob, rq.blob_bytes))
            return 2;
        if (rq.op == GL_OP_CALL) {
            serve_call(&rq, blob);
        } else { /* SYNC: everything this process started, on any stream; FLUSH: the record */
            memset(&reply, 0, sizeof reply);
            reply.magic = GL_PROTO_MAGIC;
            in_kit = 1;
            if (rq.op == GL_OP_FLUSH)
                flush_gpu_record();
            else
                err = cudaDeviceSynchronize(), reply.status = err, reply.sticky = sticky(err);
            in_kit = 0;
            reply.outside = outside;
            outside = 0;
        }
        /* the events in use only: a call's answer stays small */
        if (write_all(TO_JUDGE, &reply,
                      offsetof(gl_reply, events) + reply.nevents * sizeof(gl_event)))
            return 1;
    }
}
