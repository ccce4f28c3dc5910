/* gpu_memory.h: the GPU's memory shared by the labs graded at once (gpu_memory.c). */
#ifndef GL_GPU_MEMORY_H
#define GL_GPU_MEMORY_H

#include <stddef.h>

/* Holds, for the rest of this process, bytes of the GPU's memory (of total) against the other
 * labs graded at once with the same lock file, waiting for them at most give_up seconds: 0,
 * or -1 and why. lock NULL (a lab graded alone): 0 at once. */
int gl_gpu_memory_reserve(const char *lock, size_t bytes, size_t total, double give_up, char *why,
                          size_t len);

#endif
