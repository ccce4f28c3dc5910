/* record.h: the judge's reading of what a student's call did (record.c). */
#ifndef GL_RECORD_H
#define GL_RECORD_H

#include "gl_exec.h"
#include "protocol.h"

#include <stddef.h>

/* What the judge knows of the subject it reads. */
typedef struct {
    int cupti;           /* its GPU record (gpu events) is CUPTI's: every route, with times */
    int modules;         /* every module it loaded was compared with the student's cubin */
    const char *ptx;     /* the student's PTX (its kernels' names), or NULL */
    const char *file;    /* the student's file, for the messages */
} gl_record_source;
void gl_record_set_source(const gl_record_source *s);

/* An answer of launcher l: what it asked the runtime or the driver for, checked against the
 * lab's policy for l; fails the test on the first thing that does not belong. */
void gl_record_check_answer(const gl_launcher *l, const gl_reply *r);

/* What the GPU ran (a flush): every piece must belong to a call in [first_seq, end_seq), of
 * launcher l, in the subject's own context, and be allowed to l; the kernels are kept (for the
 * technique tests). Fails the test otherwise. */
void gl_record_check_gpu(const gl_launcher *l, const gl_gpu_event *e, uint32_t n,
                         uint32_t overflow, uint64_t first_seq, uint64_t end_seq);

/* Things the subject saw happen at once (GL_TAINT_*): fails the test with what. */
void gl_record_check_taint(const char *launcher, uint32_t taint, const char *what);

/* The bytes of the judge's memory a call handed the subject (its buffers, each once): added to
 * the profiled run being captured, its measure of which kernels did its work. */
void gl_record_bytes(unsigned long long bytes);


/* What the calls of a profiled run did, while capture is on: the kernels the GPU ran in
 * order (CUPTI), the bytes of the buffers the calls were given, the launches the runtime saw
 * (without CUPTI). */
typedef struct {
    char name[224];
    unsigned grid[3], block[3];
} gl_captured;
typedef struct {
    gl_captured *kernels;
    int max, n;          /* n > max: there were more */
    unsigned long long bytes;
    unsigned long launches;
} gl_capture;
void gl_record_capture(gl_capture *c); /* NULL: capture ends */

#endif
