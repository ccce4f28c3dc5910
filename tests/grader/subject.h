/* subject.h: what the subject's runtime interposers (interpose.c) hand to its record
 * (subject.c). */
#ifndef GL_SUBJECT_H
#define GL_SUBJECT_H

#include <stdint.h>

/* One thing the student's code asked the runtime for (GL_EV_*), on the calling thread. Where
 * CUPTI records every route to the GPU, the record takes its word instead and this is a no-op. */
void gl_subject_record(uint32_t type, const char *name, int in_submission, int other_stream,
                       uint64_t threads, uint64_t bytes);

/* Is addr in the student's library (a kernel's host stub, say)? */
int gl_subject_from_submission(const void *addr);

#endif
