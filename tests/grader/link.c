/* link.c: the judge's link to its subject: the process (started with posix_spawn in a
 * process group of its own, ended with the whole group), the mailbox they share (protocol.h)
 * and the two doorbell pipes. The judge never reads a word of the protocol from a file
 * descriptor the student's code could hold: a doorbell only wakes it to look at the mailbox,
 * where an answer counts once the subject's serving loop has published it. */
#define _GNU_SOURCE
#include "link.h"

#include "gl_timing.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static struct {
    pid_t pid;
    int to, from;     /* the doorbells */
    gl_mailbox *mb;
    int loaded;
    uint64_t next;    /* the next request's number */
} S = {0, -1, -1, NULL, 0, 0};

int gl_link_running(void)
{
    return S.pid > 0;
}

int gl_link_loaded(void)
{
    return S.pid > 0 && S.loaded;
}

/* The subject's environment: what CUDA needs, nothing of the grader's. */
static char **subject_env(void)
{
    static char *env[64];
    static const char *keep[] = {"PATH=", "LD_LIBRARY_PATH=", "CUDA_", "NVIDIA_", "HOME=",
                                 "LANG=", "TMPDIR=", NULL};
    int n = 0, i;
    char **e;
    for (e = environ; *e && n < 62; e++)
        for (i = 0; keep[i]; i++)
            if (!strncmp(*e, keep[i], strlen(keep[i]))) {
                env[n++] = *e;
                break;
            }
    env[n] = NULL;
    return env;
}

void gl_link_kill(void)
{
    int status;
    if (S.pid > 0) {
        kill(-S.pid, SIGKILL); /* its whole process group */
        kill(S.pid, SIGKILL);
        waitpid(S.pid, &status, 0);
    }
    if (S.to >= 0)
        close(S.to);
    if (S.from >= 0)
        close(S.from);
    if (S.mb)
        munmap(S.mb, sizeof *S.mb);
    S.pid = 0;
    S.to = S.from = -1;
    S.mb = NULL;
    S.loaded = 0;
}

const char *gl_link_spawn(const gl_link_start *s)
{
    static char why[512];
    int to[2], from[2], box, r;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    char *argv[64];
    int argc = 0;

    gl_link_kill();
    box = memfd_create("gpulabs-mailbox", MFD_CLOEXEC);
    if (box < 0 || ftruncate(box, sizeof *S.mb) != 0 ||
        (S.mb = mmap(NULL, sizeof *S.mb, PROT_READ | PROT_WRITE, MAP_SHARED, box, 0)) ==
            MAP_FAILED) {
        snprintf(why, sizeof why, "grader: no shared memory for the subject's mailbox: %s",
                 strerror(errno));
        if (box >= 0)
            close(box);
        S.mb = NULL;
        return why;
    }
    memset(S.mb, 0, sizeof *S.mb);
    S.mb->magic = GL_PROTO_MAGIC;
    S.mb->hello = *s->hello;
    if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) {
        snprintf(why, sizeof why, "grader: no pipe for the subject: %s", strerror(errno));
        close(box);
        gl_link_kill();
        return why;
    }
    if (s->wrapper)
        while (s->wrapper[argc] && argc < 60)
            argv[argc] = (char *)s->wrapper[argc], argc++;
    argv[argc++] = (char *)s->exe;
    argv[argc] = NULL;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to[0], 3);
    posix_spawn_file_actions_adddup2(&fa, from[1], 4);
    if (s->pool_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, s->pool_fd, 5);
    posix_spawn_file_actions_adddup2(&fa, box, GL_MAILBOX_FD);
    if (s->host_pool_fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, s->host_pool_fd, GL_HOST_POOL_FD);
    /* what the student's code prints is not the grader's output */
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    fflush(NULL);
    r = posix_spawn(&S.pid, argv[0], &fa, &at, argv, subject_env());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(to[0]);
    close(from[1]);
    close(box);
    S.to = to[1];
    S.from = from[0];
    S.next = 0;
    S.loaded = 0;
    if (r != 0) {
        S.pid = 0;
        gl_link_kill();
        snprintf(why, sizeof why, "grader: could not start %s: %s (rebuild the kit with make)",
                 argv[0], strerror(r));
        return why;
    }
    return NULL;
}

static void ring(void)
{
    char b = 1;
    ssize_t r;
    do
        r = write(S.to, &b, 1);
    while (r < 0 && errno == EINTR);
}

/* Waits for a doorbell until deadline: 0 rung (or a moment passed: look again), -1 the
 * subject closed its end, -2 the deadline passed. */
static int doorbell(double deadline)
{
    struct pollfd pf = {S.from, POLLIN, 0};
    char buf[256];
    double left = deadline - gl_host_seconds();
    int r;
    if (left <= 0)
        return -2;
    /* a doorbell the student's code swallows must not hang the judge: look every 20 ms */
    r = poll(&pf, 1, left > 0.02 ? 20 : (int)(left * 1000) + 1);
    if (r < 0 && errno == EINTR)
        return 0;
    if (r <= 0)
        return 0;
    {
        ssize_t got = read(S.from, buf, sizeof buf);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            return 0;
        return got <= 0 ? -1 : 0;
    }
}

int gl_link_load(double deadline, gl_ready *ready)
{
    gl_request go;
    int r;
    memset(&go, 0, sizeof go);
    go.op = GL_OP_LOAD;
    (void)gl_link_post(&go, NULL, 0); /* request 0 */
    while (!__atomic_load_n(&S.mb->ready_set, __ATOMIC_ACQUIRE))
        if ((r = doorbell(deadline)) != 0)
            return r;
    *ready = S.mb->ready;
    ready->why[sizeof ready->why - 1] = '\0';
    S.loaded = ready->ok;
    return 0;
}

uint64_t gl_link_post(const gl_request *rq, const void *blob, size_t blob_bytes)
{
    uint64_t seq = S.next++;
    S.mb->slot[seq % GL_PROTO_SLOTS].rq = *rq;
    if (blob_bytes)
        memcpy(S.mb->slot[seq % GL_PROTO_SLOTS].blob, blob, blob_bytes);
    __atomic_store_n(&S.mb->posted, seq + 1, __ATOMIC_RELEASE);
    ring();
    return seq;
}

int gl_link_wait(uint64_t seq, double deadline, gl_reply *rp)
{
    int r;
    while (__atomic_load_n(&S.mb->answered, __ATOMIC_ACQUIRE) <= seq)
        if ((r = doorbell(deadline)) != 0)
            return r;
    *rp = S.mb->slot[seq % GL_PROTO_SLOTS].rp; /* a copy, checked by the caller */
    if (rp->nevents > GL_PROTO_EVENTS)
        rp->nevents = GL_PROTO_EVENTS, rp->overflow++;
    if (rp->ngpu > GL_PROTO_GPU)
        rp->ngpu = GL_PROTO_GPU, rp->gpu_overflow++;
    return 0;
}

const gl_gpu_event *gl_link_gpu(void)
{
    return S.mb ? S.mb->gpu : NULL;
}

uint32_t gl_link_taint(char *what, size_t len)
{
    uint32_t t;
    if (!S.mb)
        return 0;
    t = __atomic_load_n(&S.mb->taint, __ATOMIC_ACQUIRE);
    if (t && what)
        snprintf(what, len, "%.*s", (int)sizeof S.mb->taint_what, S.mb->taint_what);
    return t;
}

void gl_link_reap(char *why, size_t len, const char *during)
{
    int status = 0, code, sig, i;
    pid_t got = 0;
    for (i = 0; i < 200 && S.pid > 0 && (got = waitpid(S.pid, &status, WNOHANG)) == 0; i++)
        usleep(10000); /* it closed its pipe: give it 2 s to end */
    if (got == S.pid)
        S.pid = 0; /* reaped */
    gl_link_kill();
    if (got <= 0) {
        snprintf(why, len, "closed the grader's pipe %s and was stopped", during);
    } else if (WIFSIGNALED(status)) {
        sig = WTERMSIG(status);
        snprintf(why, len, "crashed (signal %d, %s) %s. %s", sig, strsignal(sig), during,
                 sig == SIGABRT ? "abort() or a failed assert() in host code raises it"
                 : sig == SIGSEGV || sig == SIGBUS
                     ? "Host code read or wrote memory it does not own: often a device pointer "
                       "used on the host (the launchers get device pointers: only kernels may "
                       "read them)"
                 : sig == SIGFPE ? "An integer division by zero in host code?"
                 : sig == SIGSYS ? "It made a system call the grader does not allow"
                                 : "Something in your code raised it");
    } else if (WIFEXITED(status)) {
        code = WEXITSTATUS(status);
        snprintf(why, len,
                 "exited with status %d %s: something called exit(%d), _exit or quick_exit. "
                 "Launchers must return to their caller (CUDA errors are the caller's to check)",
                 code, during, code);
    } else {
        snprintf(why, len, "stopped answering %s", during);
    }
}

int gl_link_quit_and_wait(double timeout_s)
{
    gl_request rq;
    int status = 0, i;
    pid_t got = 0;
    if (S.pid <= 0)
        return -1;
    if (!S.loaded) { /* it never ran anything */
        gl_link_kill();
        return -1;
    }
    memset(&rq, 0, sizeof rq);
    rq.op = GL_OP_QUIT;
    (void)gl_link_post(&rq, NULL, 0);
    for (i = 0; i < (int)(timeout_s * 100) && (got = waitpid(S.pid, &status, WNOHANG)) == 0; i++)
        usleep(10000);
    if (got == S.pid)
        S.pid = 0;
    gl_link_kill();
    return got > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
