/* lab.h: lab 02-coalescing described once, for its demo (demo.c) and its grader
 * (tests/02-coalescing.c): the problems they check and time (inputs, references, guards, hints). */
#ifndef COALESCING_LAB_H
#define COALESCING_LAB_H

#include "gpulabs.h"

/* The problem the demo and the grader check and time (common/gl_problem.h), by launcher:
 *   copy_float, strided_copy   out[i] = in[offset + i * stride] for i < n (copy_float: stride
 *                              1), in random in [-1, 1); a strided copy on the GPU the reference
 *   kick_aos, kick_soa         n particles kicked in place: the records (their every float
 *                              in [0.5, 2)), or the 8 arrays one after the other (in [-1, 1),
 *                              the masses in [0.5, 2)); the kit's kick_aos the reference
 *   matrix_add_naive, matrix_add  c = a + b, rows x cols, random in [-1, 1); the kit's
 *                              matrix_add_naive the reference
 * size, a co_size, holds the size (each launcher reads its own fields: a size may hold every
 * launcher's), the shape and the words, and must outlive the problem. */
typedef struct {
    int n, stride, offset; /* the copies (offset, stride: 0 is 0 and 1) and the kicks (n) */
    int rows, cols;        /* the matrix adds */
    int kind; /* set by co_problem: 'c' a copy, 'a' the records' kick, 's' the arrays', 'm' an add */
    char what[64];
} co_size;
gl_problem co_problem(const char *launcher, void *size);

#endif
