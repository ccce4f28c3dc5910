/* contain.c: the containment a grading subject applies to itself before it
 * loads a student's shared library (contain.h says what it refuses).
 *
 * Three layers, in this order:
 *   1. prctl: no_new_privs (which unprivileged Landlock and seccomp need) and
 *      PR_SET_PDEATHSIG(SIGKILL), so a subject never outlives the runner;
 *   2. Landlock: every write-type file access is handled and granted only on
 *      /dev/null and /dev/nvidia*; TCP bind/connect (ABI 4) and signals out of
 *      the domain (ABI 6) are refused;
 *   3. seccomp (contain_seccomp.c): a BPF filter, built at run time to embed our
 *      pid, refuses the system calls that start, trace or signal other processes,
 *      create network sockets or change the system; and what Landlock cannot see
 *      (chmod, chown, xattrs, timestamps).
 * Each layer is applied where the kernel offers it; c->why says what was not. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "contain.h"
#include "contain_seccomp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/seccomp.h>
#if defined(__has_include)
#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#endif
#endif

/* ---- what older headers may lack (seccomp's: contain_seccomp.c) ---- */

/* System calls numbered 424 and up have one number on every architecture. */
#if defined(__x86_64__) || defined(__aarch64__)
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
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
