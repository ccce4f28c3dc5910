/* gpu_record.c: what the subject really did with the GPU, from CUPTI (where the toolkit
 * ships it). The runtime calls the subject interposes (subject.c) are what the student's file
 * asks for by name; a copy of libcudart reached through dlsym, the driver API, a JIT-loaded
 * module or a library's own runtime passes them by. CUPTI sees all of it:
 *  - every driver call, on the thread that makes it (the runtime's calls end in the driver
 *    too): its kind, its origin (the call the serving thread runs, the kit, or outside any
 *    call), and a correlation number that the GPU's record of the same work carries;
 *  - every module loaded, with its code: after the student's file loads, code that is not
 *    its compiled file (bytes compared with submission.cubin) is a taint, as is a context of
 *    its own;
 *  - every kernel, copy and memset the GPU ran, placed by its correlation number; work that
 *    no call of the subject's started cannot be placed, and the judge fails the call.
 * Nothing here decides a verdict: it hands what it saw to the subject's hooks. */
#define _GNU_SOURCE
#include "gpu_record.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<cupti.h>)
#include <cupti.h>
#define GL_HAVE_CUPTI 1
#endif
#endif

#ifdef GL_HAVE_CUPTI

#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 kernel_record;
#elif CUPTI_API_VERSION >= 18
typedef CUpti_ActivityKernel9 kernel_record;
#else
typedef CUpti_ActivityKernel5 kernel_record;
#endif

/* the first fields of every version of the copy and memset records */
typedef struct {
    CUpti_ActivityKind kind;
    uint8_t copy_kind, src_kind, dst_kind, flags;
    uint64_t bytes, start, end;
    uint32_t device, context, stream, correlation;
} copy_prefix;

typedef struct {
    CUpti_ActivityKind kind;
    uint32_t value;
    uint64_t bytes, start, end;
    uint32_t device, context, stream, correlation;
} memset_prefix;

static struct {
    CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
    CUptiResult (*enable_domain)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain);
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc,
                                      CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*enable)(CUpti_ActivityKind);
    CUptiResult (*flush_all)(uint32_t);
    CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
    CUptiResult (*context_id)(CUcontext, uint32_t *);
    CUptiResult (*stream_id)(CUcontext, CUstream, uint8_t, uint32_t *);
    CUptiResult (*enable_callback)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain,
                                   CUpti_CallbackId);
    CUptiResult (*callback_name)(CUpti_CallbackDomain, uint32_t, const char **);
} api;

static gl_gpu_hooks hooks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t primary_context, default_stream;
static int know_stream;             /* default_stream is known */
static int student;                 /* the student's file is loaded or loading */
static const unsigned char *cubin;  /* its compiled code */
static size_t cubin_bytes;
static uintptr_t pool_lo, pool_hi;
static int lost;                    /* something was not recorded: the next flush says so */

/* ---- the kinds of driver calls, by name (cached per callback id) ---- */

enum { K_OTHER = 1, K_LAUNCH, K_COPY, K_SYMBOL_COPY, K_MEMSET, K_HOST_FN, K_STREAM, K_GRAPH,
       K_HOST_MEMORY, K_CONTEXT, K_SYNC, K_EVENT, K_ALLOC };

static const struct {
    const char *prefix;
    int kind;
} kinds[] = {
    {"cuLaunchHostFunc", K_HOST_FN}, {"cuStreamAddCallback", K_HOST_FN},
    {"cuLaunch", K_LAUNCH},          {"cuGraphLaunch", K_GRAPH},
    {"cuMemcpy", K_COPY},            {"cuMemset", K_MEMSET},
    {"cuStreamCreate", K_STREAM},    {"cuMemHostAlloc", K_HOST_MEMORY},
    {"cuMemAllocHost", K_HOST_MEMORY}, {"cuMemHostRegister", K_HOST_MEMORY},
    {"cuMemAllocManaged", K_HOST_MEMORY}, {"cuCtxCreate", K_CONTEXT},
    {"cuGreenCtxCreate", K_CONTEXT}, {"cuCtxFromGreenCtx", K_CONTEXT},
    {"cuCtxSynchronize", K_SYNC},    {"cuStreamSynchronize", K_SYNC},
    {"cuEventSynchronize", K_SYNC},  {"cuEventRecord", K_EVENT},
    {"cuStreamWaitEvent", K_EVENT},  {"cuMemAlloc", K_ALLOC},
    {"cuMemFree", K_ALLOC},
};

#define MAX_CBID 4096
static unsigned char kind_of_cbid[MAX_CBID]; /* 0: not classified yet */

static int classify(CUpti_CallbackId cbid, const char *name)
{
    int k = K_OTHER;
    size_t i;
    if (cbid < MAX_CBID && kind_of_cbid[cbid])
        return kind_of_cbid[cbid];
    for (i = 0; name && i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strncmp(name, kinds[i].prefix, strlen(kinds[i].prefix))) {
            k = kinds[i].kind;
            break;
        }
    if (cbid < MAX_CBID)
        kind_of_cbid[cbid] = (unsigned char)k;
    return k;
}

static int in_pool(uintptr_t p)
{
    return p >= pool_lo && p < pool_hi;
}

/* A copy from the host to memory outside the judge's pool (a __constant__ symbol) is a
 * symbol copy; a copy that reads or writes the pool, or lands on the host, is a copy. */
static int copy_kind(CUpti_CallbackId cbid, const void *params)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds:
        return in_pool(((const cuMemcpyHtoD_v2_params *)params)->dstDevice) ? K_COPY
                                                                            : K_SYMBOL_COPY;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz:
        return in_pool(((const cuMemcpyHtoDAsync_v2_params *)params)->dstDevice)
                   ? K_COPY
                   : K_SYMBOL_COPY;
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds: {
        const cuMemcpy_params *p = params;
        return in_pool(p->dst) || in_pool(p->src) ? K_COPY : K_SYMBOL_COPY;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz: {
        const cuMemcpyAsync_params *p = params;
        return in_pool(p->dst) || in_pool(p->src) ? K_COPY : K_SYMBOL_COPY;
    }
    default:
        return K_COPY;
    }
}

/* ---- correlation numbers: which call started a piece of work ---- */

#define CORR_SLOTS (1 << 16)
static struct {
    uint32_t corr;
    int32_t origin;
    uint8_t symbol;
} corr_map[CORR_SLOTS];
static unsigned corr_used;

static void corr_put(uint32_t corr, int origin, int symbol)
{
    unsigned h = (corr * 2654435761u) & (CORR_SLOTS - 1), probes;
    if (!corr)
        return;
    if (corr_used >= CORR_SLOTS * 3 / 4) {
        lost = 1; /* more work between two flushes than the table holds */
        return;
    }
    for (probes = 0; corr_map[h].corr && corr_map[h].corr != corr; probes++)
        h = (h + 1) & (CORR_SLOTS - 1);
    if (!corr_map[h].corr)
        corr_used++;
    corr_map[h].corr = corr;
    corr_map[h].origin = origin;
    corr_map[h].symbol = (uint8_t)symbol;
}

static int corr_get(uint32_t corr, int *symbol)
{
    unsigned h = (corr * 2654435761u) & (CORR_SLOTS - 1);
    *symbol = 0;
    while (corr && corr_map[h].corr) {
        if (corr_map[h].corr == corr) {
            *symbol = corr_map[h].symbol;
            return corr_map[h].origin;
        }
        h = (h + 1) & (CORR_SLOTS - 1);
    }
    return GL_ORIGIN_UNPLACED;
}

/* ---- the callbacks ---- */

static void on_module(const CUpti_ResourceData *rd)
{
    const CUpti_ModuleResourceData *m = rd->resourceDescriptor;
    char what[256];
    if (!student || !cubin || !m || hooks.origin() == GL_ORIGIN_KIT)
        return;
    if (m->cubinSize == cubin_bytes && m->pCubin && !memcmp(m->pCubin, cubin, cubin_bytes))
        return; /* the student's compiled file */
    snprintf(what, sizeof what, "loaded %zu bytes of GPU code that are not compiled from "
             "your file (a PTX or cubin image loaded through the driver API, a JIT link, or a "
             "library's kernels)",
             m->cubinSize);
    hooks.taint(GL_TAINT_MODULE, what);
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain,
                                 CUpti_CallbackId cbid, const void *data)
{
    const CUpti_CallbackData *cd = data;
    int kind, origin;
    (void)userdata;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
            on_module(data);
        else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
            uint32_t id = 0;
            const CUpti_ResourceData *rd = data;
            if (api.context_id(rd->context, &id) != CUPTI_SUCCESS || id != primary_context)
                hooks.taint(GL_TAINT_CONTEXT, "created a CUDA context of its own (cuCtxCreate, "
                                              "a green context): its work escapes the device's "
                                              "synchronisation");
        }
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cd->callbackSite != CUPTI_API_ENTER)
        return;
    kind = classify(cbid, cd->functionName);
    if (kind == K_COPY)
        kind = copy_kind(cbid, cd->functionParams);
    origin = hooks.origin();
    pthread_mutex_lock(&lock);
    corr_put(cd->correlationId, origin, kind == K_SYMBOL_COPY);
    pthread_mutex_unlock(&lock);
    switch (kind) {
    case K_COPY: hooks.api(origin, GL_EV_COPY, cd->functionName); break;
    case K_SYMBOL_COPY: hooks.api(origin, GL_EV_SYMBOL_COPY, cd->functionName); break;
    case K_MEMSET: hooks.api(origin, GL_EV_MEMSET, cd->functionName); break;
    case K_HOST_FN: hooks.api(origin, GL_EV_HOST_FN, cd->functionName); break;
    case K_STREAM: hooks.api(origin, GL_EV_STREAM, cd->functionName); break;
    case K_GRAPH: hooks.api(origin, GL_EV_GRAPH, cd->functionName); break;
    case K_HOST_MEMORY: hooks.api(origin, GL_EV_HOST_MEMORY, cd->functionName); break;
    case K_CONTEXT: hooks.api(origin, GL_EV_CONTEXT, cd->functionName); break;
    case K_SYNC: hooks.api(origin, GL_EV_SYNC, cd->functionName); break;
    case K_EVENT: hooks.api(origin, GL_EV_EVENT, cd->functionName); break;
    case K_ALLOC: hooks.api(origin, GL_EV_ALLOC, cd->functionName); break;
    default: break; /* launches: the GPU's record names the kernel and its stream */
    }
}

/* ---- the GPU's record ---- */

static gl_gpu_event *pending;       /* finished work, not flushed yet */
static size_t npending, cap_pending;

static void keep(const gl_gpu_event *e)
{
    if (npending == cap_pending) {
        size_t cap = cap_pending ? 2 * cap_pending : 1024;
        gl_gpu_event *p = cap <= 4 * GL_PROTO_GPU ? realloc(pending, cap * sizeof *p) : NULL;
        if (!p) {
            lost = 1;
            return;
        }
        pending = p;
        cap_pending = cap;
    }
    pending[npending++] = *e;
}

static void place(gl_gpu_event *e, uint32_t context, uint32_t stream)
{
    int symbol;
    e->origin = corr_get(e->correlation, &symbol);
    e->symbol_copy = symbol;
    e->other_context = context != primary_context;
    e->other_stream = know_stream && stream != default_stream;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *size = 1 << 20;
    *buffer = aligned_alloc(8, *size);
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    CUpti_Activity *r = NULL;
    (void)ctx;
    (void)stream;
    (void)size;
    pthread_mutex_lock(&lock);
    while (buffer && api.next_record(buffer, valid, &r) == CUPTI_SUCCESS) {
        gl_gpu_event e;
        memset(&e, 0, sizeof e);
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
            r->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const kernel_record *k = (const kernel_record *)r;
            e.type = GL_GPU_KERNEL;
            snprintf(e.name, sizeof e.name, "%s", k->name ? k->name : "?");
            e.grid[0] = (uint32_t)k->gridX, e.grid[1] = (uint32_t)k->gridY;
            e.grid[2] = (uint32_t)k->gridZ;
            e.block[0] = (uint32_t)k->blockX, e.block[1] = (uint32_t)k->blockY;
            e.block[2] = (uint32_t)k->blockZ;
            e.dynamic_smem = (uint64_t)k->dynamicSharedMemory;
            e.start = k->start, e.end = k->end;
            e.correlation = k->correlationId;
            place(&e, k->contextId, k->streamId);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const copy_prefix *c = (const copy_prefix *)r;
            e.type = GL_GPU_COPY;
            snprintf(e.name, sizeof e.name, "a copy");
            e.bytes = c->bytes, e.start = c->start, e.end = c->end;
            e.correlation = c->correlation;
            e.pageable = c->src_kind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE ||
                         c->dst_kind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
            place(&e, c->context, c->stream);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            const memset_prefix *m = (const memset_prefix *)r;
            e.type = GL_GPU_MEMSET;
            snprintf(e.name, sizeof e.name, "a memset");
            e.bytes = m->bytes, e.start = m->start, e.end = m->end;
            e.correlation = m->correlation;
            place(&e, m->context, m->stream);
        } else {
            continue;
        }
        keep(&e);
    }
    pthread_mutex_unlock(&lock);
    free(buffer);
}

/* Callbacks for the driver calls that start work on the GPU or that the labs refuse (a
 * callback costs microseconds, and the runtime makes several driver calls a launch: the
 * waits, events and allocations it makes are left alone); every driver call where CUPTI
 * cannot name them. */
static CUptiResult enable_driver_calls(CUpti_SubscriberHandle subscriber)
{
    CUpti_CallbackId cbid;
    int launches = 0;
    if (!api.enable_callback || !api.callback_name)
        return api.enable_domain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    for (cbid = 1; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE && cbid < MAX_CBID; cbid++) {
        const char *name = NULL, *cut;
        int kind;
        if (api.callback_name(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &name) != CUPTI_SUCCESS || !name)
            continue;
        if ((cut = strstr(name, "CBID_"))) /* a name given with its enum's prefix */
            name = cut + 5;
        kind = classify(cbid, name);
        if (kind == K_OTHER || kind == K_SYNC || kind == K_EVENT || kind == K_ALLOC)
            continue;
        launches += kind == K_LAUNCH;
        if (api.enable_callback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid) != CUPTI_SUCCESS)
            return api.enable_domain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    }
    /* names this CUPTI does not give as expected: every call, rather than a blind record */
    return launches ? CUPTI_SUCCESS : api.enable_domain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
}

int gl_gpu_record_start(const char *cupti_path, const gl_gpu_hooks *h, char *why, size_t len)
{
    CUpti_SubscriberHandle subscriber;
    CUresult (*current)(CUcontext *);
    CUcontext ctx = NULL;
    void *lib, *cuda;
    CUptiResult r;
    if (!cupti_path || !*cupti_path || !(lib = dlopen(cupti_path, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(why, len, "CUPTI could not be loaded (%s)", cupti_path ? cupti_path : "none");
        return -1;
    }
    *(void **)&api.subscribe = dlsym(lib, "cuptiSubscribe");
    *(void **)&api.enable_domain = dlsym(lib, "cuptiEnableDomain");
    *(void **)&api.register_callbacks = dlsym(lib, "cuptiActivityRegisterCallbacks");
    *(void **)&api.enable = dlsym(lib, "cuptiActivityEnable");
    *(void **)&api.flush_all = dlsym(lib, "cuptiActivityFlushAll");
    *(void **)&api.next_record = dlsym(lib, "cuptiActivityGetNextRecord");
    *(void **)&api.context_id = dlsym(lib, "cuptiGetContextId");
    *(void **)&api.stream_id = dlsym(lib, "cuptiGetStreamIdEx");
    *(void **)&api.enable_callback = dlsym(lib, "cuptiEnableCallback");
    *(void **)&api.callback_name = dlsym(lib, "cuptiGetCallbackName");
    cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    *(void **)&current = cuda ? dlsym(cuda, "cuCtxGetCurrent") : NULL;
    if (!api.subscribe || !api.enable_domain || !api.register_callbacks || !api.enable ||
        !api.flush_all || !api.next_record || !api.context_id || !current) {
        snprintf(why, len, "%s lacks a function the grader needs", cupti_path);
        return -1;
    }
    hooks = *h;
    if (current(&ctx) != CUDA_SUCCESS || !ctx || api.context_id(ctx, &primary_context)) {
        snprintf(why, len, "no CUDA context to record yet");
        return -1;
    }
    know_stream = api.stream_id && api.stream_id(ctx, NULL, 0, &default_stream) == CUPTI_SUCCESS;
    if ((r = api.subscribe(&subscriber, (CUpti_CallbackFunc)on_callback, NULL)) !=
            CUPTI_SUCCESS ||
        enable_driver_calls(subscriber) != CUPTI_SUCCESS ||
        api.enable_domain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE) != CUPTI_SUCCESS ||
        api.register_callbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
        api.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS ||
        api.enable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS ||
        api.enable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS) {
        snprintf(why, len, "CUPTI would not record here (error %d: another tool holds it?)",
                 (int)r);
        return -1;
    }
    return 0;
}

void gl_gpu_record_student(const void *code, size_t code_bytes, const void *pool,
                           size_t pool_bytes)
{
    cubin = code;
    cubin_bytes = code_bytes;
    pool_lo = (uintptr_t)pool;
    pool_hi = pool_lo + pool_bytes;
    student = 1;
}

static int by_correlation(const void *a, const void *b)
{
    const gl_gpu_event *x = a, *y = b;
    return x->correlation < y->correlation ? -1 : x->correlation > y->correlation;
}

int gl_gpu_record_flush(void)
{
    size_t i;
    int was_lost;
    if (!api.flush_all)
        return 0;
    api.flush_all(1); /* CUPTI_ACTIVITY_FLAG_FLUSH_FORCED: everything finished so far */
    pthread_mutex_lock(&lock);
    qsort(pending, npending, sizeof *pending, by_correlation);
    for (i = 0; i < npending; i++)
        hooks.gpu(&pending[i]);
    npending = 0;
    memset(corr_map, 0, sizeof corr_map);
    corr_used = 0;
    was_lost = lost;
    lost = 0;
    pthread_mutex_unlock(&lock);
    return was_lost ? -1 : 0;
}

#else /* no CUPTI headers where this was built */

int gl_gpu_record_start(const char *cupti_path, const gl_gpu_hooks *h, char *why, size_t len)
{
    (void)cupti_path;
    (void)h;
    snprintf(why, len, "the kit was built without CUPTI's headers");
    return -1;
}

void gl_gpu_record_student(const void *code, size_t code_bytes, const void *pool,
                           size_t pool_bytes)
{
    (void)code;
    (void)code_bytes;
    (void)pool;
    (void)pool_bytes;
}

int gl_gpu_record_flush(void)
{
    return 0;
}

#endif
