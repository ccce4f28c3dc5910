/* gl_check.h: CUDA error checks that say where, what, and the likely cause.
 *
 *   GL_CUDA(cudaMalloc(&p, bytes));      // any runtime call
 *   my_launcher(out, in, n);
 *   GL_CHECK_LAUNCH("my_launcher");      // launch error, then the kernel's own error
 *
 * A failure calls the fail handler: by default it prints the message and exits
 * with status 1; the grader installs one that fails the current test instead. */
#ifndef GL_CHECK_H
#define GL_CHECK_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*gl_fail_handler)(const char *message);

/* Replaces the fail handler; returns the previous one. The handler must not return. */
gl_fail_handler gl_set_fail_handler(gl_fail_handler handler);

/* Formats a message (printf style) and calls the fail handler. */
void gl_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* malloc(bytes) that fails (gl_fail: "out of host memory") instead of returning NULL; a
 * byte more, so that 0 bytes is a pointer too. Free it with free(). */
void *gl_host_alloc(size_t bytes);

/* One line in the student's terms: what usually causes this error in a lab. */
const char *gl_cuda_likely_cause(cudaError_t err);

/* Writes "cudaErrorX (description). Likely cause: ..." into buf. */
void gl_cuda_describe(cudaError_t err, char *buf, unsigned long len);

void gl_cuda_check_at(cudaError_t err, const char *call, const char *file, int line);
void gl_check_launch_at(const char *what, const char *file, int line);

#define GL_CUDA(call) gl_cuda_check_at((call), #call, __FILE__, __LINE__)
#define GL_CHECK_LAUNCH(what) gl_check_launch_at((what), __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif
