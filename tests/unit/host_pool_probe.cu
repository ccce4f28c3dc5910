/* host_pool_probe.cu: the judge's HOST memory shared with a contained subject, pinned in both
 * and written only by the GPU (lab 12-streams), tried on this machine. The judge (parent) maps a
 * memfd and registers it (cudaHostRegister); the subject (a child started with posix_spawn, the
 * memfd inherited) maps and registers it too, puts a PROT_NONE reservation in place of its CPU
 * view, closes the fd and contains itself (contain.h). Then, in the child:
 *   1. a D2H cudaMemcpyAsync into the pool lands in the judge's pages;
 *   2. an H2D copy from the pool reads what the judge wrote there (checked back through the GPU);
 *   3. a kernel writing through the pool pointer (UVA) lands in the judge's pages;
 *   4. a CPU write to the pool faults (SIGSEGV); anonymous memory mapped there (MAP_FIXED) takes
 *      CPU writes the judge never sees, and a D2H copy there still lands in the judge's pages.
 * Reported: 5. whether cudaMemset on the pool lands; 6. pinned and pageable H2D and D2H GB/s,
 * the pool's cudaPointerGetAttributes type, whether the child opens the judge's memfd by /proc;
 * 7. whether a host callback (cudaLaunchHostFunc, run on a thread of CUDA's) creates a file,
 * where the contained thread itself cannot (Landlock binds only the threads made after it).
 * Exit status 0 when 1-4 hold, 1 when one fails, 77 when there is no GPU.
 * The grader (tests/grader/host_pool.c) puts a private READ-ONLY view of the memfd in place of
 * the CPU's, not this reservation: the driver copies a small H2D transfer through the CPU, and
 * lab 12's reference crashed on an H100 on copies of a few KiB with PROT_NONE (this probe's
 * copies are of 256 KiB and more). */
#include "contain.h"

#include <algorithm>
#include <string>
#include <cuda_runtime_api.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define REGION ((size_t)256 << 10) /* check k's part of the pool: [k*REGION, (k+1)*REGION) */
#define WORDS (REGION / 4)
#define BENCH ((size_t)64 << 20)   /* the bandwidth's part, from 8*REGION */
#define POOL (8 * REGION + BENCH)
#define AT(base, k) ((unsigned char *)(base) + (size_t)(k) * REGION)
#define RW (PROT_READ | PROT_WRITE)
#define ANON (MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS)

struct results {         /* the child's, in a second memfd it keeps mapped */
    int err[6], segv, anon;  /* check k's cudaError_t (-1: not reached, -2: SIGSEGV); 4's fault
                              * and its memory mapped over the pool */
    size_t back, own;        /* 2: words that came back wrong; 4: words of that memory changed */
    double gbps[4];          /* 6: H2D pinned (the pool), pageable; D2H pinned, pageable */
    int type, canuse, reopen, done; /* 6: pointer type, the attribute, open's errno (0: opened) */
    int callback, main_open;         /* 7: a host callback's and the main thread's file create:
                                      * errno, 0 when it created the file, -1 not run */
    char contained[400], setup[400];
};

/* word i of a check's pattern; seed 0: the same word everywhere */
__host__ __device__ static inline uint32_t pat(size_t i, uint32_t seed, uint32_t word = 0)
{
    return seed ? (uint32_t)(i * 2654435761u) ^ seed : word;
}

__global__ void fill(uint32_t *p, size_t n, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = pat(i, seed);
}

static size_t wrong(const void *p, size_t n, uint32_t seed, uint32_t word = 0)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((const uint32_t *)p)[i] != pat(i, seed, word);
    return w;
}

/* ---- the child (the subject) ---- */
static sigjmp_buf jump;
static void on_segv(int) { siglongjmp(jump, 1); }

static int synced(cudaStream_t s) /* the launch's error, else the stream's */
{
    cudaError_t launch = cudaGetLastError(), done = cudaStreamSynchronize(s);
    return launch != cudaSuccess ? launch : done;
}

static double gbps(void *dst, const void *src, cudaMemcpyKind kind, cudaStream_t s, cudaEvent_t *e)
{
    float t[5];
    for (int r = -1; r < 5; r++) { /* one to warm up */
        cudaEventRecord(e[0], s);
        cudaMemcpyAsync(dst, src, BENCH, kind, s);
        cudaEventRecord(e[1], s);
        if (cudaEventSynchronize(e[1]) || (r >= 0 && cudaEventElapsedTime(&t[r], e[0], e[1])))
            return 0;
    }
    std::nth_element(t, t + 2, t + 5);
    return BENCH / (t[2] * 1e-3) / 1e9;
}

/* 7. a host function the GPU's stream calls runs on a thread of CUDA's: is it contained? */
static char cb_path[96];
static void CUDART_CB create_file(void *result)
{
    int f = open(cb_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    *(int *)result = f >= 0 ? 0 : errno;
    if (f >= 0)
        close(f);
}

static int child(int fd, size_t bytes, int rfd)
{
    unsigned char *pool, *pageable = (unsigned char *)malloc(BENCH);
    uint32_t *dev = NULL, *back = (uint32_t *)malloc(REGION);
    struct results *R = (struct results *)mmap(NULL, sizeof *R, RW, MAP_SHARED, rfd, 0);
    cudaStream_t s;
    cudaEvent_t e[2];
    cudaPointerAttributes pa = {};
    gl_containment c;
    char path[64];
    struct sigaction sa = {};
    volatile int segv = 1;

    alarm(60); /* never hangs: SIGALRM ends it */
    if (R == MAP_FAILED)
        return 1;
    cudaFree(0);
    pool = (unsigned char *)mmap(NULL, bytes, RW, MAP_SHARED, fd, 0);
    /* its CPU view gives way to a reservation (MAP_FIXED: in one step, nothing lands between) */
    if (pool == MAP_FAILED || cudaHostRegister(pool, bytes, cudaHostRegisterDefault) ||
        mmap(pool, bytes, PROT_NONE, ANON, -1, 0) != pool || close(fd) || !pageable || !back ||
        cudaMalloc(&dev, BENCH) || cudaStreamCreate(&s) || cudaEventCreate(&e[0]) ||
        cudaEventCreate(&e[1])) {
        snprintf(R->setup, sizeof R->setup, "%s, %s", strerror(errno),
                 cudaGetErrorName(cudaGetLastError()));
        return 1;
    }
    memset(pageable, 1, BENCH);
    gl_contain(&c);
    gl_containment_describe(&c, R->contained, sizeof R->contained);

    fill<<<256, 256, 0, s>>>(dev, WORDS, 0x1111);
    cudaMemcpyAsync(AT(pool, 1), dev, REGION, cudaMemcpyDeviceToHost, s);
    R->err[1] = synced(s);

    cudaMemsetAsync(dev, 0, REGION, s);
    cudaMemcpyAsync(dev, AT(pool, 2), REGION, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(back, dev, REGION, cudaMemcpyDeviceToHost, s);
    R->err[2] = synced(s);
    R->back = wrong(back, WORDS, 0x2222);

    fill<<<256, 256, 0, s>>>((uint32_t *)AT(pool, 3), WORDS, 0x3333);
    R->err[3] = synced(s);

    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, NULL);
    if (!sigsetjmp(jump, 1)) {
        *(volatile uint32_t *)AT(pool, 4) = 0xEEEEEEEEu;
        segv = 0;
    }
    R->segv = segv;
    R->anon = mmap(AT(pool, 4), REGION, RW, ANON, -1, 0) == AT(pool, 4);
    if (R->anon)
        memset(AT(pool, 4), 0xEE, REGION);
    fill<<<256, 256, 0, s>>>(dev, WORDS / 2, 0x4444); /* copied into the first half */
    cudaMemcpyAsync(AT(pool, 4), dev, REGION / 2, cudaMemcpyDeviceToHost, s);
    R->err[4] = synced(s);
    R->own = R->anon ? wrong(AT(pool, 4), WORDS, 0, 0xEEEEEEEEu) : WORDS;

    R->gbps[0] = gbps(dev, AT(pool, 8), cudaMemcpyHostToDevice, s, e);
    R->gbps[1] = gbps(dev, pageable, cudaMemcpyHostToDevice, s, e);
    R->gbps[2] = gbps(AT(pool, 8), dev, cudaMemcpyDeviceToHost, s, e);
    R->gbps[3] = gbps(pageable, dev, cudaMemcpyDeviceToHost, s, e);
    cudaPointerGetAttributes(&pa, AT(pool, 8));
    R->type = pa.type;
    cudaDeviceGetAttribute(&R->canuse, cudaDevAttrCanUseHostPointerForRegisteredMem, 0);
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)getppid(), fd);
    R->reopen = open(path, O_RDWR) >= 0 ? 0 : errno;
    snprintf(cb_path, sizeof cb_path, "/tmp/host_pool_probe.%d", (int)getppid());
    R->callback = -1;
    if (cudaLaunchHostFunc(s, create_file, &R->callback) == cudaSuccess)
        synced(s);
    create_file(&R->main_open);

    if (!sigsetjmp(jump, 1)) { /* last: it may fault in the driver */
        R->err[5] = cudaMemsetAsync(AT(pool, 5), 0x5A, REGION, s);
        if (R->err[5] == cudaSuccess)
            R->err[5] = synced(s);
    } else { /* out of the driver by longjmp: no teardown (its locks may be held) */
        R->err[5] = -2, R->done = 1;
        _exit(0);
    }
    R->done = 1;
    return 0;
}

/* ---- the parent (the judge) ---- */
static int verdict(int ok, const char *what, const char *fmt, ...)
{
    va_list a;
    printf(ok ? "ok     %s\n" : "FAILED %s (", what);
    va_start(a, fmt);
    if (!ok)
        vprintf(fmt, a), printf(")\n");
    va_end(a);
    return !ok;
}

static const char *name(int e)
{
    return e == -1 ? "not reached" : e == -2 ? "SIGSEGV" : cudaGetErrorName((cudaError_t)e);
}

int main(int argc, char **argv)
{
    int ndev = 0, fd, rfd, st = 0, bad = 0;
    unsigned char *view = (unsigned char *)MAP_FAILED;
    struct results *R = (struct results *)MAP_FAILED;
    char a_fd[16], a_bytes[32], a_rfd[16];
    size_t w, w2;
    pid_t pid;

    if (argc > 4 && !strcmp(argv[1], "--child"))
        return child(atoi(argv[2]), (size_t)atoll(argv[3]), atoi(argv[4]));
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("host_pool_probe: no GPU here: skipped\n");
        return 77;
    }
    alarm(180);
    fd = memfd_create("gl-host-pool", 0); /* no MFD_CLOEXEC: the child inherits them */
    rfd = memfd_create("gl-host-pool-results", 0);
    if (fd >= 0 && rfd >= 0 && !ftruncate(fd, POOL) && !ftruncate(rfd, sizeof *R)) {
        view = (unsigned char *)mmap(NULL, POOL, RW, MAP_SHARED, fd, 0);
        R = (struct results *)mmap(NULL, sizeof *R, RW, MAP_SHARED, rfd, 0);
    }
    if (view == MAP_FAILED || R == MAP_FAILED ||
        cudaHostRegister(view, POOL, cudaHostRegisterDefault)) {
        printf("FAILED the judge's memfd, mapped and registered: %s, %s\n", strerror(errno),
               cudaGetErrorName(cudaGetLastError()));
        return 1;
    }
    memset(view, 0xA5, 8 * REGION); /* what the child's writes replace */
    for (size_t i = 0; i < WORDS; i++)
        ((uint32_t *)AT(view, 2))[i] = pat(i, 0x2222);
    memset(R->err, 0xff, sizeof R->err);
    R->back = R->own = WORDS;
    snprintf(a_fd, sizeof a_fd, "%d", fd);
    snprintf(a_bytes, sizeof a_bytes, "%zu", (size_t)POOL);
    snprintf(a_rfd, sizeof a_rfd, "%d", rfd);
    char *args[] = {argv[0], (char *)"--child", a_fd, a_bytes, a_rfd, NULL};
    fflush(NULL);
    if ((errno = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ)) ||
        waitpid(pid, &st, 0) != pid) {
        printf("FAILED running the child: %s\n", strerror(errno));
        return 1;
    }
    if (R->setup[0])
        bad = verdict(0, "the child maps, registers and reserves the pool", "%s", R->setup);
    printf("       the child contained itself: %s\n", R->contained[0] ? R->contained : "no");

    w = wrong(AT(view, 1), WORDS, 0x1111);
    bad |= verdict(R->err[1] == cudaSuccess && !w,
                   "1. its D2H copy into the pool lands in the judge's pages",
                   "child: %s; %zu of %zu words wrong in the judge's view", name(R->err[1]), w,
                   WORDS);
    bad |= verdict(R->err[2] == cudaSuccess && !R->back,
                   "2. its H2D copy from the pool reads what the judge wrote there",
                   "child: %s; %zu of %zu words came back wrong", name(R->err[2]), R->back,
                   WORDS);
    w = wrong(AT(view, 3), WORDS, 0x3333);
    bad |= verdict(R->err[3] == cudaSuccess && !w,
                   "3. its kernel writing through the pool pointer (UVA) lands there",
                   "child: %s; %zu of %zu words wrong in the judge's view", name(R->err[3]), w,
                   WORDS);
    w = wrong(AT(view, 4), WORDS / 2, 0x4444);
    w2 = wrong(AT(view, 4) + REGION / 2, WORDS / 2, 0, 0xA5A5A5A5u);
    bad |= verdict(R->segv && R->anon && R->err[4] == cudaSuccess && !w && !w2 && !R->own,
                   "4. its CPU cannot write the pool: a write faults, one to memory mapped over it "
                   "stays its own, a D2H copy there still reaches the judge",
                   "CPU write %s; memory mapped over it: %s; D2H there: %s, %zu words wrong in the "
                   "judge's view; %zu CPU-written words reached the judge; %zu words of the "
                   "child's own page changed", R->segv ? "faulted" : "DID NOT FAULT",
                   R->anon ? "yes" : "refused", name(R->err[4]), w, w2, R->own);

    w = wrong(AT(view, 5), WORDS, 0, 0x5A5A5A5Au);
    printf("       5. cudaMemset on the pool %s (child: %s; %zu of %zu words not set)\n",
           R->err[5] == cudaSuccess && !w ? "works" : "does NOT work",
           name(R->err[5]), w, WORDS);
    printf("       6. H2D %.1f GB/s pinned (the pool), %.1f pageable; D2H %.1f pinned, %.1f "
           "pageable\n", R->gbps[0], R->gbps[1], R->gbps[2], R->gbps[3]);
    printf("       6. cudaPointerGetAttributes(the pool).type %d (%s); "
           "cudaDevAttrCanUseHostPointerForRegisteredMem %d\n", R->type,
           R->type == cudaMemoryTypeHost ? "cudaMemoryTypeHost" : "NOT host", R->canuse);
    printf("       6. contained, the child opens the judge's memfd through /proc for writing: %s\n",
           R->reopen ? strerror(R->reopen) : "YES (a way around the reservation)");
    printf("       7. contained, a file created by a host callback (cudaLaunchHostFunc): %s; by "
           "the main thread: %s\n",
           R->callback < 0 ? "not run" : R->callback ? strerror(R->callback)
                                                     : "YES (CUDA's thread is not contained)",
           R->main_open < 0 ? "not run" : R->main_open ? strerror(R->main_open) : "YES");
    snprintf(a_fd, sizeof a_fd, "%d", (int)getpid()); /* the file 7 may have made */
    unlink((std::string("/tmp/host_pool_probe.") + a_fd).c_str());
    if (!R->done || !WIFEXITED(st) || WEXITSTATUS(st))
        printf("       the child stopped early: %s %d\n",
               WIFSIGNALED(st) ? "killed by signal" : "exit status",
               WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    return bad ? 1 : 0;
}
