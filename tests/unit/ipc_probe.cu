/* ipc_probe.cu: what the grader's design rests on, tried on this machine
 * (GRADING.md, "Measured on the lent GPU machines"):
 *   1. a child process opens the parent's memory through CUDA IPC, then
 *      contains itself (contain.h), and its kernels still write through it;
 *   2. once contained, opening an IPC handle fails (so the subject opens the
 *      judge's pool first);
 *   3. a copy kernel's bandwidth on memory the process allocated and on the
 *      same amount of memory mapped through IPC (the grader times students'
 *      and the kit's launchers on the same side of that line).
 * Exit status 0 when 1 holds (2 and 3 are reported); 77 when there is no GPU. */
#include "contain.h"
#include "vmm_pool.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SETS 8
#define SET_BYTES ((size_t)256 << 20)

__global__ void copy_kernel(float4 *out, const float4 *in, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

__global__ void write_kernel(int *p, int value)
{
    *p = value;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* GB/s (read + write) of SETS copies, each on its own half of a set. */
static double copy_gbps(unsigned char *base)
{
    size_t n = SET_BYTES / 2 / sizeof(float4);
    double best = 0;
    for (int round = 0; round < 4; round++) {
        double t0, t;
        cudaDeviceSynchronize();
        t0 = now();
        for (int s = 0; s < SETS; s++)
            copy_kernel<<<1024, 256>>>((float4 *)(base + s * SET_BYTES),
                                       (const float4 *)(base + s * SET_BYTES + SET_BYTES / 2), n);
        cudaDeviceSynchronize();
        t = now() - t0;
        if (round > 0 && (best == 0 || SETS * (double)SET_BYTES / t / 1e9 > best))
            best = SETS * (double)SET_BYTES / t / 1e9;
    }
    return best;
}

/* The child: started by the parent (posix_spawn: CUDA does not survive fork),
 * the handle on its standard input, one line of results on its output. */
static int child(void)
{
    cudaIpcMemHandle_t h;
    void *base = NULL;
    gl_containment c;
    double gbps = 0;
    int ok;
    if (fread(&h, sizeof h, 1, stdin) != 1)
        return 2;
    ok = cudaIpcOpenMemHandle(&base, h, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess;
    if (ok)
        gbps = copy_gbps((unsigned char *)base);
    gl_contain(&c);
    if (ok) {
        write_kernel<<<1, 1>>>((int *)((unsigned char *)base + SETS * SET_BYTES), 42);
        ok = cudaDeviceSynchronize() == cudaSuccess;
    }
    {   /* 2: a second handle opened once contained */
        void *again = NULL;
        int reopened = cudaIpcOpenMemHandle(&again, h, cudaIpcMemLazyEnablePeerAccess) ==
                       cudaSuccess;
        printf("%d %.0f %d %d\n", ok, gbps, c.landlock && c.seccomp, reopened);
    }
    return 0;
}

/* The same through the driver's virtual memory API (what the grader uses). */
static int child_vmm(int fd, size_t bytes)
{
    void *base = NULL;
    char why[256];
    cudaFree(0);
    if (gl_vmm_import(fd, bytes, &base, why, sizeof why) != 0) {
        printf("0 0 %s\n", why);
        return 0;
    }
    printf("1 %.0f\n", copy_gbps((unsigned char *)base));
    return 0;
}

int main(int argc, char **argv)
{
    int host = 0, ndev = 0, ok = 0, contained = 0, reopened = 0;
    unsigned char *pool;
    int *flag;
    cudaIpcMemHandle_t h;
    double gbps = 0;
    char cmd[4200], line[256] = "";
    FILE *p;

    if (argc > 1 && !strcmp(argv[1], "--child"))
        return child();
    if (argc > 3 && !strcmp(argv[1], "--child-vmm"))
        return child_vmm(atoi(argv[2]), (size_t)atoll(argv[3]));
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("ipc_probe: no GPU here: skipped\n");
        return 77;
    }
    if (cudaMalloc((void **)&pool, SETS * SET_BYTES + 256) != cudaSuccess ||
        cudaIpcGetMemHandle(&h, pool) != cudaSuccess) {
        printf("FAIL cudaIpcGetMemHandle: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    flag = (int *)(pool + SETS * SET_BYTES);
    cudaMemset(flag, 0, sizeof(int));
    cudaMemset(pool, 1, SETS * SET_BYTES);
    cudaDeviceSynchronize();
    printf("copy kernel, its own memory:             %.0f GB/s\n", copy_gbps(pool));
    {   /* the child: the handle through a file the parent writes (the probe may write) */
        char path[] = "/tmp/ipc_probe_XXXXXX";
        int fd = mkstemp(path);
        if (fd < 0 || write(fd, &h, sizeof h) != (ssize_t)sizeof h)
            return 1;
        close(fd);
        snprintf(cmd, sizeof cmd, "'%s' --child < %s", argv[0], path);
        fflush(NULL);
        p = popen(cmd, "r");
        if (p && fgets(line, sizeof line, p))
            sscanf(line, "%d %lf %d %d", &ok, &gbps, &contained, &reopened);
        if (p)
            pclose(p);
        remove(path);
    }
    {   /* 3b: the driver's virtual memory API */
        size_t bytes = SETS * SET_BYTES;
        void *vmm = NULL;
        int fd = -1, vok = 0;
        double vgbps = 0;
        char why[256];
        if (gl_vmm_create(&bytes, &vmm, &fd, why, sizeof why) != 0) {
            printf("no pool through the virtual memory API: %s\n", why);
        } else {
            printf("copy kernel, its own VMM memory:         %.0f GB/s\n",
                   copy_gbps((unsigned char *)vmm));
            fd = dup(fd); /* without close-on-exec: the child inherits it */
            snprintf(cmd, sizeof cmd, "'%s' --child-vmm %d %zu", argv[0], fd, bytes);
            fflush(NULL);
            p = popen(cmd, "r");
            if (p && fgets(line, sizeof line, p))
                sscanf(line, "%d %lf", &vok, &vgbps);
            if (p)
                pclose(p);
            printf("copy kernel, the same through VMM export: %.0f GB/s (another process)%s\n",
                   vgbps, vok ? "" : line);
        }
    }
    cudaMemcpy(&host, flag, sizeof host, cudaMemcpyDeviceToHost);
    printf("copy kernel, the same memory through IPC: %.0f GB/s (another process)\n", gbps);
    printf("%s a contained child (landlock and seccomp: %s) wrote %d through a handle it opened "
           "before\n", ok && host == 42 ? "ok  " : "FAIL", contained ? "yes" : "no", host);
    printf("     once contained, opening a handle %s\n", reopened ? "still works" : "fails");
    return ok && host == 42 ? 0 : 1;
}
