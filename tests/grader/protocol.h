/* protocol.h: what the judge and the subject say to each other over a pair
 * of pipes. Fixed-size little records: the judge is the only side that
 * decides anything, so a garbled or missing answer is just a failed test.
 *
 *   judge -> subject   hello: the pool's CUDA IPC handle and the paths
 *   subject -> judge   ready: what containment it applied, or why it could not
 *   judge -> subject   call | sync | quit
 *   subject -> judge   done: CUDA status, return value, what the call launched */
#ifndef GL_PROTOCOL_H
#define GL_PROTOCOL_H

#include <stdint.h>

#define GL_PROTO_MAGIC 0x67706c31u /* "gpl1" */
#define GL_PROTO_ARGS 12
#define GL_PROTO_BLOB 65536   /* host arrays of one call, in bytes */
#define GL_PROTO_EVENTS 32    /* kinds of things one call did, aggregated */

/* SYNC answers as soon as the device is idle (it ends a timed round); FLUSH then
 * hands over what CUPTI recorded, outside the judge's clock. */
/* LOAD: the first request: load the student's file (until then the subject runs only the kit's
 * code: its context and the pool are made while the judge does not hold the GPU's lock) */
enum { GL_OP_CALL = 1, GL_OP_SYNC = 2, GL_OP_QUIT = 3, GL_OP_FLUSH = 4, GL_OP_LOAD = 5 };

enum {                    /* gl_request.flags */
    GL_CALL_SYNC = 1,     /* synchronise the device after the launcher returns */
    GL_CALL_DELAY = 2     /* before the call, enqueue the kit's delayed copy */
};

typedef struct {
    uint32_t magic;
    char ipc_handle[64];  /* cudaIpcMemHandle_t of the pool (when vmm is 0) */
    int32_t vmm;          /* the pool comes as a file descriptor (fd 5) of the driver's
                             virtual memory API (vmm_pool.h) */
    uint64_t pool_bytes;
    int32_t profiled;     /* under Nsight Compute: its lock file stays writable, no CUPTI */
    int32_t profiled_contain; /* extra gl_contain_ex flags under a tool (a diagnosis:
                                 GL_PROFILE_CONTAIN in the judge's environment) */
    int32_t kit;          /* a kit subject: `submission` is the lab's own baselines, timed the
                             same way as a student's launchers */
    char cupti[1024];     /* libcupti to record the GPU's work with, or "" */
    char ncu_lock[512];
    char submission[4096];
} gl_hello;

typedef struct {
    uint32_t magic;
    int32_t ok;           /* 1: contained, submission loaded, serving */
    int32_t kit_error;    /* not ok before the student's file was loaded: the kit's problem */
    int32_t landlock_abi, landlock, seccomp, no_new_privs, pdeathsig;
    int32_t cupti;        /* the GPU's work is recorded by CUPTI too */
    char why[1024];       /* when not ok (or what containment is missing) */
} gl_ready;

typedef struct {
    uint32_t kind;        /* layout letter: 'p' (offset in the pool, or ~0 for NULL), 'i', 'f', 'h' */
    int64_t i;
    double f;
    uint64_t off;         /* 'p': offset in the pool; 'h': offset in the blob */
    uint64_t n;           /* 'h': bytes */
} gl_wire_arg;

typedef struct {
    uint32_t magic, op, flags, nargs;
    char launcher[64];
    gl_wire_arg args[GL_PROTO_ARGS];
    uint64_t delay_dst, delay_src, delay_bytes; /* GL_CALL_DELAY: pool offsets */
    double delay_ms;
    uint32_t blob_bytes;  /* host arrays follow the request */
} gl_request;

enum {                    /* what a launcher did, as the subject saw it */
    GL_EV_KERNEL = 1,     /* a kernel launch */
    GL_EV_COPY,           /* cudaMemcpy*: name is the call */
    GL_EV_MEMSET,
    GL_EV_SYMBOL_COPY,    /* cudaMemcpyToSymbol* */
    GL_EV_HOST_FN,        /* cudaLaunchHostFunc, cudaStreamAddCallback */
    GL_EV_STREAM,         /* cudaStreamCreate* */
    GL_EV_GRAPH,          /* cudaGraphLaunch */
    GL_EV_SYNC,           /* cudaDeviceSynchronize, cudaStreamSynchronize */
    GL_EV_EVENT,          /* cudaEventRecord, cudaStreamWaitEvent */
    GL_EV_ALLOC,          /* cudaMalloc*, cudaFree */
    GL_EV_GPU_KERNEL = 11,/* CUPTI: a kernel that ran (whoever launched it) */
    GL_EV_GPU_COPY,       /* CUPTI: a copy the GPU did */
    GL_EV_GPU_MEMSET      /* CUPTI: a memset the GPU did */
};

typedef struct {
    uint32_t type;
    char name[224];       /* a kernel's device (mangled) name, else the API call */
    int32_t in_submission;/* the kernel is a function of the student's file */
    int32_t other_stream; /* launched or copied on a stream other than the default one */
    uint64_t count;       /* how many times */
    uint64_t threads;     /* kernels: blocks x threads, summed */
    uint64_t bytes;       /* copies and memsets: bytes, summed; kernels: the largest dynamic
                             shared memory of a launch (extern __shared__), bytes */
} gl_event;

typedef struct {
    uint32_t magic;
    int32_t status;       /* cudaError_t: the launch, or the synchronisation after it */
    int32_t sticky;       /* the context is broken: the judge ends this subject */
    int32_t missing;      /* the launcher is not defined in the submission */
    int64_t ret;
    double launcher_ms;   /* host time inside the launcher */
    uint32_t nevents;     /* entries of events[] used */
    uint32_t outside;     /* things done outside any call since the last answer */
    gl_event events[GL_PROTO_EVENTS];
} gl_reply;

#endif
