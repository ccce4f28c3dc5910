/* gl_compiled.h: kernels the kit ships compiled. A given kernel that is an earlier lab's
 * answer (lab 11's sgemm_tiled_kernel is lab 09's task 2) lives in labs/NN-slug/compiled/:
 * NAME.cu in the kit, NAME.ptx in the student release (tools/release), which must not hand
 * the answer out as source. Either way the build compiles it for this GPU into a
 * fatbinary, linked in as the array gl_compiled_NAME (Makefile), and its launcher loads it
 * here through the CUDA driver: the runtime can launch only kernels compiled with it. */
#ifndef GL_COMPILED_H
#define GL_COMPILED_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const unsigned char *image; /* the fatbinary (gl_compiled_NAME) */
    const char *name;           /* the kernel's symbol in it (mangled, as in its PTX) */
    void *context, *function;   /* loaded in this CUDA context */
} gl_compiled_kernel;

#define GL_COMPILED_KERNEL(image, name) {(image), (name), 0, 0}

/* Launches kernel k on the default stream with grid gx x gy, blocks of bx x by threads and
 * args (pointers to each argument, as cudaLaunchKernel takes them); loads it first in the
 * current device's context. A kernel that cannot be loaded or launched is the kit's
 * failure, not a student's: it prints why and exits 1. */
void gl_compiled_launch(gl_compiled_kernel *k, unsigned gx, unsigned gy, unsigned bx,
                        unsigned by, void **args);

#ifdef __cplusplus
}
#endif

#endif
