/* contain.h: what a grading subject applies to itself before it loads a
 * student's shared library (Linux only: prctl, Landlock, seccomp).
 *
 * Afterwards the process may read files and use the GPU, but it cannot write
 * or change any file (except /dev/null and /dev/nvidia*), start a process,
 * trace or signal another process, leave its session or process group, or
 * open sockets other than AF_UNIX and AF_NETLINK. Refused system calls fail
 * with EPERM (Landlock's refusals with EACCES); nothing is killed. File
 * descriptors opened before the call (the pipe to the runner) keep working.
 *
 * Call gl_contain() while the process has a single thread: Landlock restricts
 * only the calling thread (and the threads it creates later); seccomp is
 * synchronised over all threads. It needs no privileges. */
#ifndef GL_CONTAIN_H
#define GL_CONTAIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int no_new_privs;   /* PR_SET_NO_NEW_PRIVS applied */
    int pdeathsig;      /* PR_SET_PDEATHSIG(SIGKILL): dies with its parent */
    int landlock_abi;   /* 0: none in this kernel */
    int landlock;       /* a ruleset is enforced */
    int seccomp;        /* the filter is loaded */
    char why[512];      /* what could not be applied, and why ("" when all) */
} gl_containment;

/* Contains the calling process (see above). Returns 0 when every protection
 * that the kernel offers was applied, -1 otherwise (why says what failed).
 * Fills c in any case; where the kernel offers no Landlock or no seccomp, why
 * says so although 0 is returned. */
int gl_contain(gl_containment *c);

/* The same, with files that stay writable (writable: NULL-terminated paths,
 * e.g. Nsight Compute's lock file when the subject runs under it), and with
 * GL_CONTAIN_WRITE_OPENS, no seccomp check of open()'s flags (Landlock still
 * binds the calling thread and those it creates). gl_contain(c) is
 * gl_contain_ex(c, NULL, 0). */
int gl_contain_ex(gl_containment *c, const char *const *writable, int flags);
enum {
    GL_CONTAIN_WRITE_OPENS = 1, /* no seccomp check of open()'s flags */
    GL_CONTAIN_NO_SECCOMP = 2,  /* diagnosis only: which layer breaks a tool */
    GL_CONTAIN_NO_LANDLOCK = 4,
    GL_CONTAIN_LOG_ONLY = 8     /* seccomp logs (audit) instead of refusing */
};

/* One line for a scoreboard: "landlock (ABI 7), seccomp, no_new_privs, pdeathsig"
 * or "NOT ISOLATED: no Landlock in this kernel (...); applied: seccomp, ..." */
void gl_containment_describe(const gl_containment *c, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
