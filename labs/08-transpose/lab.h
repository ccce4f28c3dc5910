/* lab.h: lab 08-transpose described once, for its demo (demo.c) and its grader
 * (tests/08-transpose.c): the problem (its input, reference and hints; the launchers: lab.c). */
#ifndef TRANSPOSE_LAB_H
#define TRANSPOSE_LAB_H

#include "gpulabs.h"
#include "transpose.h"

/* The problem the demo and the grader check and time (gl_problem.h): a random rows x cols matrix
 * in [-1, 1) and launcher's output of it; the reference the kit's naive transpose (a copy's: its
 * input). size, a transpose_size, holds the size and the words: it must outlive the problem. */
typedef struct { int rows, cols; char what[64]; } transpose_size;
gl_problem transpose_problem(const char *launcher, void *size);

#endif
