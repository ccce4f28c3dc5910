/* suite.c: the lab's tests as the runner holds them: each GL_TEST of the suite declares
 * itself at start-up (gl_declare, grader.h), with its kind, points, timeout and title; the
 * runner adds the sanitize kind's and lists them kind by kind, in the suite's order. */
#include "grader.h"
#include "suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

entry tests[MAX_TESTS];
int ntests;

const char *const kind_names[GL_NKINDS] = {"correctness", "technique", "performance",
                                                  "profile", "sanitize"};

const char *gl_kind_name(gl_kind kind)
{
    return kind >= 0 && kind < GL_NKINDS ? kind_names[kind] : "?";
}

void gl_declare(const TTest *test, const char *id, int kind, int points, int timeout_s,
                const char *title, int order)
{
    int k = kind & 0xff, i;
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "grader: more than %d tests in one lab\n", MAX_TESTS);
        exit(2);
    }
    if (k < 0 || k >= GL_NKINDS || (kind & ~(0xff | GL_NO_GPU)) || points < 0 ||
        timeout_s <= 0 || !title || !*title) {
        fprintf(stderr, "grader: test %s is declared with a bad kind, points, timeout or "
                        "title\n", id);
        exit(2);
    }
    for (i = 0; i < ntests; i++)
        if (!strcmp(tests[i].id, id)) {
            fprintf(stderr, "grader: two tests are named %s\n", id);
            exit(2);
        }
    tests[ntests].test = test;
    tests[ntests].id = id;
    tests[ntests].kind = (gl_kind)k;
    tests[ntests].needs_gpu = !(kind & GL_NO_GPU) && k != GL_TECHNIQUE;
    tests[ntests].points = points;
    tests[ntests].timeout_s = timeout_s;
    tests[ntests].title = title;
    tests[ntests].order = order;
    ntests++;
}

/* Kind by kind, each in the order the suite declares its tests. */
int by_kind_then_order(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}
