/* host_pool.h: the judge's pinned HOST memory shared with the subject, for a lab whose
 * launchers copy between the host and the device (GL_LAB.host_pool_mib, layout letter 'H').
 * The judge maps a memfd and pins it (cudaHostRegister); the subject maps the same pages,
 * pins them, then puts a private read-only view in place of its CPU view and closes the
 * descriptor before it contains itself: the GPU's copies and kernels reach the judge's
 * pages through the pinned pointer, the subject's CPU can read them but never write them
 * (a fault; after an mprotect, a private copy of the page: the driver reads small H2D copies
 * through the CPU's view, so a student can feed those its own data, as a kernel's parameters
 * can, but never change the judge's),
 * and reopening the memfd through /proc is refused by containment (tests/unit/
 * host_pool_probe.cu tried the recipe on an H100). */
#ifndef GL_HOST_POOL_H
#define GL_HOST_POOL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The judge's side: bytes of shared memory, mapped and pinned here. 0 with *ptr and *fd
 * (close-on-exec: link.c hands it to the subject as fd 7); -1 with why. */
int gl_host_pool_create(size_t bytes, void **ptr, int *fd, char *why, size_t len);

/* The subject's side, before it contains itself: maps fd's bytes, pins them, replaces its
 * CPU view with a reservation (the pinned pointer stays the GPU's) and closes fd. */
int gl_host_pool_import(int fd, size_t bytes, void **ptr, char *why, size_t len);

/* Unpins and unmaps what gl_host_pool_create made (the judge's, at its end). */
void gl_host_pool_destroy(void *ptr, size_t bytes, int fd);

#ifdef __cplusplus
}
#endif
#endif
