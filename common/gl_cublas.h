/* gl_cublas.h: cuBLAS SGEMM in FP32, the roof the matrix labs (09, 11) are
 * measured against. Only the labs named in the Makefile's CUBLAS_LABS link
 * it (with -lcublas); a student's file never does. */
#ifndef GL_CUBLAS_H
#define GL_CUBLAS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Row-major C = A B (A m x k, B k x n, C m x n, device pointers) on the
 * default stream, without synchronising. Pedantic math: FP32 FMAs on the CUDA
 * cores, the arithmetic of the labs' kernels, not TF32 on the tensor cores.
 * m or n <= 0 does nothing; k == 0 writes C = 0. The handle is created at
 * the first call (slow: time the calls after it); a cuBLAS error prints its
 * status and exits 1. */
void gl_sgemm_cublas(float *c, const float *a, const float *b, int m, int n, int k);

#ifdef __cplusplus
}
#endif
#endif
