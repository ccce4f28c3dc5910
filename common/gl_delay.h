/* gl_delay.h: GPU work that takes a known time, to see whether a launcher
 * returns at once (it only enqueues kernels) or waits for the GPU. */
#ifndef GL_DELAY_H
#define GL_DELAY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues on the default stream: wait ms milliseconds on the GPU, then copy
 * bytes from src to dst (device pointers). Returns at once. */
void gl_delayed_copy(void *dst, const void *src, size_t bytes, double ms);

#ifdef __cplusplus
}
#endif
#endif
