/* sanitize.h: the runner's side of the sanitize kind (sanitize.c). */
#ifndef GL_SANITIZE_H
#define GL_SANITIZE_H

typedef struct {
    const char *launcher;
    int found;         /* a tool reported an error in its kernels */
    char error[1200];  /* which, or what went wrong with the call under the tool */
    char kit_error[1024]; /* the grader's own failure: the test is NOT RUN */
} gl_sanitize_result;

/* Runs memcheck, racecheck and synccheck (sanitizer: compute-sanitizer's
 * path) over one small call of each launcher. */
void gl_sanitize_run(const char *sanitizer, gl_sanitize_result *res, int n);

#endif
