/* lab.h: lab 08-transpose described once, for its demo (demo.c) and its
 * grader (tests/08-transpose.c): the problem (its input, reference and
 * hints), on the launchers that lab.c lists. */
#ifndef TRANSPOSE_LAB_H
#define TRANSPOSE_LAB_H

#include "gpulabs.h"
#include "transpose.h"

/* The problem the demo and the grader check and time (common/gl_problem.h): a random rows x cols matrix
 * in [-1, 1) and launcher's output of it, the kit's naive transpose the reference (a copy's
 * own input, for transpose_copy). size, a transpose_size, holds the size and the words, and
 * must outlive the problem. */
typedef struct {
    int rows, cols;
    char what[64];
} transpose_size;
gl_problem transpose_problem(const char *launcher, void *size);

#endif
