/* vmm_pool.h: the judge's memory pool shared with the subject through the
 * CUDA driver's virtual memory API (an allocation exported as a file
 * descriptor). Memory shared this way is mapped in the subject like its own
 * allocations; through the runtime's IPC handles (cudaIpcOpenMemHandle) a
 * copy kernel ran 31% slower on an H100 (tests/unit/ipc_probe), and a
 * student's speed would be measured on a slower memory than the kit's.
 * The driver is loaded at run time: a machine without one still runs the
 * kit's tests that need no GPU. */
#ifndef GL_VMM_POOL_H
#define GL_VMM_POOL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Allocates bytes (rounded up to the granularity: *bytes is updated) on the
 * current device, maps it here, exports it. Returns 0 with *ptr and *fd;
 * -1 with why (no driver, or the driver cannot export). */
int gl_vmm_create(size_t *bytes, void **ptr, int *fd, char *why, size_t len);

/* Maps an allocation exported by gl_vmm_create (its fd, its size). */
int gl_vmm_import(int fd, size_t bytes, void **ptr, char *why, size_t len);

/* Unmaps and frees what gl_vmm_create made (the judge's pool, at its end). */
void gl_vmm_destroy(void *ptr, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
