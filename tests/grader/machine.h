/* machine.h: what this machine offers (machine.c), as the runner reads it. */
#ifndef GL_MACHINE_H
#define GL_MACHINE_H

typedef struct {
    int gpu;             /* a usable GPU was found */
    char gpu_name[300];  /* its name and compute capability, or why there is none */
    char ncu[4096];      /* Nsight Compute, or empty */
    char no_ncu[256];    /* why not */
    char sanitizer[4096];/* compute-sanitizer, or empty */
    char no_sanitizer[256];
} machine;

extern machine m;

/* Each fills its part of m: the GPU (or why there is none), Nsight Compute (NCU=, PATH,
 * CUDA_HOME/bin), compute-sanitizer (COMPUTE_SANITIZER=, PATH, CUDA_HOME). */
void probe_gpu(void);
void probe_ncu(void);
void probe_sanitizer(void);

#endif
