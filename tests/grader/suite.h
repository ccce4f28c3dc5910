/* suite.h: the lab's tests (suite.c), as the runner's parts read them. */
#ifndef GL_SUITE_H
#define GL_SUITE_H

#include "grader.h"

#define MAX_TESTS 128

typedef struct {
    const TTest *test;        /* NULL for the sanitize kind, which the runner runs itself */
    const char *launcher;     /* sanitize: the launcher */
    const char *id, *title;
    gl_kind kind;
    int needs_gpu;
    int points, timeout_s;
    int order; /* where the suite declares it */
} entry;

extern entry tests[MAX_TESTS];
extern int ntests;
extern const char *const kind_names[GL_NKINDS];

/* Kind by kind, each in the order the suite declares its tests (qsort of tests). */
int by_kind_then_order(const void *a, const void *b);

/* The sanitize kind: one test per launcher of the student's (after the suite's own). */
void declare_sanitize_tests(void);
/* --kind K,K: 0 when it names kinds and only kinds, else 2 (the exit status), said why */
int check_kinds(const char *kinds);
/* runner --list: every test, kind by kind */
void list_tests(void);

#endif
