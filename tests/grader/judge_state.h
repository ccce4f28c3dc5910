/* judge_state.h: the judge's state, shared by its parts and by nothing else: the one
 * instance J and the pool's pieces, defined in judge_pool.c; the functions one part of the
 * judge offers another. The judge's parts, from the bottom up:
 *   judge_pool.c     the state and the memory pool (gl_buf_alloc's pieces)
 *   judge_subject.c  the subject's life: started in two steps, ended when a test breaks it
 *   judge_calls.c    the calls into the subject, checked; the clock's timed rounds
 *   judge.c          the judge's life (judge.h: what the runner asks of it) */
#ifndef GL_JUDGE_STATE_H
#define GL_JUDGE_STATE_H

#include "grader.h"
#include "link.h"

#include "gl_exec.h"

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

struct judge_state {
    char submission[4096], baseline[4096], subject_exe[4096], cubin[4096];
    void *baseline_lib;
    unsigned char *pool;
    size_t pool_bytes;
    cudaIpcMemHandle_t handle;
    int vmm_fd;              /* the pool as the driver exported it, or -1 (CUDA IPC) */
    unsigned char *host_pool; /* the lab's pinned host pool (host_pool.h), or NULL */
    size_t host_pool_bytes;
    int host_fd;             /* its memfd, or -1 */
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
        int set, host; /* host: dst is in the host pool */
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
    int plan;                /* the performance tests' first pass: baselines only (run_test.c) */
    char test[64];           /* the current test's id, and the baselines it timed so far */
    int test_baselines;
    const char *const *wrapper; /* a program that runs the subject (Nsight Compute), or NULL */
    char cupti[1024];           /* libcupti for the subject, or "" */
    char *ptx;                  /* the student's PTX: its kernels' names */
    int records_gpu;            /* the running subject's record is CUPTI's */
    double start_seconds;       /* subjects' starts, for GL_TRACE */
    int starts;
};
extern struct judge_state J;

/* ---- the pool (judge_pool.c): first fit over a list of pieces ---- */

#define MAX_PIECES 4096

struct judge_piece {
    size_t off, bytes;
};
extern struct judge_piece used[MAX_PIECES]; /* the pieces handed out, by offset */
extern int nused;

void *pool_alloc(size_t bytes);
void pool_free(void *p);
/* Is p in the pool? *off gets its offset. */
int in_pool(const void *p, size_t *off);
/* The same for the host pool (gl_buf_alloc_host's pieces, a list of their own). */
void *host_pool_alloc(size_t bytes);
void host_pool_free(void *p);
int in_host_pool(const void *p, size_t *off);
void host_pool_reset(void); /* every test starts with the whole host pool */
/* The piece of the pool that holds offset off (its index), or -1. */
int piece_of(size_t off);

/* ---- the subject's life (judge_subject.c) ---- */

/* Fails the test: the subject did not answer (r from gl_link_wait), or it died. */
void subject_died(int r, const char *during, const char *launcher);
/* Starts a subject (spawned, unless one is, then loaded with the student's file or the kit's),
 * trying again while the GPU is full; the kit's error if it cannot. */
void subject_start(const char *launcher);

/* ---- the calls (judge_calls.c) ---- */

/* gl_exec's backend: every launcher of the lab, called where it runs. */
long long judge_backend(const gl_launcher *l, const gl_arg *args);

#endif
