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
 * Every answer of the subject is checked against the lab (judge_calls.c, record.c): the CUDA
 * status, what the call asked for, what the GPU ran, and any taint (a context or code of its
 * own).
 *
 * This file is the judge's life: gl_judge_init (the GPU, the pool, the routes of the calls)
 * to gl_judge_release, and what the runner reads of it (judge.h). Its parts share the state
 * of judge_state.h: judge_pool.c (the state, the pool), judge_subject.c (the subject's life),
 * judge_calls.c (the calls, the clock's rounds). */
#define _GNU_SOURCE
#include "grader.h"
#include "judge.h"
#include "gpu_lock.h"
#include "gpu_memory.h"
#include "judge_state.h"
#include "link.h"
#include "vmm_pool.h"
#include "host_pool.h"

#include "gl_buffer.h"
#include "gl_exec.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The student's code as compiled (submission.cubin and .ptx beside the .so): read once the
 * compile has finished, which may be after gl_judge_init (the runner's --wait). A subject
 * spawned before this would not know the student's kernels by their code. */
void gl_judge_file_compiled(void)
{
    char path[4200];
    find_cubin();
    snprintf(path, sizeof path, "%.*s.ptx", (int)(strlen(J.submission) - 3), J.submission);
    free(J.ptx);
    J.ptx = gl_read_file(path);
}

/* GPU memory a lab keeps free beside its pool: its subject's context, Nsight Compute's */
#define RESERVE ((size_t)2 << 30)
/* and the judge's own context */
#define JUDGE_CONTEXT ((size_t)1 << 30)

int gl_judge_reserve_memory(size_t pool_bytes, char *why, size_t len)
{
    struct cudaDeviceProp prop; /* no context made: the GPU's lock is not held here */
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        cudaGetLastError();
        return 0; /* no GPU: the runner's probe says so */
    }
    return gl_gpu_memory_reserve(gl_gpu_lock_path(), pool_bytes + RESERVE + JUDGE_CONTEXT,
                                 prop.totalGlobalMem, 300.0, why, len);
}

int gl_judge_init(const char *submission, const char *baseline, const char *subject_exe,
                  size_t pool_bytes, int allow_unisolated, char *why, size_t len)
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
    /* the lab's largest test and room for its subjects. Where the GPU could hold them but other
     * labs hold its memory now, wait for them (the runner gives up, loudly, after a while):
     * a smaller pool means smaller timed problems, whose effects the thresholds were not set
     * for (on an H100, 16 labs at once made lab 08 time 4096^2 instead of 8192^2 and lab 10
     * 2^26 floats instead of 2^28, and right solutions failed there) */
    if (free_b < pool_bytes + RESERVE && total_b > pool_bytes + 2 * RESERVE) {
        snprintf(why, len, "%zu MiB of GPU memory free, %zu MiB needed", free_b >> 20,
                 (pool_bytes + RESERVE) >> 20);
        return -3;
    }
    if (total_b <= pool_bytes + 2 * RESERVE && pool_bytes > free_b / 2)
        pool_bytes = free_b / 2 / (1 << 20) * (1 << 20); /* a small GPU: half of what is free */
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
    J.host_fd = -1;
    if (GL_LAB.host_pool_mib > 0) { /* pinned host memory the launchers copy from and to */
        void *h = NULL;
        J.host_pool_bytes = (size_t)GL_LAB.host_pool_mib << 20;
        if (gl_host_pool_create(J.host_pool_bytes, &h, &J.host_fd, why, len) != 0)
            return -3;
        J.host_pool = h;
        gl_buf_set_host_allocator(host_pool_alloc, host_pool_free);
    }
    gl_exec_set_backend(judge_backend);
    find_cupti();
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
    gl_host_pool_destroy(J.host_pool, J.host_pool_bytes, J.host_fd);
    J.host_pool = NULL;
    J.host_fd = -1;
    cudaDeviceReset();
}

int gl_judge_in_process(void)
{
    return J.in_process;
}

int gl_judge_records_gpu(void)
{
    return gl_link_loaded() && J.records_gpu;
}
