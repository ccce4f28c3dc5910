/* inspect_resources.c: what a kernel of the student's build holds and what the build reserves
 * for it, checked against a lab's need: its shared memory (declared in the PTX, reserved in the
 * ptxas -v report, plus what its launches gave an extern array) and its local memory (a stack
 * frame, spills, ld.local / st.local), with the lab's sentence when it falls short. */
#include "grader.h"
#include "inspect.h"

#include <stdlib.h>

void gl_kernel_ptxas(const char *kernel, gl_ptxas_usage *u)
{
    char *report = gl_read_file(gl_artifact("log"));
    long dynamic = gl_launched_dynamic_smem(kernel);
    int found = report && gl_ptxas_usage_of(report, kernel, u) == 0;
    free(report);
    if (!found)
        gl_check_fail("grader: no ptxas report for %s in %s", kernel, gl_artifact("log"));
    if (dynamic > 0) /* ptxas counts static arrays only */
        u->smem_bytes += dynamic;
}

long gl_kernel_shared_declared(const char *kernel, const char *lesson)
{
    long total = gl_kernel_shared_total(kernel);
    if (total < 0)
        gl_check_fail("%s's tiles are extern (dynamic) shared memory, and no launch of it gave "
                      "them a size (the third <<<>>> argument): their sizes cannot be checked",
                      kernel);
    if (total == 0)
        gl_check_fail("%s has no __shared__ array. %s", kernel, lesson);
    return total;
}

long gl_expect_shared_at_least(const char *kernel, long min_bytes, const char *need,
                               const char *lesson)
{
    gl_ptxas_usage u;
    long bytes = gl_kernel_shared_declared(kernel, lesson);
    if (bytes < min_bytes)
        gl_check_fail("%s's __shared__ arrays have %ld bytes in all, less than %s (%ld bytes)",
                      kernel, bytes, need, min_bytes);
    gl_kernel_ptxas(kernel, &u);
    if (u.smem_bytes < min_bytes) /* ptxas drops an array the kernel never uses */
        gl_check_fail("%s declares %ld bytes of __shared__ tiles, but ptxas reserves only %ld: "
                      "they are not all used. %s",
                      kernel, bytes, u.smem_bytes, lesson);
    return bytes;
}

int gl_expect_no_local_memory(const char *kernel, const char *why)
{
    gl_ptxas_usage u;
    const gl_ptx_entry *e = gl_kernel_entry(kernel);
    int local = gl_ptx_count(e, "ld.local") + gl_ptx_count(e, "st.local");
    gl_kernel_ptxas(kernel, &u);
    if (local > 0 || u.stack_bytes > 0 || u.spill_stores > 0 || u.spill_loads > 0)
        gl_check_fail("%s uses local memory: %d ld.local/st.local in its PTX; ptxas: %ld bytes "
                      "stack frame, %ld bytes spill stores, %ld bytes spill loads. %s",
                      kernel, local, u.stack_bytes, u.spill_stores, u.spill_loads, why);
    return u.registers;
}
