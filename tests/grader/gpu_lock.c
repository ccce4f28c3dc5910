/* gpu_lock.c: the GPU's lock, shared by the judges of the labs graded at once (runner
 * --gpu-lock FILE): gl_gpu_lock, gl_gpu_unlock, gl_gpu_wait, gl_gpu_phase (grader.h), and
 * what GL_TRACE and GL_TRACE_LOCKS say of it. */
#define _GNU_SOURCE
#include "grader.h"
#include "gpu_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* Judges of several labs may share a GPU: timed and profiled tests hold it
 * alone (an exclusive lock), the others share it (--gpu-lock FILE). A second
 * lock (FILE.w) gives the exclusive ones the first turn: while one waits, no
 * new test takes the GPU shared (flock alone would let shared holders starve it). */
static int gpu_lock_fd = -1, gpu_turn_fd = -1;
static char gpu_lock_path[4096];

static void lock_fd(int fd, int op)
{
    while (flock(fd, op) != 0 && errno == EINTR)
        ;
}

/* GL_TRACE: how long this lab waited for the GPU, and held it alone or shared;
 * GL_TRACE_LOCKS=FILE: every hold as a line (lab, what, alone or shared, asked, got, let go) */
static double lock_waited, lock_held[2], lock_since, lock_asked, lock_released;
static int lock_mode;
static const char *lock_what = "setup";

void gl_gpu_phase(const char *what)
{
    lock_what = what;
}

double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void gl_gpu_lock(int exclusive)
{
    double t0 = wall_now();
    if (gpu_lock_fd < 0)
        return;
    lock_asked = t0;
    if (gpu_turn_fd >= 0)
        lock_fd(gpu_turn_fd, exclusive ? LOCK_EX : LOCK_SH);
    lock_fd(gpu_lock_fd, exclusive ? LOCK_EX : LOCK_SH);
    if (gpu_turn_fd >= 0 && !exclusive)
        flock(gpu_turn_fd, LOCK_UN);
    lock_since = wall_now();
    lock_waited += lock_since - t0;
    lock_mode = exclusive != 0;
}

void gl_gpu_unlock(void)
{
    double t = wall_now();
    const char *trace = getenv("GL_TRACE_LOCKS");
    if (gpu_lock_fd < 0)
        return;
    lock_held[lock_mode] += t - lock_since;
    if (trace) {
        FILE *f = fopen(trace, "ae");
        if (f) {
            fprintf(f, "%s %s %s %.3f %.3f %.3f\n", GL_LAB.name, lock_what,
                    lock_mode ? "alone" : "shared", lock_asked, lock_since, t);
            fclose(f);
        }
    }
    flock(gpu_lock_fd, LOCK_UN);
    if (gpu_turn_fd >= 0)
        flock(gpu_turn_fd, LOCK_UN); /* held by an exclusive one; a no-op otherwise */
    lock_released = wall_now();
}

void gl_gpu_wait(double seconds)
{
    int held = gpu_lock_fd >= 0 && lock_since > lock_released, mode = lock_mode;
    if (held)
        gl_gpu_unlock();
    usleep((useconds_t)(seconds * 1e6));
    if (held)
        gl_gpu_lock(mode);
}

void gl_gpu_lock_use(const char *path)
{
    char turn[4200];
    snprintf(gpu_lock_path, sizeof gpu_lock_path, "%s", path);
    snprintf(turn, sizeof turn, "%s.w", path);
    gpu_lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    gpu_turn_fd = open(turn, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
}

const char *gl_gpu_lock_path(void)
{
    return gpu_lock_fd >= 0 ? gpu_lock_path : NULL;
}

void gl_gpu_lock_times(double *waited, double *alone, double *shared)
{
    *waited = lock_waited;
    *alone = lock_held[1];
    *shared = lock_held[0];
}
