/* lab.h: lab 12-streams described once, for its demo (demo.c) and its grader
 * (tests/12-streams.c): the problem (its input, reference and hints), on the
 * launchers that lab.c lists. */
#ifndef STREAMS_LAB_H
#define STREAMS_LAB_H

#include "gpulabs.h"
#include "streams.h"

/* The problem the demo and the grader check and time (common/gl_problem.h): n random floats
 * in [-1, 1) in pinned host memory (in_host), the launcher's output in pinned host memory
 * (out_host), and a device buffer of n floats as its working space; the kit's process_serial
 * is the reference. size, a streams_size, holds n and the words, and must outlive the
 * problem. */
typedef struct {
    int n;
    char what[64];
} streams_size;
gl_problem streams_problem(const char *launcher, void *size);

#endif
