/* gpu_lock.h: what the runner asks of the GPU's lock (gpu_lock.c) beside gl_gpu_lock,
 * gl_gpu_unlock, gl_gpu_wait and gl_gpu_phase (grader.h). */
#ifndef GL_GPU_LOCK_H
#define GL_GPU_LOCK_H

/* runner --gpu-lock FILE: FILE and FILE.w (the exclusive holders' turn). Without them the
 * lock takes nothing: a lab graded alone. */
void gl_gpu_lock_use(const char *path);

/* FILE, or NULL without --gpu-lock. */
const char *gl_gpu_lock_path(void);

/* For GL_TRACE: the seconds this lab waited for the GPU, held it alone and held it shared. */
void gl_gpu_lock_times(double *waited, double *alone, double *shared);

/* The wall clock (CLOCK_REALTIME) in seconds: GL_TRACE_LOCKS's times. */
double wall_now(void);

#endif
