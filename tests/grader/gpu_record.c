/* gpu_record.c: what really ran on the GPU for the subject, from CUPTI's
 * activity records (where the toolkit ships CUPTI). The CUDA calls the
 * subject interposes (subject.c) see what the student's code asks the
 * runtime for; a library with its own copy of the runtime (cuBLAS) or the
 * driver API reached through dlopen is not seen there, but every kernel,
 * copy and memset it starts is seen here. */
#define _GNU_SOURCE
#include "gpu_record.h"

#include <dlfcn.h>
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
    uint64_t bytes;
} copy_prefix;

typedef struct {
    CUpti_ActivityKind kind;
    uint32_t value;
    uint64_t bytes;
} memset_prefix;

static struct {
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc,
                                      CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*enable)(CUpti_ActivityKind);
    CUptiResult (*flush_all)(uint32_t);
    CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
} api;

static gl_gpu_sink sink;
static void *sink_ctx;

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
    while (buffer && api.next_record(buffer, valid, &r) == CUPTI_SUCCESS) {
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const kernel_record *k = (const kernel_record *)r;
            unsigned long long threads = (unsigned long long)k->gridX * k->gridY * k->gridZ *
                                         k->blockX * k->blockY * k->blockZ;
            if (sink)
                sink(sink_ctx, GL_GPU_KERNEL, k->name ? k->name : "?", threads,
                     (unsigned long long)k->dynamicSharedMemory);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            if (sink)
                sink(sink_ctx, GL_GPU_COPY, "a copy", 0, ((const copy_prefix *)r)->bytes);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            if (sink)
                sink(sink_ctx, GL_GPU_MEMSET, "a memset", 0, ((const memset_prefix *)r)->bytes);
        }
    }
    free(buffer);
}

int gl_gpu_record_start(const char *cupti_path)
{
    void *lib;
    if (!cupti_path || !*cupti_path || !(lib = dlopen(cupti_path, RTLD_NOW | RTLD_LOCAL)))
        return -1;
    *(void **)&api.register_callbacks = dlsym(lib, "cuptiActivityRegisterCallbacks");
    *(void **)&api.enable = dlsym(lib, "cuptiActivityEnable");
    *(void **)&api.flush_all = dlsym(lib, "cuptiActivityFlushAll");
    *(void **)&api.next_record = dlsym(lib, "cuptiActivityGetNextRecord");
    if (!api.register_callbacks || !api.enable || !api.flush_all || !api.next_record)
        return -1;
    if (api.register_callbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
        api.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS ||
        api.enable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS ||
        api.enable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS)
        return -1;
    return 0;
}

void gl_gpu_record_flush(gl_gpu_sink to, void *ctx)
{
    if (!api.flush_all)
        return;
    sink = to;
    sink_ctx = ctx;
    api.flush_all(1); /* CUPTI_ACTIVITY_FLAG_FLUSH_FORCED: everything finished so far */
    sink = NULL;
}

#else /* no CUPTI headers where this was built */

int gl_gpu_record_start(const char *cupti_path)
{
    (void)cupti_path;
    return -1;
}

void gl_gpu_record_flush(gl_gpu_sink to, void *ctx)
{
    (void)to;
    (void)ctx;
}

#endif
