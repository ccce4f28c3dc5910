/* lab.h: lab 13-occupancy described once, for its demo (demo.c) and its grader
 * (tests/13-occupancy.c): the problem (its table, reference and hints), on the
 * launchers that lab.c lists. */
#ifndef OCCUPANCY_LAB_H
#define OCCUPANCY_LAB_H

#include "gpulabs.h"
#include "occupancy.h"

/* The problem the demo and the grader check and time (common/gl_problem.h): a random table
 * of WALK_HOPS x n ints in [0, WALK_REACH) and launcher's out of it; the reference is the
 * given launcher of its walk (walk_one_block_per_sm, or mix_walk for the mixed walk). size, a
 * walk_size, holds n, walk_sized's threads and blocks per SM, and the words, and must
 * outlive the problem. */
typedef struct {
    int n;
    int threads, blocks_per_sm; /* walk_sized only */
    char what[64];
} walk_size;
gl_problem walk_problem(const char *launcher, void *size);

#endif
