/* suite.c: the lab's tests as the runner holds them: each GL_TEST of the suite declares
 * itself at start-up (gl_declare, grader.h), with its kind, points, timeout and title; the
 * sanitize kind's are added, one per launcher of the student's; they run and are listed kind
 * by kind, in the suite's order (runner --list); --kind names kinds of them. */
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

/* The sanitize kind: one test per launcher of the student's. */
void declare_sanitize_tests(void)
{
    const gl_launcher *l;
    static char ids[32][96], titles[32][192];
    int k = 0;
    for (l = LAB_LAUNCHERS; l->name && k < 32; l++) {
        if (l->flags & (GL_GIVEN | GL_HOST_CODE))
            continue;
        snprintf(ids[k], sizeof ids[k], "sanitize_%s", l->name);
        snprintf(titles[k], sizeof titles[k], "%s: memcheck, racecheck, synccheck", l->name);
        /* no points: an empty starting kernel has no error to find either; a failure
         * still fails the grade's exit status and says what the tool saw */
        gl_declare(NULL, ids[k], GL_SANITIZE, 0, 300, titles[k], ntests);
        tests[ntests - 1].launcher = l->name;
        k++;
    }
}

/* --kind: 0 when it names kinds and only kinds, else 2 (the exit status) */
int check_kinds(const char *kinds)
{
    const char *p = kinds;
    int any = 0;
    while (*p) {
        size_t n = strcspn(p, ", ");
        int k, known = 0;
        for (k = 0; k < GL_NKINDS; k++)
            known |= strlen(kind_names[k]) == n && !strncmp(p, kind_names[k], n);
        if (n && !known) {
            fprintf(stderr, "grader: unknown kind '%.*s' (kinds: correctness, technique, "
                            "performance, profile, sanitize)\n", (int)n, p);
            return 2;
        }
        any |= n > 0;
        p += n;
        p += strspn(p, ", ");
    }
    if (!any) {
        fprintf(stderr, "grader: KIND= names no kind (kinds: correctness, technique, "
                        "performance, profile, sanitize)\n");
        return 2;
    }
    return 0;
}

/* runner --list: every test, kind by kind */
void list_tests(void)
{
    int i;
    for (i = 0; i < ntests; i++)
        printf("%-12s %-28s %3d %4d  %s\n", gl_kind_name(tests[i].kind), tests[i].id,
               tests[i].points, tests[i].timeout_s, tests[i].title);
}
