/* profile.c: running the submission under Nsight Compute, for the profile
 * tests (inspect.c reads what it reports). */
#define _GNU_SOURCE
#include "grader.h"
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char self_exe[4096];

void gl_profile(const char *const *metrics, int nmetrics, double *values,
                const char *const *run_args)
{
    const char *ncu = getenv("GL_NCU"), *dir = getenv("GL_DIR");
    char log[4200], status_path[4200], list[2048] = "", *out, *status;
    const char *argv[64];
    int argc = 0, i, wstatus;
    pid_t pid;
    ssize_t n;

    if (!ncu || !*ncu)
        gl_skip("Nsight Compute (ncu) is not installed here");
    n = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
    if (n <= 0)
        gl_check_fail("grader: cannot find its own executable");
    self_exe[n] = '\0';
    snprintf(log, sizeof log, "%s/ncu-%d.csv", dir ? dir : "/tmp", (int)getpid());
    snprintf(status_path, sizeof status_path, "%s/ncu-%d.status", dir ? dir : "/tmp",
             (int)getpid());
    for (i = 0; i < nmetrics; i++) {
        strncat(list, i ? "," : "", sizeof list - strlen(list) - 1);
        strncat(list, metrics[i], sizeof list - strlen(list) - 1);
    }
    argv[argc++] = ncu;
    argv[argc++] = "--csv";
    argv[argc++] = "--log-file";
    argv[argc++] = log;
    argv[argc++] = "--clock-control"; /* leave the GPU's clocks as they are */
    argv[argc++] = "none";
    argv[argc++] = "--metrics";
    argv[argc++] = list;
    argv[argc++] = self_exe;
    argv[argc++] = "--run";
    for (i = 0; run_args[i] && argc < 62; i++)
        argv[argc++] = run_args[i];
    argv[argc] = NULL;

    remove(status_path);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        setenv("GL_RUN_STATUS", status_path, 1);
        execv(ncu, (char *const *)argv);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &wstatus, 0) < 0)
        gl_check_fail("grader: could not start Nsight Compute (%s)", ncu);
    out = gl_read_file(log);
    status = gl_read_file(status_path);
    remove(log);
    remove(status_path);
    if (out && strstr(out, "ERR_NVGPUCTRPERM")) {
        free(out);
        gl_skip("Nsight Compute may not read the GPU's performance counters here "
                "(ERR_NVGPUCTRPERM: an administrator can allow it, "
                "https://developer.nvidia.com/ERR_NVGPUCTRPERM)");
    }
    if (!status) {
        const char *err = out ? strstr(out, "==ERROR==") : NULL;
        gl_check_fail("the profiled run (%s under Nsight Compute) did not finish: %.300s",
                      run_args[0], err ? err : "no message (did it crash?)");
    }
    if (strcmp(status, "ok") != 0)
        gl_check_fail("the profiled run went wrong, so its counters are not graded: %s", status);
    for (i = 0; i < nmetrics; i++) {
        if (!out || gl_ncu_sum(out, metrics[i], &values[i]) == 0)
            gl_check_fail("Nsight Compute reported no %s for %s: no kernel ran, or this GPU "
                          "does not have that counter (ncu said: %.300s)",
                          metrics[i], run_args[0], out ? out : "nothing");
    }
    free(out);
    free(status);
}
