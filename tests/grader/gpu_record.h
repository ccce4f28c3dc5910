/* gpu_record.h: every route of the subject to the GPU, as CUPTI sees it (gpu_record.c). */
#ifndef GL_GPU_RECORD_H
#define GL_GPU_RECORD_H

#include "protocol.h"

#include <stddef.h>

typedef struct {
    /* The calling thread's origin: the request number of the call it serves (>= 0),
     * GL_ORIGIN_KIT (the kit's own code) or GL_ORIGIN_OUTSIDE (any other thread, or a
     * constructor). */
    int (*origin)(void);
    /* A driver call of a kind the judge has a policy for (GL_EV_*): its origin, its name. */
    void (*api)(int origin, uint32_t type, const char *name);
    /* Something the subject must not do, seen as it happened (GL_TAINT_*). */
    void (*taint)(uint32_t flag, const char *what);
    /* At a flush: one piece of work the GPU did. */
    void (*gpu)(const gl_gpu_event *e);
} gl_gpu_hooks;

/* Loads CUPTI (its path), subscribes to every driver call and to the loading of modules and
 * contexts, and starts the activity record. 0, or -1 with why. */
int gl_gpu_record_start(const char *cupti_path, const gl_gpu_hooks *hooks, char *why,
                        size_t len);

/* The student's file is about to load: from now on a context created is a taint, and so is
 * a module whose code is not `cubin` (bytes of the student's compiled file), unless the kit's
 * own code loads it. cubin NULL: modules are not checked. pool: the judge's memory (a copy
 * that touches it is a copy, one that does not is a symbol copy). */
void gl_gpu_record_student(const void *cubin, size_t cubin_bytes, const void *pool,
                           size_t pool_bytes);

/* Hands every piece of work that finished since the last flush to hooks->gpu, in the order
 * it was started. Returns 0, or -1 when the record lost something (a correlation table or a
 * buffer overflowed): the call that flushed it must fail. */
int gl_gpu_record_flush(void);

#endif
