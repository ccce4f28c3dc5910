/* lab.h: lab 01-divergence described once, for its demo (demo.c) and its grader
 * (tests/01-divergence.c): the problem (its inputs, reference and hints; the launchers: lab.c). */
#ifndef DIVERGENCE_LAB_H
#define DIVERGENCE_LAB_H

#include "gpulabs.h"
#include "divergence.h"

/* The problem the demo and the grader check and time (gl_problem.h): n elements of the input
 * and launcher's output of them; the reference: the given launcher of that output (a given one
 * is its own). Inputs: random bits (each element's class a coin toss: heavy one time in eight),
 * all heavy, all light, classes alternating, or random bits regrouped by class, the light ones
 * first. size, a div_size, holds the size and the words: it must outlive the problem. */
typedef struct {
    int n;
    enum { DIV_RANDOM, DIV_ALL_HEAVY, DIV_ALL_LIGHT, DIV_ALTERNATING, DIV_PARTITIONED } input;
    char what[64];
} div_size;
gl_problem div_problem(const char *launcher, void *size);
int div_input_of(const char *word); /* the input a run's word names (lab.c's inputs), or -1 */

#endif
