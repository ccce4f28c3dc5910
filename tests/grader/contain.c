/* contain.c: the containment a grading subject applies to itself before it
 * loads a student's shared library (contain.h says what it refuses).
 *
 * Three layers, in this order:
 *   1. prctl: no_new_privs (which unprivileged Landlock and seccomp need) and
 *      PR_SET_PDEATHSIG(SIGKILL), so a subject never outlives the runner;
 *   2. Landlock: every write-type file access is handled and granted only on
 *      /dev/null and /dev/nvidia*; TCP bind/connect (ABI 4) and signals out of
 *      the domain (ABI 6) are refused;
 *   3. seccomp: a BPF filter, built at run time to embed our pid, refuses the
 *      system calls that start, trace or signal other processes, create
 *      network sockets or change the system; and what Landlock cannot see
 *      (chmod, chown, xattrs, timestamps).
 * Each layer is applied where the kernel offers it; c->why says what was not. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "contain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#if defined(__has_include)
#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#endif
#endif

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
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
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

#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#ifndef LANDLOCK_ACCESS_FS_EXECUTE
#define LANDLOCK_ACCESS_FS_EXECUTE (1ULL << 0)
#define LANDLOCK_ACCESS_FS_WRITE_FILE (1ULL << 1)
#define LANDLOCK_ACCESS_FS_READ_FILE (1ULL << 2)
#define LANDLOCK_ACCESS_FS_READ_DIR (1ULL << 3)
#define LANDLOCK_ACCESS_FS_REMOVE_DIR (1ULL << 4)
#define LANDLOCK_ACCESS_FS_REMOVE_FILE (1ULL << 5)
#define LANDLOCK_ACCESS_FS_MAKE_CHAR (1ULL << 6)
#define LANDLOCK_ACCESS_FS_MAKE_DIR (1ULL << 7)
#define LANDLOCK_ACCESS_FS_MAKE_REG (1ULL << 8)
#define LANDLOCK_ACCESS_FS_MAKE_SOCK (1ULL << 9)
#define LANDLOCK_ACCESS_FS_MAKE_FIFO (1ULL << 10)
#define LANDLOCK_ACCESS_FS_MAKE_BLOCK (1ULL << 11)
#define LANDLOCK_ACCESS_FS_MAKE_SYM (1ULL << 12)
#endif
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif
#define GL_RULE_PATH_BENEATH 1 /* an enum in the header, so no #ifndef */

/* Our own copies of the kernel's structures: old headers have shorter ones.
 * The kernel takes the size we pass and zero-extends. */
struct gl_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
};

struct gl_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

static void note(gl_containment *c, const char *fmt, ...)
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

/* ---- Landlock ---- */

static int allow_path(int ruleset, const char *path, uint64_t access)
{
    struct gl_path_beneath_attr rule = {.allowed_access = access};
    int rc, err;

    rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
    if (rule.parent_fd < 0)
        return -1;
    rc = (int)syscall(SYS_landlock_add_rule, ruleset, GL_RULE_PATH_BENEATH, &rule, 0);
    err = errno;
    close(rule.parent_fd);
    errno = err;
    return rc;
}

static const char *const *extra_writable; /* gl_contain_ex: files that stay writable */
static int write_opens_allowed;            /* gl_contain_ex: no seccomp check of open flags */
static int contain_flags;                  /* gl_contain_ex's flags */

static int apply_landlock(gl_containment *c)
{
    struct gl_ruleset_attr attr = {0};
    size_t size = sizeof attr.handled_access_fs;
    uint64_t dev;
    glob_t g;
    int fd, failed = 0;
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

    if (abi <= 0) {
        note(c, "no Landlock in this kernel (%s)",
             errno == EOPNOTSUPP ? "built but not enabled at boot" : strerror(errno));
        return 0;
    }
    c->landlock_abi = (int)abi;

    /* Handled rights are refused unless a rule grants them: all that writes,
     * none that reads or executes (the subject must still load libraries). */
    attr.handled_access_fs =
        LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
        LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |
        LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
        LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2)
        attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        attr.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 4) { /* no net rule follows: no TCP bind or connect at all */
        attr.handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 5)
        attr.handled_access_fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    if (abi >= 6) { /* signals only: scoping abstract unix sockets may break CUDA and MPS */
        attr.scoped = LANDLOCK_SCOPE_SIGNAL;
        size = sizeof attr;
    }
    fd = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (fd < 0) {
        note(c, "Landlock (ABI %ld): no ruleset: %s", abi, strerror(errno));
        return -1;
    }

    /* A rule on a single file may carry file rights only; these are. A rule on
     * a directory (/dev/nvidia-caps) covers what lies beneath it, so the one
     * glob reaches /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia0, ... */
    dev = attr.handled_access_fs &
          (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV);
    if (allow_path(fd, "/dev/null", dev) != 0) {
        note(c, "Landlock: no rule for /dev/null: %s", strerror(errno));
        failed = 1;
    }
    if (glob("/dev/nvidia*", GLOB_NOSORT, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            if (allow_path(fd, g.gl_pathv[i], dev) != 0 && errno != ENOENT) {
                note(c, "Landlock: no rule for %s: %s", g.gl_pathv[i], strerror(errno));
                failed = 1;
            }
        }
        globfree(&g);
    }
    for (int i = 0; extra_writable && extra_writable[i]; i++) {
        /* a tool's own folder: it makes, writes and removes its lock files there */
        uint64_t dir = attr.handled_access_fs &
                       (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
                        LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_DIR |
                        LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR);
        struct stat st;
        if (stat(extra_writable[i], &st) == 0 && !S_ISDIR(st.st_mode))
            dir = dev;
        if (allow_path(fd, extra_writable[i], dir) != 0)
            note(c, "Landlock: no rule for %s: %s", extra_writable[i], strerror(errno));
    }
    /* Restricted even when a rule failed: a missing grant must not mean no sandbox. */
    if (syscall(SYS_landlock_restrict_self, fd, 0) != 0) {
        note(c, "Landlock (ABI %ld): not enforced: %s", abi, strerror(errno));
        failed = 1;
    } else {
        c->landlock = 1;
    }
    close(fd);
    return failed ? -1 : 0;
}

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
static unsigned deny_action = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
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

static int apply_seccomp(gl_containment *c)
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

static int apply_seccomp(gl_containment *c)
{
    note(c, "seccomp: no filter written for this architecture");
    return -1;
}

#endif

/* ---- the whole ---- */

static int threads(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;

    if (!d)
        return 1;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

int gl_contain(gl_containment *c)
{
    return gl_contain_ex(c, NULL, 0);
}

int gl_contain_ex(gl_containment *c, const char *const *writable, int allow_write_opens)
{
    int rc = 0, n;
    pid_t parent;

    memset(c, 0, sizeof *c);
    extra_writable = writable;
    contain_flags = allow_write_opens;
    write_opens_allowed = allow_write_opens & GL_CONTAIN_WRITE_OPENS;
    if (contain_flags & GL_CONTAIN_LOG_ONLY) /* a diagnosis: log what would be refused */
        deny_action = SECCOMP_RET_LOG;
    if ((n = threads()) > 1) {
        note(c, "%d threads already run: Landlock restricts only the calling one", n);
        rc = -1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) {
        c->no_new_privs = 1;
    } else {
        note(c, "no_new_privs: %s", strerror(errno));
        rc = -1;
    }
    /* A parent that exits before the prctl is not seen by it: then getppid()
     * has changed (to init or a subreaper). A parent that is PID 1 (a
     * container's runner) is fine. */
    parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
        note(c, "pdeathsig: %s", strerror(errno));
        rc = -1;
    } else if (getppid() != parent) {
        note(c, "pdeathsig: the parent had already exited");
        rc = -1;
    } else {
        c->pdeathsig = 1;
    }
    if (!(contain_flags & GL_CONTAIN_NO_LANDLOCK) && apply_landlock(c) != 0)
        rc = -1;
    if (!(contain_flags & GL_CONTAIN_NO_SECCOMP) && apply_seccomp(c) != 0) /* last */
        rc = -1;
    return rc;
}

static void add(char *list, size_t len, const char *item)
{
    size_t used = strlen(list);
    snprintf(list + used, len - used, "%s%s", used ? ", " : "", item);
}

void gl_containment_describe(const gl_containment *c, char *buf, size_t len)
{
    char on[128] = "", ll[32];

    if (c->landlock) {
        snprintf(ll, sizeof ll, "landlock (ABI %d)", c->landlock_abi);
        add(on, sizeof on, ll);
    }
    if (c->seccomp)
        add(on, sizeof on, "seccomp");
    if (c->no_new_privs)
        add(on, sizeof on, "no_new_privs");
    if (c->pdeathsig)
        add(on, sizeof on, "pdeathsig");
    if (c->landlock && c->seccomp && c->no_new_privs)
        snprintf(buf, len, "%s%s%s", on, c->why[0] ? "; but: " : "", c->why);
    else
        snprintf(buf, len, "NOT ISOLATED: %s; applied: %s", c->why[0] ? c->why : "not contained",
                 on[0] ? on : "nothing");
}
