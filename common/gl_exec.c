/* gl_exec.c: a lab's launchers called by name (gl_exec.h). */
#define _GNU_SOURCE
#include "gl_exec.h"

#include "gl_check.h"

#include <dlfcn.h>
#include <string.h>

const gl_launcher *gl_launcher_find(const char *name)
{
    const gl_launcher *l;
    for (l = LAB_LAUNCHERS; l->name; l++)
        if (!strcmp(l->name, name))
            return l;
    return NULL;
}

void *gl_exec_lookup(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

/* In a demo: the launcher is linked into the program. */
static long long call_linked(const gl_launcher *l, const gl_arg *args)
{
    void *fn = gl_exec_lookup(l->name);
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
