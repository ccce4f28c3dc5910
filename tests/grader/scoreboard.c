/* scoreboard.c: the lab's scoreboard, as the runner prints it: a line for each test (its
 * kind, title, status and points, and what it measured or why it failed), the "to review"
 * list, the numbers make calibrate reads (write_margin), and the points and time of each kind
 * (add_points). */
#include "grader.h"
#include "scoreboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void print_wrapped(const char *text, const char *indent, int width)
{
    const char *p = text;
    while (*p) {
        int n = 0, cut = 0;
        while (p[n] && p[n] != '\n' && n < width) {
            if (p[n] == ' ')
                cut = n;
            n++;
        }
        if (p[n] && p[n] != '\n' && cut > 0)
            n = cut;
        printf("%s%.*s\n", indent, n, p);
        p += n;
        while (*p == ' ' || *p == '\n')
            p++;
    }
}

int quiet; /* --quiet: no failure messages (make test, on the starting files) */
static char last_skip[1024];

/* make calibrate's numbers: the test's measured value and its threshold (gl_test_margin) */
void write_margin(FILE *out, const entry *e)
{
    const gl_test_state *st = gl_test_outcome();
    char v[256];
    if (!st->has_margin)
        return;
    snprintf(v, sizeof v, "%s\t%.6g\t%.6g\t%d", e->id, st->measured, st->threshold,
             st->larger_is_better);
    gl_fact_write(out, "margin", v);
}

void print_line(const entry *e, const gl_result *r)
{
    char label[256];
    int dots;
    snprintf(label, sizeof label, "%-11s  %s ", gl_kind_name(e->kind), e->title);
    dots = 64 - (int)strlen(label);
    printf("  %s", label);
    while (dots-- > 0)
        putchar('.');
    if (r->status == GL_SKIP)
        printf(" SKIP   -/%d\n", e->points);
    else if (r->status == GL_NOT_RUN)
        printf(" NOT RUN -/%d\n", e->points);
    else
        printf(" %s %3d/%d  (%.1f s)\n", r->status == GL_PASS ? "OK  " : "FAIL", r->score,
               e->points, r->seconds);
    if (r->status == GL_SKIP && !strcmp(r->message, last_skip))
        return; /* said once is enough */
    if (r->status != GL_PASS && r->message[0] && !quiet)
        print_wrapped(r->message, "        ", 92);
    if (r->status == GL_PASS && r->message[0] && !quiet)
        print_wrapped(r->message, "        measured: ", 82);
    if (r->status == GL_SKIP)
        snprintf(last_skip, sizeof last_skip, "%s", r->message);
    fflush(stdout);
}

/* The "to review" list (tools: gl-review): constructs the lab never needs. */
void print_review(const char *dir, FILE *out)
{
    char path[4200], *text, *line, *save = NULL;
    int n = 0;
    snprintf(path, sizeof path, "%s/review.txt", dir);
    if (!(text = gl_read_file(path)))
        return;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *what = strchr(line, '\t'), *src = what ? strchr(what + 1, '\t') : NULL;
        if (!what || !src)
            continue;
        *what++ = '\0';
        *src++ = '\0';
        if (n++ == 0 && !quiet)
            printf("  to review (not failures: things this lab never needs):\n");
        if (!quiet)
            printf("    line %s: %s: %s\n", line, what, src);
        {
            char fact[1024];
            snprintf(fact, sizeof fact, "line %s: %s: %s", line, what, src);
            gl_fact_write(out, "review", fact);
        }
    }
    free(text);
}

double kind_seconds[GL_NKINDS]; /* time spent on each kind */
int kind_tests[GL_NKINDS];      /* tests of each kind that were reported */

int not_run_points, not_run_tests; /* tests the grading broke on: the run exits 2 */

void add_points(const entry *e, const gl_result *r, int *score, int *max, int *skipped,
                       int *total, int *got, int *failed)
{
    kind_seconds[e->kind] += r->seconds;
    kind_tests[e->kind]++;
    *total += e->points;
    max[e->kind] += e->points;
    if (r->status == GL_NOT_RUN) {
        not_run_points += e->points;
        not_run_tests++;
    } else if (r->status == GL_SKIP) {
        *skipped += e->points;
    } else {
        *got += r->score;
        score[e->kind] += r->score;
        *failed += r->status == GL_FAIL;
    }
}

void init_result(const entry *e, gl_result *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->lab, sizeof r->lab, "%s", GL_LAB.name);
    snprintf(r->id, sizeof r->id, "%s", e->id);
    snprintf(r->kind, sizeof r->kind, "%s", gl_kind_name(e->kind));
    snprintf(r->title, sizeof r->title, "%s", e->title);
    r->max = e->points;
}

void not_run_result(gl_result *r, const char *why)
{
    r->status = GL_NOT_RUN;
    snprintf(r->message, sizeof r->message, "NOT RUN: the grader could not run this test "
             "(%.900s); not your file's fault: it is graded again when this is fixed",
             why);
}
