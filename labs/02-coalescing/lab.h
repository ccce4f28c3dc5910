/* lab.h: lab 02-coalescing described once, for its demo (demo.c) and its grader
 * (tests/02-coalescing.c): the problems they check and time (inputs, references, guards, hints). */
#ifndef COALESCING_LAB_H
#define COALESCING_LAB_H

#include "coalescing.h"
#include "gpulabs.h"

/* The problem the demo and the grader check and time (common/gl_problem.h) of launcher at size,
 * a co_size that must outlive it (each launcher reads its own fields: a size may hold every
 * launcher's); its inputs, references and hints: lab.c.
 *   copy_float, strided_copy    out[i] = in[offset + i * stride] for i < n (copy_float: stride 1)
 *   kick_aos, kick_soa          n particles kicked in place: records, or 8 arrays one after another
 *   matrix_add_naive, matrix_add  c = a + b, rows x cols */
typedef struct {
    int n, stride, offset; /* the copies (offset, stride: 0 is 0 and 1) and the kicks (n) */
    int rows, cols;        /* the matrix adds */
    int kind;              /* co_problem's: 'c' copy, 'a' kick of records, 's' of arrays, 'm' add */
    char what[64];
} co_size;
gl_problem co_problem(const char *launcher, void *size);

#endif
