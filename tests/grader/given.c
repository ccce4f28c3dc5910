/* given.c: the lab's given kernels as a technique test reads them (grader.h): a test that
 * looks for what the lesson adds first shows that the given kernel, built by the kit from
 * baselines.cu, lacks it (or has what the lesson removes). When it does not, this compiler
 * writes the given kernel another way and the test cannot tell the two apart: the kit's
 * failure, never the student's (NOT RUN). */
#define _GNU_SOURCE
#include "grader.h"
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *gl_given_ptx(const char *kernel, gl_ptx_entry *e)
{
    char path[4096], *ptx = gl_read_file(gl_baseline_ptx()), *slash;
    ssize_t n;
    /* where the Makefile builds it, beside this runner, when GL_BASELINE is not set */
    if (!ptx && (n = readlink("/proc/self/exe", path, sizeof path - 16)) > 0) {
        path[n] = '\0';
        if ((slash = strrchr(path, '/'))) {
            strcpy(slash + 1, "baselines.ptx");
            ptx = gl_read_file(path);
        }
    }
    if (!ptx)
        gl_kit_error("the baselines' PTX (%s) is missing: rebuild the kit with make",
                     gl_baseline_ptx());
    if (gl_ptx_entry_find(ptx, kernel, e) != 0) {
        free(ptx);
        gl_kit_error("the baselines' PTX (%s) has no kernel %s: rebuild the kit with make",
                     gl_baseline_ptx(), kernel);
    }
    return ptx;
}

const gl_ptx_entry *gl_given_entry(const char *kernel)
{
    static char *ptx;
    static gl_ptx_entry e;
    free(ptx);
    ptx = gl_given_ptx(kernel, &e);
    return &e;
}

void gl_given_tells_apart(int tells, const char *kernel, const char *what)
{
    if (!tells)
        gl_kit_error("the given %s %s in its PTX: this compiler writes it another way, and the "
                     "test cannot tell it from the lesson's kernel",
                     kernel, what);
}
