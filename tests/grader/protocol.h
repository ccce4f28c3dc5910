/* protocol.h: what the judge and the subject say to each other, and where.
 *
 * Everything is said through a mailbox: shared memory the judge creates (a memfd) and the
 * subject maps before it loads the student's file, then closes the descriptor of. The
 * student's code may read, write, dup or replace any file descriptor of its process
 * (GRADING.md), so no word of the protocol travels through one: two pipes carry only
 * doorbells, a byte that says "look at the mailbox". A doorbell the student's code forges
 * finds nothing new there and is ignored; one it swallows costs the test its time. Writing
 * into the mailbox itself is overwriting the kit's data in the subject's memory, which is
 * out of scope (README: what a grade withstands); the judge still checks every count it
 * reads from it, so that a garbled mailbox is a failed test and never a broken judge.
 *
 *   judge      hello (before the subject starts): the pool, the paths, what to record
 *   subject    ready: what containment it applied, or why it could not start
 *   judge      LOAD, then CALL | SYNC | FLUSH | QUIT, each in a slot of the request ring
 *   subject    each answer in the same slot: the CUDA status and what the call did
 *   subject    at any moment, taint: a context or code of its own, seen as it happened */
#ifndef GL_PROTOCOL_H
#define GL_PROTOCOL_H

#include <stdint.h>

#define GL_PROTO_MAGIC 0x67706c32u /* "gpl2" */
#define GL_PROTO_ARGS 12
#define GL_PROTO_BLOB 65536   /* host arrays of one call, in bytes */
#define GL_PROTO_SLOTS 32     /* requests in flight: a timed round's calls */
#define GL_PROTO_EVENTS 64    /* kinds of things one call did; a call that does more fails */
#define GL_PROTO_GPU 8192     /* GPU records of one flush; more fails the call */
#define GL_MAILBOX_FD 6       /* the mailbox's descriptor in a new subject (the pool's is 5) */
#define GL_HOST_POOL_FD 7     /* the pinned host pool's, where the lab has one (host_pool.h) */

/* SYNC answers as soon as the device is idle (it ends a timed round); FLUSH then
 * hands over what CUPTI recorded, outside the judge's clock. */
/* LOAD: the first request: load the student's file (until then the subject runs only the kit's
 * code: its context and the pool are made while the judge does not hold the GPU's lock) */
enum { GL_OP_CALL = 1, GL_OP_SYNC = 2, GL_OP_QUIT = 3, GL_OP_FLUSH = 4, GL_OP_LOAD = 5 };

enum {                    /* gl_request.flags */
    GL_CALL_SYNC = 1,     /* synchronise the device after the launcher returns */
    GL_CALL_DELAY = 2,    /* before the call, enqueue the kit's delayed copy */
    GL_CALL_DELAY_HOST = 4 /* its destination is in the host pool (else the pool) */
};

enum {                    /* gl_mailbox.taint: things the subject saw as they happened */
    GL_TAINT_CONTEXT = 1, /* a CUDA context other than the primary one was created */
    GL_TAINT_MODULE = 2   /* code not compiled from the student's file was loaded */
};

typedef struct {
    int32_t vmm;          /* the pool comes as a file descriptor (fd 5) of the driver's
                             virtual memory API (vmm_pool.h); else ipc_handle */
    char ipc_handle[64];  /* cudaIpcMemHandle_t of the pool (when vmm is 0) */
    uint64_t pool_bytes;
    uint64_t host_pool_bytes; /* the lab's pinned host pool (fd 7), or 0: none */
    int32_t profiled;     /* under Nsight Compute or compute-sanitizer: its lock file stays
                             writable, no CUPTI */
    int32_t profiled_contain; /* extra gl_contain_ex flags under a tool (a diagnosis:
                                 GL_PROFILE_CONTAIN in the judge's environment) */
    int32_t kit;          /* a kit subject: `submission` is the lab's own baselines, timed the
                             same way as a student's launchers */
    char cupti[1024];     /* libcupti to record the GPU's work with, or "" */
    char cubin[4096];     /* the student's file compiled for this GPU (submission.cubin): the
                             only code its kernels may come from; "" where it cannot be told */
    char ncu_lock[512];
    char submission[4096];
} gl_hello;

typedef struct {
    int32_t ok;           /* 1: contained, submission loaded, serving */
    int32_t kit_error;    /* not ok before the student's file was loaded: the kit's problem */
    int32_t landlock_abi, landlock, seccomp, no_new_privs, pdeathsig;
    int32_t cupti;        /* the GPU's work is recorded by CUPTI too (every route to it) */
    int32_t modules;      /* every module loaded is compared with the student's cubin */
    char why[1024];       /* when not ok (or what containment is missing) */
} gl_ready;

typedef struct {
    uint32_t kind;        /* layout letter: 'p' (offset in the pool, or ~0 for NULL), 'i', 'f', 'h',
                             'H' (offset in the host pool, or ~0 for NULL) */
    int64_t i;
    double f;
    uint64_t off;         /* 'p': offset in the pool; 'H': in the host pool; 'h': in the blob */
    uint64_t n;           /* 'h': bytes */
} gl_wire_arg;

typedef struct {
    uint32_t op, flags, nargs;
    char launcher[64];
    gl_wire_arg args[GL_PROTO_ARGS];
    uint64_t delay_dst, delay_src, delay_bytes; /* GL_CALL_DELAY: pool offsets */
    double delay_ms;
    uint32_t blob_bytes;  /* host arrays, in the slot's blob */
} gl_request;

enum {                    /* what a launcher did, as the subject saw it */
    GL_EV_KERNEL = 1,     /* a kernel launch (the runtime's launch call: no CUPTI) */
    GL_EV_COPY,           /* a copy: name is the call */
    GL_EV_MEMSET,
    GL_EV_SYMBOL_COPY,    /* cudaMemcpyToSymbol*: a copy to memory outside the judge's pool */
    GL_EV_HOST_FN,        /* cudaLaunchHostFunc, cudaStreamAddCallback */
    GL_EV_STREAM,         /* cudaStreamCreate* */
    GL_EV_GRAPH,          /* cudaGraphLaunch */
    GL_EV_SYNC,           /* cudaDeviceSynchronize, cudaStreamSynchronize */
    GL_EV_EVENT,          /* cudaEventRecord, cudaStreamWaitEvent */
    GL_EV_ALLOC,          /* cudaMalloc*, cudaFree */
    GL_EV_HOST_MEMORY,    /* pinned or managed memory: the GPU reading or writing the host's */
    GL_EV_CONTEXT,        /* a context of its own */
    GL_EV_MODULE          /* code loaded that is not the student's compiled file */
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
    int32_t status;       /* cudaError_t: the launch, or the synchronisation after it */
    int32_t sticky;       /* the context is broken: the judge ends this subject */
    int32_t missing;      /* the launcher is not defined in the submission */
    int64_t ret;
    double launcher_ms;   /* host time inside the launcher */
    uint32_t nevents;     /* entries of events[] used */
    uint32_t overflow;    /* the call did more kinds of things than events[] holds */
    uint32_t outside;     /* things done outside any call (another thread, a constructor) */
    uint32_t ngpu;        /* a flush: records in the mailbox's gpu[] */
    uint32_t gpu_overflow;/* a flush: more than GL_PROTO_GPU, or the record lost some */
    gl_event events[GL_PROTO_EVENTS];
} gl_reply;

enum { GL_GPU_KERNEL = 1, GL_GPU_COPY, GL_GPU_MEMSET };
enum {                    /* gl_gpu_event.origin when not a call's request number */
    GL_ORIGIN_KIT = -1,   /* the kit's own work in the subject (its delayed copy) */
    GL_ORIGIN_OUTSIDE = -2, /* started outside any call: another thread, a constructor */
    GL_ORIGIN_UNPLACED = -3 /* the record saw no call start it (a route it cannot follow) */
};

/* One piece of work the GPU did, as CUPTI's activity record saw it. */
typedef struct {
    uint32_t type;        /* GL_GPU_* */
    int32_t origin;       /* the request number of the call that started it, or GL_ORIGIN_* */
    int32_t other_context;/* it ran in a context other than the subject's primary one */
    int32_t other_stream; /* on a stream other than the legacy default one */
    int32_t symbol_copy;  /* a copy to memory outside the pool (cudaMemcpyToSymbol) */
    int32_t pageable;     /* a copy from or to pageable host memory */
    char name[224];       /* a kernel's device (mangled) name */
    uint32_t grid[3], block[3];
    uint64_t dynamic_smem;
    uint64_t bytes;       /* copies and memsets */
    uint64_t start, end;  /* ns, the GPU's clock */
    uint32_t correlation; /* launch order */
} gl_gpu_event;

/* The shared memory. Request n lives in slot[n % GL_PROTO_SLOTS]; the judge has at most
 * GL_PROTO_SLOTS requests unanswered. */
typedef struct {
    uint32_t magic;
    gl_hello hello;
    gl_ready ready;
    uint32_t ready_set;   /* the subject wrote ready */
    uint64_t posted;      /* requests the judge wrote */
    uint64_t answered;    /* answers the subject wrote */
    uint32_t taint;       /* GL_TAINT_*, sticky */
    char taint_what[512];
    struct {
        gl_request rq;
        gl_reply rp;
        unsigned char blob[GL_PROTO_BLOB];
    } slot[GL_PROTO_SLOTS];
    gl_gpu_event gpu[GL_PROTO_GPU];
} gl_mailbox;

#endif
