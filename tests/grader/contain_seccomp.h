/* contain_seccomp.h: the seccomp layer of the subject's containment (contain_seccomp.c), as
 * gl_contain_ex (contain.c) sets it and applies it; for contain.c alone. Hidden: the subject
 * exports its own symbols (-rdynamic), and these names are not for the libraries it loads. */
#ifndef GL_CONTAIN_SECCOMP_H
#define GL_CONTAIN_SECCOMP_H

#include "contain.h"

#define GL_CONTAIN_HIDDEN __attribute__((visibility("hidden")))

/* Adds a reason to c->why ("; " between them): what a layer could not apply, and why. */
GL_CONTAIN_HIDDEN void note(gl_containment *c, const char *fmt, ...);

/* gl_contain_ex's choices for the filter: no check of open()'s flags, and what a refused
 * system call gets (EPERM; a log only for GL_CONTAIN_LOG_ONLY). */
GL_CONTAIN_HIDDEN extern int write_opens_allowed;
GL_CONTAIN_HIDDEN extern unsigned deny_action;

/* Loads the filter (where the kernel has seccomp): 0, or -1 with c->why saying why not. */
GL_CONTAIN_HIDDEN int apply_seccomp(gl_containment *c);

#endif
