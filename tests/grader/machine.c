/* machine.c: what this machine offers the grading: a GPU (gl_have_gpu), Nsight Compute and
 * compute-sanitizer. The runner probes for them once (machine.h), then decides by them which
 * tests run here and which are skipped, and says why. */
#include "grader.h"
#include "machine.h"

#include "gl_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

machine m;

int gl_have_gpu(void)
{
    return m.gpu;
}

void probe_gpu(void)
{
    gl_device_info info;
    char why[256];
    if (gl_device_query(&info, why, sizeof why) == 0) {
        m.gpu = 1;
        snprintf(m.gpu_name, sizeof m.gpu_name, "%s (sm_%d%d)", info.name, info.cc_major,
                 info.cc_minor);
    } else {
        snprintf(m.gpu_name, sizeof m.gpu_name, "%s", why);
    }
}

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static void probe_tool(const char *env_name, const char *tool, const char *const *subdirs,
                       char *found, size_t flen, char *why, size_t wlen);

void probe_sanitizer(void)
{
    static const char *const sub[] = {"bin", "compute-sanitizer", NULL};
    probe_tool("COMPUTE_SANITIZER", "compute-sanitizer", sub, m.sanitizer, sizeof m.sanitizer,
               m.no_sanitizer, sizeof m.no_sanitizer);
}

static void probe_tool(const char *env_name, const char *tool, const char *const *subdirs,
                       char *found, size_t flen, char *why, size_t wlen)
{
    const char *env = getenv(env_name), *path = getenv("PATH"), *cuda = getenv("CUDA_HOME");
    char cand[4096];
    int i;
    if (env && *env) {
        if (executable(env))
            snprintf(found, flen, "%s", env);
        else
            snprintf(why, wlen, "%s=%s is not an executable", env_name, env);
        return;
    }
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(cand, sizeof cand, "%.*s/%s", (int)n, path, tool);
        if (n && executable(cand)) {
            snprintf(found, flen, "%s", cand);
            return;
        }
        path += n + (path[n] == ':');
    }
    for (i = 0; cuda && *cuda && subdirs[i]; i++) {
        snprintf(cand, sizeof cand, "%s/%s/%s", cuda, subdirs[i], tool);
        if (executable(cand)) {
            snprintf(found, flen, "%s", cand);
            return;
        }
    }
    snprintf(why, wlen, "%s is not installed here (not on PATH, not in CUDA_HOME; %s=/path "
             "names it)", tool, env_name);
}

void probe_ncu(void)
{
    const char *env = getenv("NCU"), *path = getenv("PATH"), *cuda = getenv("CUDA_HOME");
    char cand[4096];

    if (env && *env) {
        if (executable(env))
            snprintf(m.ncu, sizeof m.ncu, "%s", env);
        else
            snprintf(m.no_ncu, sizeof m.no_ncu, "NCU=%s is not an executable", env);
        return;
    }
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(cand, sizeof cand, "%.*s/ncu", (int)n, path);
        if (n && executable(cand)) {
            snprintf(m.ncu, sizeof m.ncu, "%s", cand);
            return;
        }
        path += n + (path[n] == ':');
    }
    if (cuda && *cuda) {
        snprintf(cand, sizeof cand, "%s/bin/ncu", cuda);
        if (executable(cand)) {
            snprintf(m.ncu, sizeof m.ncu, "%s", cand);
            return;
        }
    }
    snprintf(m.no_ncu, sizeof m.no_ncu,
             "Nsight Compute (ncu) is not installed here (not on PATH, not in CUDA_HOME/bin; "
             "NCU=/path/to/ncu names it)");
}
