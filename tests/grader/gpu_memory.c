/* gpu_memory.c: the GPU's memory, shared by the labs graded at once on it (runner --gpu-lock
 * FILE): each lab holds its share for its life, and the next waits for it. */
#define _GNU_SOURCE
#include "gpu_memory.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The GPU's memory, in slots of a GiB: FILE.mem.K, one file a slot, held (flock) by the lab
 * that counts on it, for the rest of its life (the kernel lets go when the judge ends, however
 * it ends). A lab takes its slots in turn (FILE.memq), keeping those it has got until it has
 * all of them: nobody else takes slots meanwhile, others only let go, so it never waits on a
 * lab that waits on it. Without it, labs graded at once each saw the memory free when their
 * judge started, and a subject, Nsight Compute or compute-sanitizer started later found it
 * gone (on an H100, 16 labs at once). */
#define SLOT_BYTES ((size_t)1 << 30)
#define MAX_SLOTS 1024

int gl_gpu_memory_reserve(const char *lock, size_t bytes, size_t total, double give_up, char *why,
                          size_t len)
{
    static int slot_fd[MAX_SLOTS];
    char path[4200];
    int slots = (int)(total / SLOT_BYTES), need = (int)((bytes + SLOT_BYTES - 1) / SLOT_BYTES);
    int held = 0, k, queue;
    double t0 = now_s();
    if (!lock || slots < 1)
        return 0; /* a lab graded alone */
    if (slots > MAX_SLOTS)
        slots = MAX_SLOTS;
    if (need > slots)
        need = slots; /* more than the GPU has: the lab alone on it (the judge then sees) */
    snprintf(path, sizeof path, "%s.memq", lock);
    if ((queue = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0)
        return 0; /* no place for the slots: as before them, the judge's own check alone */
    while (flock(queue, LOCK_EX | LOCK_NB) != 0) { /* the labs before it take theirs */
        if (now_s() - t0 > give_up) {
            close(queue);
            goto late;
        }
        usleep(50000);
    }
    for (k = 0; k < slots; k++)
        slot_fd[k] = -1;
    while (held < need) {
        for (k = 0; k < slots && held < need; k++) {
            if (slot_fd[k] < 0) {
                snprintf(path, sizeof path, "%s.mem.%d", lock, k);
                slot_fd[k] = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
                if (slot_fd[k] < 0) {
                    close(queue);
                    return 0;
                }
                if (flock(slot_fd[k], LOCK_EX | LOCK_NB) == 0)
                    held++;
                else {
                    close(slot_fd[k]);
                    slot_fd[k] = -1;
                }
            }
        }
        if (held < need) {
            if (now_s() - t0 > give_up) {
                for (k = 0; k < slots; k++)
                    if (slot_fd[k] >= 0)
                        close(slot_fd[k]);
                close(queue);
                goto late;
            }
            usleep(200000);
        }
    }
    close(queue); /* the next lab's turn; the slots stay held */
    return 0;
late:
    snprintf(why, len, "the labs graded at once on this GPU held its memory for %.0f s (this "
             "lab needs %d GiB of its %d)", give_up, need, slots);
    return -1;
}
