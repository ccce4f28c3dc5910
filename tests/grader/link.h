/* link.h: the judge's link to its subject process (link.c). */
#ifndef GL_LINK_H
#define GL_LINK_H

#include "protocol.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *exe;           /* the subject program */
    const char *const *wrapper; /* a program that runs it (Nsight Compute), or NULL */
    const gl_hello *hello;     /* what it is told before it starts */
    int pool_fd;               /* the pool as the driver exported it, or -1 */
    int host_pool_fd;          /* the lab's pinned host pool (host_pool.h), or -1 */
} gl_link_start;

/* Starts a subject (its process, context, pool, containment: the kit's code only) and tells
 * it hello. Returns NULL, or why it could not start. */
const char *gl_link_spawn(const gl_link_start *s);
int gl_link_running(void);   /* a subject process exists */
int gl_link_loaded(void);    /* and it has loaded its file */

/* Has it load its file (the student's constructors run then) and waits for its ready:
 * 0 with *ready; -1 it is gone, -2 deadline (monotonic seconds, gl_host_seconds). */
int gl_link_load(double deadline, gl_ready *ready);

/* Posts a request (and its host arrays); returns its number. At most GL_PROTO_SLOTS wait
 * for their answers at once. */
uint64_t gl_link_post(const gl_request *rq, const void *blob, size_t blob_bytes);

/* Waits for the answer to request seq: 0 with *rp a copy of it; -1 the subject is gone,
 * -2 the deadline passed. */
int gl_link_wait(uint64_t seq, double deadline, gl_reply *rp);

/* The GPU records of the last flush (n of them, as its answer said, at most GL_PROTO_GPU). */
const gl_gpu_event *gl_link_gpu(void);

/* Taints the subject raised so far (GL_TAINT_*), and what it saw. */
uint32_t gl_link_taint(char *what, size_t len);

/* Ends the subject (its whole process group) and forgets it. */
void gl_link_kill(void);

/* How the subject ended, after its doorbell closed: it is ended for good, and why says how
 * (crashed with a signal, exited, closed the pipe), in the student's terms. */
void gl_link_reap(char *why, size_t len, const char *during);

/* Asks the subject to quit and waits for it (or its wrapper) to exit; its exit status, -1 if
 * it had to be killed. */
int gl_link_quit_and_wait(double timeout_s);

#endif
