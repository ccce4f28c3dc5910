/* gl_exec.h: calling a lab's launchers by name, the one way the demo and the
 * grader both use.
 *
 * Each lab lists its launchers once (labs/NN-slug/lab.c): the name, the
 * layout of the arguments, and a function that calls a launcher of that
 * layout with unpacked arguments (GL_INVOKER defines one in a line):
 *
 *   typedef void (*transpose_fn)(float *out, const float *in, int rows, int cols);
 *   GL_INVOKER(call_transpose, transpose_fn, a, a[0].p, a[1].p, (int)a[2].i, (int)a[3].i)
 *   const gl_launcher LAB_LAUNCHERS[] = {
 *       {"transpose_naive", "ppii", call_transpose, GL_GIVEN},
 *       {"transpose_padded", "ppii", call_transpose, 0}, ...
 *       {NULL}};
 *
 * A lab packs a call's arguments (GL_P, GL_I, GL_F) and calls gl_exec. Where the
 * call goes depends on the program: in a demo, to the function linked into
 * it; in the grader's judge, a given launcher runs in the judge (the kit's
 * own code) and the student's runs in the subject process (tests/grader/).
 *
 * Layout letters: p device pointer, i integer, f float, h host array (its
 * size in bytes in .n: it is copied to the callee), H pinned host memory the caller
 * owns (a buffer with gl_problem_buf.host: the grader's host pool, which the GPU reaches
 * and the callee's CPU does not). */
#ifndef GL_EXEC_H
#define GL_EXEC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GL_MAX_ARGS 12

typedef struct {
    void *p;      /* p, h */
    long long i;  /* i */
    double f;     /* f */
    size_t n;     /* h: bytes */
} gl_arg;

#define GL_P(x) ((gl_arg){.p = (void *)(x)})
#define GL_I(x) ((gl_arg){.i = (long long)(x)})
#define GL_F(x) ((gl_arg){.f = (double)(x)})
#define GL_H(x, bytes) ((gl_arg){.p = (void *)(x), .n = (size_t)(bytes)})

/* Calls the launcher fn with the unpacked arguments; returns what it
 * returns (0 for void launchers). */
typedef long long (*gl_invoke)(void *fn, const gl_arg *args);

/* Defines the gl_invoke `name` of the void launchers declared as `like` (the lab's header
 * says a signature once): it calls fn with the arguments listed after `args`, each written
 * from args, the call's gl_arg array (a pointer as args[k].p, an int as (int)args[k].i, a
 * float as (float)args[k].f), and returns 0. */
#define GL_INVOKER(name, like, args, ...)                                                     \
    static long long name(void *fn, const gl_arg *args)                                       \
    {                                                                                         \
        ((__typeof__(&like))fn)(__VA_ARGS__);                                                 \
        return 0;                                                                             \
    }

enum {
    GL_GIVEN = 1,        /* the lab's own (baselines.cu): never the student's */
    GL_HOST_CODE = 2,    /* host code only: launches nothing */
    GL_MAY_MEMSET = 4,   /* may clear memory with cudaMemset(Async) */
    GL_MAY_COPY_SYMBOL = 8, /* may copy to a __constant__ symbol (cudaMemcpyToSymbol) */
    GL_NO_KERNEL_OK = 16, /* may launch no kernel (a setter) */
    GL_BUILTIN = 32,     /* the kit's own, in every lab (gl_copy): no function to look up */
    /* What the lab that teaches it opens to a student's launcher; every other one is refused
     * (tests/grader/record.c): */
    GL_MAY_STREAM = 64,  /* may run its work on streams (and events) of its own; it still
                          * follows the caller's earlier work on the default stream */
    GL_MAY_COPY = 128,   /* may copy between the host and the device (cudaMemcpy*), from and
                          * to pinned host memory only: a pageable copy is staged by the
                          * driver and overlaps nothing */
    GL_MAY_HOST_MEMORY = 256 /* may take pinned host memory of its own (cudaMallocHost,
                              * cudaHostAlloc, cudaHostRegister) */
};

typedef struct {
    const char *name;   /* the launcher, as in the lab's header */
    const char *layout; /* its arguments: "ppii" */
    gl_invoke invoke;
    int flags;
} gl_launcher;

/* The lab's table, ended by {NULL}: defined in labs/NN-slug/lab.c. */
extern const gl_launcher LAB_LAUNCHERS[];

/* In every lab, given: gl_copy(dst, src, bytes), cudaMemcpyAsync device to device on the
 * default stream: the copy bandwidth, timed the way the lab's launchers are. */
void gl_copy(void *dst, const void *src, size_t bytes);

const gl_launcher *gl_launcher_find(const char *name);

/* Calls the launcher `name` with args (as many as its layout says).
 * Returns its return value. A failure (no such function, a CUDA error in
 * the grader) goes to the fail handler. */
long long gl_exec(const char *name, const gl_arg *args);

/* Where gl_exec sends a call: the default looks the function up in this
 * program (a demo links the lab's files, built with -rdynamic). The grader
 * installs its own. */
typedef long long (*gl_exec_backend)(const gl_launcher *l, const gl_arg *args);
void gl_exec_set_backend(gl_exec_backend backend);

/* The function `name` of this program, or NULL. */
void *gl_exec_lookup(const char *name);

#ifdef __cplusplus
}
#endif
#endif
