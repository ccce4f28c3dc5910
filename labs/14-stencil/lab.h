/* lab.h: lab 14-stencil described once, for its demo (demo.c) and its grader
 * (tests/14-stencil.c): the problem (its input, reference and hints), on the launchers that
 * lab.c lists. */
#ifndef STENCIL_LAB_H
#define STENCIL_LAB_H

#include "gpulabs.h"
#include "stencil.h"

/* The problem the demo and the grader check and time (common/gl_problem.h): a random
 * rows x cols image in [-1, 1), its rows pitch floats apart (0: cols rounded up to
 * STENCIL_PITCH_ALIGN), the floats between them random too, and the launcher's filtered
 * image of it; the kit's stencil_global the reference. size, a stencil_size, holds the size
 * and the words, and must outlive the problem. */
typedef struct {
    int rows, cols, pitch;
    char what[80];
} stencil_size;
gl_problem stencil_problem(const char *launcher, void *size);

#endif
