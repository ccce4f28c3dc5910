/* contain_seccomp.c: the third layer of the subject's containment (contain.c applies it
 * last): seccomp, a BPF filter built at run time to embed our pid and loaded for every
 * thread. It refuses the system calls that start, trace or signal other processes, create
 * network sockets or change the system, and what Landlock cannot see (chmod, chown, xattrs,
 * timestamps); unless a tool's own files must be written, files made, moved or removed, or
 * opened for writing, by any thread. And note(), which every layer uses to say what it could
 * not apply (c->why). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "contain.h"
#include "contain_seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* ---- what older headers may lack ---- */

#ifndef AUDIT_ARCH_X86_64
#define AUDIT_ARCH_X86_64 0xc000003eU
#endif
#ifndef AUDIT_ARCH_AARCH64
#define AUDIT_ARCH_AARCH64 0xc00000b7U
#endif
#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000U
#endif
#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER 1
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC
#define SECCOMP_FILTER_FLAG_TSYNC 1UL
#endif
#ifndef SECCOMP_RET_ERRNO
#define SECCOMP_RET_ERRNO 0x00050000U
#endif
#ifndef SECCOMP_RET_ALLOW
#define SECCOMP_RET_ALLOW 0x7fff0000U
#endif
#ifndef SECCOMP_RET_DATA
#define SECCOMP_RET_DATA 0x0000ffffU
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef TIOCSTI
#define TIOCSTI 0x5412
#endif

/* System calls numbered 424 and up have one number on every architecture. */
#if defined(__x86_64__) || defined(__aarch64__)
#ifndef SYS_seccomp
#if defined(__x86_64__)
#define SYS_seccomp 317
#else
#define SYS_seccomp 277
#endif
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_enter 426
#define SYS_io_uring_register 427
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#define SYS_move_mount 429
#define SYS_fsopen 430
#define SYS_fsconfig 431
#define SYS_fsmount 432
#define SYS_fspick 433
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#endif
#ifndef SYS_removexattrat
#define SYS_removexattrat 466
#endif
#ifndef SYS_open_tree_attr
#define SYS_open_tree_attr 467
#endif
#endif

void note(gl_containment *c, const char *fmt, ...)
{
    size_t used = strlen(c->why);
    va_list ap;

    if (used && used + 2 < sizeof c->why) {
        memcpy(c->why + used, "; ", 3);
        used += 2;
    }
    va_start(ap, fmt);
    vsnprintf(c->why + used, sizeof c->why - used, fmt, ap);
    va_end(ap);
}

int write_opens_allowed; /* gl_contain_ex: no seccomp check of open flags */

/* ---- seccomp ---- */

#if defined(__x86_64__)
#define GL_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define GL_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef GL_AUDIT_ARCH

/* Refused outright (EPERM). */
static const uint32_t denied[] = {
#if defined(__x86_64__) /* aarch64 has only the *at and clone forms of these */
    SYS_fork, SYS_vfork, SYS_chmod, SYS_chown, SYS_lchown, SYS_utime, SYS_utimes, SYS_futimesat,
    SYS_iopl, SYS_ioperm,
#endif
    /* other processes */
    SYS_execve, SYS_execveat, SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev,
    SYS_process_madvise, SYS_kcmp, SYS_pidfd_open, SYS_pidfd_send_signal, SYS_pidfd_getfd,
    SYS_setsid, SYS_setpgid, SYS_setpriority, SYS_ioprio_set, /* no renicing the runner */
    /* namespaces, mounts, the kernel */
    SYS_unshare, SYS_setns, SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot, SYS_open_tree,
    SYS_open_tree_attr, SYS_move_mount, SYS_fsopen, SYS_fsconfig, SYS_fsmount, SYS_fspick,
    SYS_mount_setattr, SYS_bpf, SYS_perf_event_open, SYS_keyctl, SYS_add_key, SYS_request_key,
    SYS_init_module, SYS_finit_module, SYS_delete_module, SYS_kexec_load,
#ifdef SYS_kexec_file_load
    SYS_kexec_file_load,
#endif
    SYS_reboot, SYS_swapon, SYS_swapoff, SYS_open_by_handle_at,
    /* userfaultfd eases kernel exploits; io_uring does file work past seccomp */
    SYS_userfaultfd, SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
    /* file metadata, which Landlock does not cover */
    SYS_fchmod, SYS_fchmodat, SYS_fchmodat2, SYS_fchown, SYS_fchownat, SYS_utimensat,
    SYS_setxattr, SYS_lsetxattr, SYS_fsetxattr, SYS_setxattrat, SYS_removexattr,
    SYS_lremovexattr, SYS_fremovexattr, SYS_removexattrat,
};

/* Files made, moved or removed by any thread (Landlock binds only the threads made after it,
 * and CUDA's own threads exist before); refused unless a tool's own files must be written. */
static const uint32_t file_changes[] = {
#if defined(__x86_64__)
    SYS_creat, SYS_unlink, SYS_rename, SYS_mkdir, SYS_rmdir, SYS_link, SYS_symlink, SYS_mknod,
#endif
    SYS_unlinkat, SYS_renameat, SYS_renameat2, SYS_mkdirat, SYS_linkat, SYS_symlinkat,
    SYS_mknodat, SYS_truncate,
};

/* The jumps to the final DENY are 8 bits wide. */
_Static_assert(sizeof denied / sizeof denied[0] < 250, "too many denied system calls");

#define GL_MAX_INSNS 256
unsigned deny_action = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
#define DENY deny_action
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARG_LO(i) (offsetof(struct seccomp_data, args[i]) + 4)
#else
#define ARG_LO(i) offsetof(struct seccomp_data, args[i])
#endif

typedef struct {
    struct sock_filter insn[GL_MAX_INSNS];
    unsigned n;
} filter;

static void put(filter *f, uint16_t code, uint32_t k, unsigned jt, unsigned jf)
{
    if (f->n < GL_MAX_INSNS)
        f->insn[f->n] = (struct sock_filter){code, (uint8_t)jt, (uint8_t)jf, k};
    f->n++;
}

#define LD(f, off) put(f, BPF_LD | BPF_W | BPF_ABS, (uint32_t)(off), 0, 0)
#define RET(f, v) put(f, BPF_RET | BPF_K, (v), 0, 0)
#define JEQ(f, k, jt, jf) put(f, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(k), jt, jf)
#define JSET(f, k, jt, jf) put(f, BPF_JMP | BPF_JSET | BPF_K, (uint32_t)(k), jt, jf)

/* Syscall nr passes only when the low 32 bits of args[arg] (what an int or
 * pid_t parameter sees) are one of ok[]. */
static void arg_in(filter *f, int nr, int arg, const uint32_t *ok, unsigned n)
{
    JEQ(f, nr, 0, n + 3);
    LD(f, ARG_LO(arg));
    for (unsigned i = 0; i < n; i++)
        JEQ(f, ok[i], n - i, 0);
    RET(f, DENY);
    RET(f, SECCOMP_RET_ALLOW);
}

/* Syscall nr passes unless the low 32 bits of args[arg] are bad. */
static void arg_not(filter *f, int nr, int arg, uint32_t bad)
{
    JEQ(f, nr, 0, 4);
    LD(f, ARG_LO(arg));
    JEQ(f, bad, 0, 1);
    RET(f, DENY);
    RET(f, SECCOMP_RET_ALLOW);
}

static void build_filter(filter *f)
{
    const uint32_t me[] = {(uint32_t)getpid()};
    const uint32_t me_or_zero[] = {0, (uint32_t)getpid()};
    const uint32_t families[] = {AF_UNIX, AF_NETLINK};
    const unsigned ndenied = sizeof denied / sizeof denied[0];

    f->n = 0;
    /* Another ABI (i386 through int 0x80, arm32) has other numbers: refuse it all. */
    LD(f, offsetof(struct seccomp_data, arch));
    JEQ(f, GL_AUDIT_ARCH, 1, 0);
    RET(f, DENY);
    LD(f, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
    put(f, BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1); /* x32: same arch, other numbers */
    RET(f, DENY);
#endif
    /* glibc creates threads with clone3 and falls back to clone on ENOSYS,
     * where the flags can be checked (clone3 passes them in memory). */
    JEQ(f, SYS_clone3, 0, 1);
    RET(f, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
    /* clone: threads only (flags are args[0] on x86_64 and aarch64), no namespaces */
    JEQ(f, SYS_clone, 0, 5);
    LD(f, ARG_LO(0));
    JSET(f, CLONE_THREAD, 0, 2);
    JSET(f, CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |
                CLONE_NEWPID | CLONE_NEWNET, 1, 0);
    RET(f, SECCOMP_RET_ALLOW);
    RET(f, DENY);
    /* signals to ourselves only: kill(0) and kill(-pgid) fail as any other pid */
    arg_in(f, SYS_kill, 0, me, 1);
    arg_in(f, SYS_tgkill, 0, me, 1);
    arg_in(f, SYS_tkill, 0, me, 1); /* our main thread; glibc uses tgkill */
    arg_in(f, SYS_rt_sigqueueinfo, 0, me, 1);
    arg_in(f, SYS_rt_tgsigqueueinfo, 0, me, 1);
    arg_in(f, SYS_prlimit64, 0, me_or_zero, 2); /* a parent's limits are not ours to set */
    arg_in(f, SYS_socket, 0, families, 2);      /* CUDA talks over unix sockets */
    arg_not(f, SYS_prctl, 0, PR_SET_PDEATHSIG); /* it must not be undone */
    if (!write_opens_allowed) {
        const unsigned nchanges = sizeof file_changes / sizeof file_changes[0];
        for (unsigned i = 0; i < nchanges; i++) {
            JEQ(f, file_changes[i], 0, 1);
            RET(f, DENY);
        }
        /* no file opened for writing by any thread: the GPU's device files are open already */
        const uint32_t writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
        JEQ(f, SYS_openat, 0, 4);
        LD(f, ARG_LO(2));
        JSET(f, writing, 0, 1);
        RET(f, DENY);
        RET(f, SECCOMP_RET_ALLOW);
#if defined(__x86_64__)
        JEQ(f, SYS_open, 0, 4);
        LD(f, ARG_LO(1));
        JSET(f, writing, 0, 1);
        RET(f, DENY);
        RET(f, SECCOMP_RET_ALLOW);
#endif
        /* openat2 passes its flags in memory: glibc's open() does not use it */
        JEQ(f, SYS_openat2, 0, 1);
        RET(f, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
        LD(f, offsetof(struct seccomp_data, nr));
    }
    arg_not(f, SYS_ioctl, 1, TIOCSTI);          /* no typing into the runner's terminal */
    for (unsigned i = 0; i < ndenied; i++)
        JEQ(f, denied[i], ndenied - i, 0);
    RET(f, SECCOMP_RET_ALLOW);
    RET(f, DENY);
}

int apply_seccomp(gl_containment *c)
{
    filter f;
    struct sock_fprog prog;
    long rc;

    if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL) {
        note(c, "no seccomp in this kernel");
        return 0;
    }
    build_filter(&f);
    if (f.n > GL_MAX_INSNS) {
        note(c, "seccomp: the filter outgrew %d instructions", GL_MAX_INSNS);
        return -1;
    }
    prog.len = (unsigned short)f.n;
    prog.filter = f.insn;
    rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
    if (rc == 0) {
        c->seccomp = 1;
        return 0;
    }
    if (rc < 0 && errno == ENOSYS) {
        note(c, "no seccomp() in this kernel (before 3.17)");
        return 0;
    }
    if (rc > 0)
        note(c, "seccomp: thread %ld could not be synchronised", rc);
    else
        note(c, "seccomp: filter refused: %s", strerror(errno));
    return -1;
}

#else /* neither x86_64 nor aarch64 */

int apply_seccomp(gl_containment *c)
{
    note(c, "seccomp: no filter written for this architecture");
    return -1;
}

#endif
