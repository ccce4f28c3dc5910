/* outputs.h: the outputs of a timed round or a profiled run, and the judge's fingerprint of
 * them at the moment the subject says it is done (outputs.c). */
#ifndef GL_OUTPUTS_H
#define GL_OUTPUTS_H

#include <stddef.h>

/* From now on, every buffer poisoned is an output (until gl_outputs_end). */
void gl_outputs_begin(void);
void gl_outputs_end(void);

/* Fingerprints the outputs now: the subject has said its work is done. */
void gl_outputs_seal(void);
/* Fingerprints them again; fails the test (naming launcher) when they changed since. */
void gl_outputs_check(const char *launcher);

/* How many bytes of the outputs hold something other than the poison. */
size_t gl_outputs_written(void);

#endif
