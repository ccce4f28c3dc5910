/* imports.c: what the student's library calls, as a technique test reads it (grader.h:
 * gl_library_imports): its undefined dynamic symbols, the functions the dynamic linker resolves
 * in other libraries (the CUDA runtime's cudaMemcpyToSymbol), listed by nm -D. */
#include "grader.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *gl_library_imports(const char *const *symbols, int nsymbols)
{
    static char found[256];
    const char *so = gl_artifact("so");
    char cmd[4300], line[1024];
    int imports_cuda = 0, hit = 0, s, status;
    FILE *p;

    if (access(so, R_OK) != 0)
        gl_check_fail("%s did not compile, so there is no library to read (%s)", GL_LAB.file,
                      so);
    if (strchr(so, '\''))
        gl_skip("cannot pass %s to nm (a quote in the path)", so);
    snprintf(cmd, sizeof cmd, "nm -D --undefined-only '%s' 2>/dev/null", so);
    fflush(NULL);
    if (!(p = popen(cmd, "r")))
        gl_skip("could not run nm (binutils) to read what %s calls", so);
    while (fgets(line, sizeof line, p)) {
        /* "                 U cudaMemcpyToSymbol@libcudart.so.13" */
        char *name = strrchr(line, ' ');
        if (!name)
            continue;
        name++;
        name[strcspn(name, "@\n")] = '\0';
        imports_cuda |= !strncmp(name, "__cuda", 6); /* __cudaRegisterFatBinary: every CUDA file */
        for (s = 0; s < nsymbols && !hit; s++)
            if (!strcmp(name, symbols[s])) {
                snprintf(found, sizeof found, "%s", name);
                hit = 1;
            }
    }
    status = pclose(p);
    if (status != 0 && !imports_cuda)
        gl_skip("nm (binutils) is not installed here, or could not read %s", so);
    if (!imports_cuda)
        gl_skip("%s does not import the CUDA runtime dynamically (built with -cudart static?): "
                "what it calls cannot be read with nm -D", so);
    return hit ? found : NULL;
}
