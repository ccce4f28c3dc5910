/* gpu_record.h: the GPU work of the subject as CUPTI saw it (gpu_record.c). */
#ifndef GL_GPU_RECORD_H
#define GL_GPU_RECORD_H

enum { GL_GPU_KERNEL, GL_GPU_COPY, GL_GPU_MEMSET };

typedef void (*gl_gpu_sink)(void *ctx, int what, const char *name, unsigned long long threads,
                            unsigned long long bytes);

/* Loads CUPTI (its path) and starts recording; 0, or -1 where it cannot. */
int gl_gpu_record_start(const char *cupti_path);

/* Hands everything that finished since the last flush to `to`. */
void gl_gpu_record_flush(gl_gpu_sink to, void *ctx);

#endif
