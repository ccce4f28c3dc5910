/* contain_probe.c: checks tests/grader/contain.c on this kernel. A standalone
 * program (no Check): a forked child contains itself with gl_contain(), tries
 * what must be refused and what must still work, and sends each outcome over
 * a pipe; the parent prints one line per check and exits 0 only when all hold.
 * Checks that need a protection this kernel lacks (no Landlock, an older
 * Landlock ABI, no seccomp) print "skip" and do not fail the run.
 *
 *   contain_probe            run the checks
 *   contain_probe --report   only print the protections this kernel gives */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "contain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/userfaultfd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

extern char **environ;

enum { /* what a check needs from the kernel */
    LL = 1,   /* Landlock */
    LL3 = 2,  /* Landlock ABI 3: truncate */
    LL4 = 4,  /* Landlock ABI 4: TCP */
    LL5 = 8,  /* Landlock ABI 5: ioctl on devices */
    SC = 16,  /* seccomp */
};

#define NA 1 /* a check's answer: the thing does not exist here */

static char dir[64];     /* scratch directory, made by the parent */
static int tcp[2] = {-1, -1}; /* TCP sockets opened before containment */

static const char *in(const char *name)
{
    static char buf[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* 0 when fd is one (closed again), -1 with errno otherwise */
static int fd_ok(long fd)
{
    if (fd < 0)
        return -1;
    close((int)fd);
    return 0;
}

/* ---- files (Landlock) ---- */

static int open_new(void) { return fd_ok(open(in("new"), O_WRONLY | O_CREAT | O_EXCL, 0600)); }
static int open_existing(void) { return fd_ok(open(in("existing"), O_WRONLY)); }
static int do_truncate(void) { return truncate(in("existing"), 0); }
static int do_mkdir(void) { return mkdir(in("dir"), 0700); }
static int do_symlink(void) { return symlink("existing", in("symlink")); }
static int do_link(void) { return link(in("existing"), in("hardlink")); }
static int do_mkfifo(void) { return mkfifo(in("fifo"), 0600); }
static int do_rename(void) { return rename(in("victim"), in("renamed")); }
static int do_unlink(void) { return unlink(in("existing")); }
static int do_chmod(void) { return chmod(dir, 0700); }

static int bind_unix(void)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    int s = socket(AF_UNIX, SOCK_STREAM, 0), rc, err;
    if (s < 0)
        return -1;
    snprintf(a.sun_path, sizeof a.sun_path, "%s", in("sock"));
    rc = bind(s, (struct sockaddr *)&a, sizeof a);
    err = errno;
    close(s);
    errno = err;
    return rc;
}

static void *open_new_thread(void *arg)
{
    int *r = arg;
    r[0] = fd_ok(open(in("new2"), O_WRONLY | O_CREAT | O_EXCL, 0600));
    r[1] = errno;
    return NULL;
}

static int open_in_thread(void)
{
    pthread_t t;
    int r[2], rc = pthread_create(&t, NULL, open_new_thread, r);
    if (rc) {
        errno = rc;
        return -1;
    }
    pthread_join(t, NULL);
    errno = r[1];
    return r[0];
}

/* ENOTTY: the ioctl reached the device, which is not a terminal */
static int tty_ioctl(const char *path)
{
    struct termios t;
    int fd = open(path, O_RDONLY), rc, err;
    if (fd < 0)
        return -1;
    rc = ioctl(fd, TCGETS, &t);
    err = errno;
    close(fd);
    errno = err;
    return rc < 0 && err == ENOTTY ? 0 : rc;
}

static int ioctl_zero(void) { return tty_ioctl("/dev/zero"); }
static int ioctl_null(void) { return tty_ioctl("/dev/null"); }

static int write_null(void)
{
    FILE *f = fopen("/dev/null", "w");
    if (!f)
        return -1;
    fputs("nothing\n", f);
    return fclose(f) == 0 ? 0 : -1;
}

static int read_file(void)
{
    char buf[8] = "";
    int fd = open(in("existing"), O_RDONLY);
    ssize_t got;
    if (fd < 0)
        return -1;
    got = read(fd, buf, sizeof buf);
    close(fd);
    return got == 5 && memcmp(buf, "hello", 5) == 0 ? 0 : (errno = EIO, -1);
}

static int read_dir(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n >= 3 ? 0 : (errno = EIO, -1);
}

/* ---- network ---- */

static int tcp_to(int s, int do_bind)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    a.sin_port = htons(do_bind ? 0 : 1);
    return do_bind ? bind(s, (struct sockaddr *)&a, sizeof a)
                   : connect(s, (struct sockaddr *)&a, sizeof a);
}

static int tcp_connect(void) { return tcp_to(tcp[0], 0) == 0 || errno == ECONNREFUSED ? 0 : -1; }
static int tcp_bind(void) { return tcp_to(tcp[1], 1); }
static int inet_socket(void) { return fd_ok(socket(AF_INET, SOCK_STREAM, 0)); }
static int inet6_socket(void) { return fd_ok(socket(AF_INET6, SOCK_DGRAM, 0)); }
static int unix_socket(void) { return fd_ok(socket(AF_UNIX, SOCK_STREAM, 0)); }
static int netlink_socket(void) { return fd_ok(socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)); }

static int unix_pair(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return -1;
    close(sv[0]);
    close(sv[1]);
    return 0;
}

/* ---- processes (seccomp) ---- */

static int child_done(long pid) /* a process was made: reap it */
{
    if (pid == 0)
        _exit(0);
    if (pid < 0)
        return -1;
    waitpid((pid_t)pid, NULL, 0);
    return 0;
}

static int do_fork(void) { return child_done(fork()); }
static int clone_process(void) { return child_done(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0)); }

static int do_clone3(void)
{
    uint64_t args[8] = {0}; /* struct clone_args, version 0 */
    args[4] = SIGCHLD;      /* exit_signal */
    return child_done(syscall(SYS_clone3, args, sizeof args));
}

#if defined(__x86_64__)
static int fork_syscall(void) { return child_done(syscall(SYS_fork)); }

/* A vfork child shares our stack: it exits before touching it. */
static int vfork_syscall(void)
{
    long rc;
    __asm__ volatile("syscall\n\t"
                     "test %%rax, %%rax\n\t"
                     "jnz 1f\n\t"
                     "mov $60, %%eax\n\t" /* exit(0) */
                     "xor %%edi, %%edi\n\t"
                     "syscall\n"
                     "1:"
                     : "=a"(rc)
                     : "0"((long)SYS_vfork)
                     : "rcx", "r11", "rdi", "memory");
    if (rc < 0)
        return errno = (int)-rc, -1;
    waitpid((pid_t)rc, NULL, 0);
    return 0;
}

static int x32_getpid(void) { return syscall(0x40000000L | 39) < 0 ? -1 : 0; }

/* int 0x80 (the i386 ABI) raises SIGSEGV where the kernel has no i386 emulation */
static sigjmp_buf no_int80;
static void on_segv(int sig)
{
    (void)sig;
    siglongjmp(no_int80, 1);
}

static int int80_getpid(void)
{
    struct sigaction sa = {.sa_handler = on_segv}, old;
    long rc = 0;
    sigaction(SIGSEGV, &sa, &old);
    if (sigsetjmp(no_int80, 1) == 0)
        __asm__ volatile("int $0x80" : "=a"(rc) : "0"(20L) : "r8", "r9", "r10", "r11", "memory");
    else
        rc = NA;
    sigaction(SIGSEGV, &old, NULL);
    if (rc == NA)
        return NA;
    return rc < 0 && rc > -4096 ? (errno = (int)-rc, -1) : 0;
}
#endif

static int do_execve(void)
{
    char *argv[] = {"true", NULL};
    return execve("/bin/true", argv, environ);
}

static int do_execveat(void)
{
    char *argv[] = {"true", NULL};
    return (int)syscall(SYS_execveat, AT_FDCWD, "/bin/true", argv, environ, 0);
}

static int do_ptrace(void)
{
    errno = 0;
    ptrace(PTRACE_PEEKDATA, getppid(), dir, NULL);
    return errno ? -1 : 0;
}

static int vm_readv(void)
{
    char buf[4];
    struct iovec here = {buf, sizeof buf}, there = {dir, sizeof buf};
    return process_vm_readv(getppid(), &here, 1, &there, 1, 0) < 0 ? -1 : 0;
}

static int vm_writev(void) { return process_vm_writev(getppid(), NULL, 0, NULL, 0, 0) < 0 ? -1 : 0; }
static int kill_parent(void) { return kill(getppid(), 0); }
static int kill_group(void) { return kill(0, 0); }
static int kill_all(void) { return kill(-1, 0); }
static int tkill_parent(void) { return (int)syscall(SYS_tkill, getppid(), 0); }
static int tgkill_parent(void) { return (int)syscall(SYS_tgkill, getppid(), getppid(), 0); }

static int sigqueue_parent(void)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_code = SI_QUEUE;
    return (int)syscall(SYS_rt_sigqueueinfo, getppid(), 0, &si);
}

static int pidfd_parent(void) { return fd_ok(syscall(SYS_pidfd_open, getppid(), 0)); }
static int do_setsid(void) { return setsid() < 0 ? -1 : 0; }
static int do_setpgid(void) { return setpgid(0, getpgrp()); } /* stays where it is */
static int renice_parent(void) /* to the value it has */
{
    int nice;
    errno = 0;
    nice = getpriority(PRIO_PROCESS, (id_t)getppid());
    return errno ? -1 : setpriority(PRIO_PROCESS, (id_t)getppid(), nice);
}

static int do_unshare(void) { return unshare(CLONE_NEWUSER); }
static int undo_pdeathsig(void) { return prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0); }
static int tiocsti(void) { return ioctl(-1, TIOCSTI, "x"); }

static int parent_rlimit(void)
{
    struct rlimit r;
    return prlimit(getppid(), RLIMIT_NOFILE, NULL, &r);
}

static int io_uring(void)
{
    char params[256] = {0}; /* struct io_uring_params and then some */
    return fd_ok(syscall(SYS_io_uring_setup, 1, params));
}

static int perf_event(void)
{
    struct perf_event_attr a = {.type = PERF_TYPE_SOFTWARE, .size = sizeof a,
                                .config = PERF_COUNT_SW_CPU_CLOCK, .disabled = 1,
                                .exclude_kernel = 1};
    return fd_ok(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0));
}

/* user-mode-only: what the kernel lets anyone have (5.11 and later) */
static int userfault(void) { return fd_ok(syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY)); }

/* ---- what must still work ---- */

static void *nothing(void *arg) { return arg; }

static int make_thread(void)
{
    pthread_t t;
    int rc = pthread_create(&t, NULL, nothing, NULL);
    if (rc)
        return errno = rc, -1;
    return pthread_join(t, NULL);
}

static void *tgkill_me(void *arg)
{
    int *r = arg;
    r[0] = (int)syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), 0);
    r[1] = errno;
    return NULL;
}

static int tgkill_thread(void)
{
    pthread_t t;
    int r[2], rc = pthread_create(&t, NULL, tgkill_me, r);
    if (rc)
        return errno = rc, -1;
    pthread_join(t, NULL);
    errno = r[1];
    return r[0];
}

static int kill_self(void) { return kill(getpid(), 0); }
static int tgkill_self(void) { return (int)syscall(SYS_tgkill, getpid(), getpid(), 0); }

static int own_rlimit(void)
{
    struct rlimit r;
    return getrlimit(RLIMIT_NOFILE, &r);
}

static int memfd(void)
{
    int fd = memfd_create("contain_probe", MFD_CLOEXEC), ok;
    if (fd < 0)
        return -1;
    ok = write(fd, "x", 1) == 1;
    close(fd);
    return ok ? 0 : -1;
}

/* ---- the table ---- */

typedef struct {
    const char *what;
    int (*fn)(void);
    int refuse;        /* must be refused, with err */
    int err;
    const char *err_name;
    int needs;
} check;

#define REFUSE(what, fn, e, needs) {what, fn, 1, e, #e, needs}
#define WORKS(what, fn) {what, fn, 0, 0, "", 0}

static const check checks[] = {
    WORKS("read a file", read_file), /* first: later checks may change it where not refused */
    WORKS("read a directory", read_dir),
    REFUSE("open a new file for write in /tmp", open_new, EPERM, SC),
    REFUSE("open an existing file for write", open_existing, EPERM, SC),
    REFUSE("open for write from a second thread", open_in_thread, EPERM, SC),
    REFUSE("truncate", do_truncate, EPERM, SC),
    REFUSE("mkdir", do_mkdir, EPERM, SC),
    REFUSE("symlink", do_symlink, EPERM, SC),
    REFUSE("hard link", do_link, EPERM, SC),
    REFUSE("mkfifo", do_mkfifo, EPERM, SC),
    REFUSE("bind a unix socket to a path", bind_unix, EACCES, LL),
    REFUSE("rename", do_rename, EPERM, SC),
    REFUSE("unlink", do_unlink, EPERM, SC),
    REFUSE("ioctl on /dev/zero", ioctl_zero, EACCES, LL | LL5),
    REFUSE("tcp connect (socket made before)", tcp_connect, EACCES, LL | LL4),
    REFUSE("tcp bind (socket made before)", tcp_bind, EACCES, LL | LL4),
    REFUSE("fopen /dev/null for write (no file opened for writing)", write_null, EPERM, SC),
    WORKS("ioctl on /dev/null", ioctl_null),
    WORKS("pthread_create", make_thread),
    WORKS("kill(getpid(), 0)", kill_self),
    WORKS("tgkill to own main thread", tgkill_self),
    WORKS("tgkill to own second thread", tgkill_thread),
    WORKS("socket(AF_UNIX)", unix_socket),
    WORKS("socketpair(AF_UNIX)", unix_pair),
    WORKS("socket(AF_NETLINK)", netlink_socket),
    WORKS("memfd_create", memfd),
    WORKS("getrlimit", own_rlimit),
    REFUSE("fork", do_fork, EPERM, SC),
    REFUSE("clone without CLONE_THREAD", clone_process, EPERM, SC),
    REFUSE("clone3", do_clone3, ENOSYS, SC),
#if defined(__x86_64__)
    REFUSE("fork syscall", fork_syscall, EPERM, SC),
    REFUSE("vfork syscall", vfork_syscall, EPERM, SC),
    REFUSE("x32 syscall", x32_getpid, EPERM, SC),
    REFUSE("i386 syscall (int 0x80)", int80_getpid, EPERM, SC),
#endif
    REFUSE("ptrace the parent", do_ptrace, EPERM, SC),
    REFUSE("process_vm_readv", vm_readv, EPERM, SC),
    REFUSE("process_vm_writev", vm_writev, EPERM, SC),
    REFUSE("kill(getppid(), 0)", kill_parent, EPERM, SC),
    REFUSE("kill(0, 0)", kill_group, EPERM, SC),
    REFUSE("kill(-1, 0)", kill_all, EPERM, SC),
    REFUSE("tkill to the parent", tkill_parent, EPERM, SC),
    REFUSE("tgkill to the parent", tgkill_parent, EPERM, SC),
    REFUSE("rt_sigqueueinfo to the parent", sigqueue_parent, EPERM, SC),
    REFUSE("pidfd_open", pidfd_parent, EPERM, SC),
    REFUSE("setpgid", do_setpgid, EPERM, SC), /* before setsid, which would make it a leader */
    REFUSE("setsid", do_setsid, EPERM, SC),
    REFUSE("setpriority on the parent", renice_parent, EPERM, SC),
    REFUSE("unshare(CLONE_NEWUSER)", do_unshare, EPERM, SC),
    REFUSE("socket(AF_INET, SOCK_STREAM)", inet_socket, EPERM, SC),
    REFUSE("socket(AF_INET6, SOCK_DGRAM)", inet6_socket, EPERM, SC),
    REFUSE("io_uring_setup", io_uring, EPERM, SC),
    REFUSE("perf_event_open", perf_event, EPERM, SC),
    REFUSE("userfaultfd", userfault, EPERM, SC),
    REFUSE("prctl(PR_SET_PDEATHSIG, 0)", undo_pdeathsig, EPERM, SC),
    REFUSE("prlimit on the parent", parent_rlimit, EPERM, SC),
    REFUSE("chmod", do_chmod, EPERM, SC),
    REFUSE("ioctl TIOCSTI", tiocsti, EPERM, SC),
    REFUSE("execve", do_execve, EPERM, SC), /* last: were they allowed, the child is gone */
    REFUSE("execveat", do_execveat, EPERM, SC),
};

#define NCHECKS (int)(sizeof checks / sizeof checks[0])

typedef struct {
    gl_containment c;
    int rc;
} hello;

typedef struct {
    int i, rc, err;
} answer;

static void child(int out)
{
    hello h;
    answer a;

    alarm(30);
    tcp[0] = socket(AF_INET, SOCK_STREAM, 0);
    tcp[1] = socket(AF_INET, SOCK_STREAM, 0);
    h.rc = gl_contain(&h.c);
    if (write(out, &h, sizeof h) != sizeof h)
        _exit(1);
    for (a.i = 0; a.i < NCHECKS; a.i++) {
        errno = 0;
        a.rc = checks[a.i].fn();
        a.err = errno;
        if (write(out, &a, sizeof a) != sizeof a)
            _exit(1);
    }
    _exit(0);
}

static const char *errname(int e)
{
    static char buf[64];
    switch (e) {
    case EPERM: return "EPERM";
    case EACCES: return "EACCES";
    case ENOSYS: return "ENOSYS";
    case ENOENT: return "ENOENT";
    case ESRCH: return "ESRCH";
    case EINVAL: return "EINVAL";
    case EBADF: return "EBADF";
    default: snprintf(buf, sizeof buf, "errno %d, %s", e, strerror(e)); return buf;
    }
}

static int read_all(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

/* Why a check cannot run here, or NULL. */
static const char *unmet(int needs, const gl_containment *c)
{
    static char buf[96];
    if ((needs & LL) && !c->landlock)
        return "no Landlock";
    if ((needs & SC) && !c->seccomp)
        return "no seccomp";
    int abi = needs & LL5 ? 5 : needs & LL4 ? 4 : needs & LL3 ? 3 : 0;
    if (abi > c->landlock_abi) {
        snprintf(buf, sizeof buf, "needs Landlock ABI %d, this kernel has %d", abi,
                 c->landlock_abi);
        return buf;
    }
    return NULL;
}

static void cleanup(void)
{
    const char *names[] = {"existing", "victim", "new", "new2", "symlink", "hardlink", "fifo",
                           "sock", "renamed"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(in(names[i]));
    rmdir(in("dir"));
    rmdir(dir);
}

int main(int argc, char **argv)
{
    hello h;
    answer a, got[NCHECKS];
    char line[1024];
    int fd[2], status, fails = 0, skips = 0, f;
    pid_t pid;

    if (argc == 2 && strcmp(argv[1], "--report") == 0) {
        gl_containment c;
        int rc = gl_contain(&c);
        gl_containment_describe(&c, line, sizeof line);
        printf("%s\n", line);
        return rc == 0 ? 0 : 1;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--report]\n", argv[0]);
        return 2;
    }

    snprintf(dir, sizeof dir, "/tmp/contain_probe.XXXXXX");
    if (!mkdtemp(dir) || (f = open(in("existing"), O_WRONLY | O_CREAT, 0644)) < 0 ||
        write(f, "hello", 5) != 5 || close(f) != 0 ||
        (f = open(in("victim"), O_WRONLY | O_CREAT, 0644)) < 0 || close(f) != 0 || pipe(fd) != 0) {
        fprintf(stderr, "contain_probe: cannot set up in /tmp: %s\n", strerror(errno));
        return 1;
    }
    fflush(NULL);
    if ((pid = fork()) < 0) {
        fprintf(stderr, "contain_probe: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        close(fd[0]);
        child(fd[1]);
    }
    close(fd[1]);
    for (int i = 0; i < NCHECKS; i++)
        got[i].i = -1;
    if (read_all(fd[0], &h, sizeof h) != 0) {
        fprintf(stderr, "contain_probe: the child did not report its containment\n");
        waitpid(pid, &status, 0);
        cleanup();
        return 1;
    }
    while (read_all(fd[0], &a, sizeof a) == 0)
        if (a.i >= 0 && a.i < NCHECKS)
            got[a.i] = a;
    close(fd[0]);
    waitpid(pid, &status, 0);
    cleanup();

    gl_containment_describe(&h.c, line, sizeof line);
    printf("protections: %s\n", line);
    if (h.rc != 0) {
        printf("FAIL gl_contain: %s\n", h.c.why);
        fails++;
    }
    for (int i = 0; i < NCHECKS; i++) {
        const check *k = &checks[i];
        const char *no = unmet(k->needs, &h.c);
        if (no) {
            printf("skip %s (%s)\n", k->what, no);
            skips++;
        } else if (got[i].i != i) {
            printf("FAIL %s: no answer (the child %s %d)\n", k->what,
                   WIFSIGNALED(status) ? "was killed by signal" : "exited with",
                   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            fails++;
        } else if (got[i].rc == NA) {
            printf("skip %s (not in this kernel)\n", k->what);
            skips++;
        } else if (k->refuse && got[i].rc == 0) {
            printf("FAIL %s allowed\n", k->what);
            fails++;
        } else if (k->refuse && got[i].err != k->err) {
            printf("FAIL %s refused with %s, not %s\n", k->what, errname(got[i].err), k->err_name);
            fails++;
        } else if (k->refuse) {
            printf("ok   %s refused (%s)\n", k->what, k->err_name);
        } else if (got[i].rc != 0) {
            printf("FAIL %s failed (%s)\n", k->what, errname(got[i].err));
            fails++;
        } else {
            printf("ok   %s works\n", k->what);
        }
    }
    if (!h.c.landlock || !h.c.seccomp)
        printf("missing: %s\n", h.c.why);
    printf("contain_probe: %d checks, %d failed, %d skipped\n", NCHECKS, fails, skips);
    return fails ? 1 : 0;
}
