/* lab.h: lab 01-divergence described once, for its demo (demo.c) and its grader
 * (tests/01-divergence.c): the problem (its inputs, reference and hints; the launchers: lab.c). */
#ifndef DIVERGENCE_LAB_H
#define DIVERGENCE_LAB_H

#include "gpulabs.h"
#include "divergence.h"

/* Inputs: random bits (each element's class a coin toss: heavy one time in eight), every
 * element heavy, every one light, classes alternating, or random values regrouped by class
 * (the light ones first). */
typedef enum {
    DIV_RANDOM, DIV_ALL_HEAVY, DIV_ALL_LIGHT, DIV_ALTERNATING, DIV_PARTITIONED
} div_input;
/* The input a run names: random, heavy, light, alternating or partitioned; -1: none. */
int div_input_of(const char *word);

/* The problem the demo and the grader check and time (gl_problem.h): n elements of the input
 * and launcher's output of them, the given launcher of the same output the reference (a given
 * one its own). size, a div_size, holds the size and the words, and must outlive the problem. */
typedef struct {
    int n;
    div_input input;
    char what[64];
} div_size;
gl_problem div_problem(const char *launcher, void *size);

#endif
