/* interpose.c: the CUDA runtime calls the subject defines and exports (it is linked with
 * -rdynamic): the student's library binds to them before libcudart, and each tells the record
 * (subject.c) what was asked for, then forwards to the real one. Where CUPTI is present it sees
 * every route to the GPU (gpu_record.c) and these only forward; under Nsight Compute or
 * compute-sanitizer, which keep CUPTI to themselves, they are the record. */
#define _GNU_SOURCE
#include "protocol.h"
#include "subject.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>

static int other_stream(cudaStream_t s)
{
    return s != 0 && s != cudaStreamLegacy;
}

static void record(uint32_t type, const char *name, int in_sub, int other, uint64_t threads,
                   uint64_t bytes)
{
    gl_subject_record(type, name, in_sub, other, threads, bytes);
}

static void record_kernel(const void *func, dim3 grid, dim3 block, size_t shmem,
                          cudaStream_t stream)
{
    const char *name = NULL;
    Dl_info info;
    char buf[224];
    /* the device name from the runtime (CUDA 12.3 and newer), else the
     * host stub's symbol, which has the same mangled name unless static */
    static cudaError_t (*get_name)(const char **, const void *);
    if (!get_name)
        *(void **)&get_name = dlsym(RTLD_DEFAULT, "cudaFuncGetName");
    if (!get_name || get_name(&name, func) != cudaSuccess || !name) {
        cudaGetLastError();
        name = dladdr(func, &info) && info.dli_sname ? info.dli_sname : NULL;
    }
    snprintf(buf, sizeof buf, "%s", name ? name : "(a kernel without a name)");
    record(GL_EV_KERNEL, buf, gl_subject_from_submission(func), other_stream(stream),
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

