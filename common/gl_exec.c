/* gl_exec.c: a lab's launchers called by name (gl_exec.h). */
#define _GNU_SOURCE
#include "gl_exec.h"

#include "gl_check.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <string.h>

static long long call_copy(void *fn, const gl_arg *a)
{
    (void)fn;
    GL_CUDA(cudaMemcpyAsync(a[0].p, a[1].p, (size_t)a[2].i, cudaMemcpyDeviceToDevice, 0));
    return 0;
}

static const gl_launcher builtin[] = {
    {"gl_copy", "ppi", call_copy, GL_GIVEN | GL_BUILTIN},
    {NULL, NULL, NULL, 0},
};

const gl_launcher *gl_launcher_find(const char *name)
{
    const gl_launcher *l;
    for (l = LAB_LAUNCHERS; l->name; l++)
        if (!strcmp(l->name, name))
            return l;
    for (l = builtin; l->name; l++)
        if (!strcmp(l->name, name))
            return l;
    return NULL;
}

void gl_copy(void *dst, const void *src, size_t bytes)
{
    gl_arg a[] = {GL_P(dst), GL_P(src), GL_I(bytes)};
    gl_exec("gl_copy", a);
}

void *gl_exec_lookup(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

/* In a demo: the launcher is linked into the program. */
static long long call_linked(const gl_launcher *l, const gl_arg *args)
{
    void *fn = l->flags & GL_BUILTIN ? NULL : gl_exec_lookup(l->name);
    if (l->flags & GL_BUILTIN)
        return l->invoke(NULL, args);
    if (!fn)
        gl_fail("%s is not linked into this program (a demo is linked with -rdynamic)", l->name);
    return l->invoke(fn, args);
}

static gl_exec_backend backend = call_linked;

void gl_exec_set_backend(gl_exec_backend b)
{
    backend = b ? b : call_linked;
}

long long gl_exec(const char *name, const gl_arg *args)
{
    const gl_launcher *l = gl_launcher_find(name);
    if (!l)
        gl_fail("no launcher %s in this lab (a bug of the kit)", name);
    return backend(l, args);
}
