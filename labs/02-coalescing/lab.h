/* lab.h: lab 02-coalescing described once, for its demo (demo.c) and its
 * grader (tests/02-coalescing.c): the launchers, the inputs, the references,
 * the checks with their hints, and the problems they time. */
#ifndef COALESCING_LAB_H
#define COALESCING_LAB_H

#include "coalescing.h"
#include "gpulabs.h"

/* The kick's field along x and its time step, in the demo and the grader. */
#define CO_EX 2.5f
#define CO_DT 0.01f

/* Call a launcher of the program's build: in the demo, the linked one; in
 * the grader, the student's in its own process, or the kit's own.
 * co_copy: copy_float (which has no stride: stride is not passed) or
 * strided_copy. co_matrix_add: matrix_add_naive or matrix_add. */
void co_copy(const char *name, float *out, const float *in, int n, int stride);
void co_kick_aos(struct particle *p, int n, float ex, float dt);
void co_kick_soa(struct particles p, int n, float ex, float dt);
void co_matrix_add(const char *name, float *c, const float *a, const float *b, int rows,
                   int cols);

/* Runs a copy launcher once on in + offset (a device buffer holding h_in)
 * into a poisoned output with guard zones: out[i] = in[offset + i * stride]
 * for i < n. Returns "" if everything is right, else why not, in the lab's
 * terms (a static buffer). */
const char *co_copy_check(const char *launcher, const gl_buf *in, const float *h_in,
                          size_t offset, int n, int stride);

/* vx[i] += charge[i] / mass[i] * CO_EX * CO_DT: the CPU reference of a kick. */
void co_kick_ref(float *vx, const float *mass, const float *charge, size_t n);
/* n random particles field by field (8 arrays of n floats: x, y, z, vx, vy,
 * vz, mass, charge) and the same after one kick (malloc'ed). */
void co_particles_make(gl_rng *rng, int n, float **fields, float **ref);
/* The particles whose 8 fields are arrays of n floats, one after the other from base. */
struct particles co_particles_at(float *base, int n);
/* The records (array of structures) of particles held field by field. */
void co_records_from_fields(struct particle *records, const float *fields, int n);
/* Runs kick_aos or kick_soa once on the particles and checks every field:
 * vx kicked, the seven others untouched. "" or why not. */
const char *co_kick_check(const char *launcher, int n, const float *fields, const float *ref);

/* Random rows x cols matrices a and b, and a + b (malloc'ed). */
void co_add_make(gl_rng *rng, int rows, int cols, float **a, float **b, float **ref);
/* Runs a matrix-add launcher once (poisoned c, guard zones) and checks it. */
const char *co_add_check(const char *launcher, int rows, int cols, const float *a,
                         const float *b, const float *ref);

/* The problem the demo and the grader time (common/gl_problem.h), by launcher:
 *   copy_float, strided_copy   out[i] = in[offset + i * stride] for i < n (copy_float: stride
 *                              1), in random in [-1, 1); a strided copy on the GPU the reference
 *   kick_aos, kick_soa         n particles (their every float in [0.5, 2)) kicked in place: the
 *                              records, or the 8 arrays one after the other; the kit's kick_aos
 *                              the reference
 *   matrix_add_naive, matrix_add  c = a + b, rows x cols, random in [-1, 1); the kit's
 *                              matrix_add_naive the reference
 * size, a co_size, holds the size, the shape and the words, and must outlive the problem. */
typedef struct {
    int n, stride, offset; /* the copies (offset, stride: 0 is 0 and 1) and the kick (n) */
    int rows, cols;        /* the matrix add */
    int kind;              /* set by co_problem: 'c' a copy, 'k' a kick, 'm' a matrix add */
    char what[64];
} co_size;
gl_problem co_problem(const char *launcher, void *size);

#endif
