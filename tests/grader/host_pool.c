/* host_pool.c: the judge's pinned host memory shared with the subject (host_pool.h). */
#define _GNU_SOURCE
#include "host_pool.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RW (PROT_READ | PROT_WRITE)

int gl_host_pool_create(size_t bytes, void **ptr, int *fd, char *why, size_t len)
{
    void *p = MAP_FAILED;
    cudaError_t err;
    /* close-on-exec, above the numbers a subject's descriptors take (link.c dups it to 7) */
    int m = memfd_create("gpulabs-host-pool", MFD_CLOEXEC), f = -1;
    if (m >= 0) {
        f = fcntl(m, F_DUPFD_CLOEXEC, 16);
        close(m);
    }
    if (f < 0 || ftruncate(f, (off_t)bytes) != 0 ||
        (p = mmap(NULL, bytes, RW, MAP_SHARED, f, 0)) == MAP_FAILED) {
        snprintf(why, len, "no shared host memory of %zu MiB: %s", bytes >> 20, strerror(errno));
        if (f >= 0)
            close(f);
        return -1;
    }
    if ((err = cudaHostRegister(p, bytes, cudaHostRegisterDefault)) != cudaSuccess) {
        snprintf(why, len, "%zu MiB of host memory could not be pinned: %s", bytes >> 20,
                 cudaGetErrorString(err));
        cudaGetLastError();
        munmap(p, bytes);
        close(f);
        return -1;
    }
    *ptr = p;
    *fd = f;
    return 0;
}

int gl_host_pool_import(int fd, size_t bytes, void **ptr, char *why, size_t len)
{
    void *p = mmap(NULL, bytes, RW, MAP_SHARED, fd, 0);
    cudaError_t err;
    if (p == MAP_FAILED) {
        snprintf(why, len, "the judge's host memory could not be mapped: %s", strerror(errno));
        return -1;
    }
    if ((err = cudaHostRegister(p, bytes, cudaHostRegisterDefault)) != cudaSuccess) {
        snprintf(why, len, "the judge's host memory could not be pinned: %s",
                 cudaGetErrorString(err));
        return -1;
    }
    /* the CPU's view gives way to a private, read-only one in one step (MAP_FIXED: nothing
     * lands in between); the pinned pages stay the GPU's under the same pointer. Readable:
     * the driver copies a small transfer through the CPU (an H2D copy of a few KiB from the
     * pool read nothing, and the subject crashed, on an H100 with PROT_NONE); private: a
     * write, after an mprotect of the student's, changes a copy of the page, never the
     * judge's (and the GPU's copies go on reading and writing the judge's) */
    if (mmap(p, bytes, PROT_READ, MAP_FIXED | MAP_PRIVATE, fd, 0) != p ||
        close(fd) != 0) {
        snprintf(why, len, "the judge's host memory could not be hidden from the CPU: %s",
                 strerror(errno));
        return -1;
    }
    *ptr = p;
    return 0;
}

void gl_host_pool_destroy(void *ptr, size_t bytes, int fd)
{
    if (!ptr)
        return;
    cudaHostUnregister(ptr);
    munmap(ptr, bytes);
    if (fd >= 0)
        close(fd);
}
