/* report_read.c: gl-report's tables (report.h), read from the runners' results files
 * (results.h): each lab's facts, its results, the margins of its verdicts, and a test it
 * planned and never reported, NOT RUN. */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct margin margins[MAX_MARGINS];
int nmargins;

gl_result results[MAX_RESULTS];
int nresults;
lab lab_list[MAX_LABS];
int nlab;

/* A test the runner planned (#plan) and never reported: NOT RUN (GRADING.md rule 11). */
static void add_not_run(lab *l, const char *plan, const char *why)
{
    char copy[1024], *id, *kind, *points, *title;
    gl_result *r;
    snprintf(copy, sizeof copy, "%s", plan);
    id = strtok(copy, "\t");
    kind = strtok(NULL, "\t");
    points = strtok(NULL, "\t");
    title = strtok(NULL, "");
    if (!id || !kind || !points || nresults == MAX_RESULTS)
        return;
    r = &results[nresults++];
    memset(r, 0, sizeof *r);
    snprintf(r->lab, sizeof r->lab, "%s", l->name);
    snprintf(r->id, sizeof r->id, "%s", id);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    snprintf(r->title, sizeof r->title, "%s", title ? title : id);
    r->status = GL_NOT_RUN;
    r->max = atoi(points);
    snprintf(r->message, sizeof r->message, "NOT RUN: %s; not the student's file's fault: grade "
             "it again", why);
    l->max += r->max;
    l->not_run += r->max;
}

int read_results(const char *path)
{
    FILE *f = fopen(path, "r");
    lab *l;
    char key[64], value[8192];
    static char planned[MAX_PLANNED][512];
    int kind, nplanned = 0, first = nresults, i, j;
    gl_result r;
    if (!f) {
        fprintf(stderr, "gl-report: no results in %s: the lab's grader did not run to its end "
                        "(see the messages above)\n", path);
        return -1;
    }
    if (nlab == MAX_LABS) {
        fclose(f);
        return -1;
    }
    l = &lab_list[nlab++];
    memset(l, 0, sizeof *l);
    while ((kind = gl_result_read(f, &r, key, sizeof key, value, sizeof value)) != 0) {
        if (kind < 0) { /* a runner that died in the middle of a line */
            fprintf(stderr, "gl-report: %s: a malformed line\n", path);
            break;
        }
        if (kind == 2) {
            if (!strcmp(key, "margin") && nmargins < MAX_MARGINS) {
                char id[96];
                if (sscanf(value, "%95s %lf %lf %d", id, &margins[nmargins].measured,
                           &margins[nmargins].threshold, &margins[nmargins].larger) == 4) {
                    snprintf(margins[nmargins].lab, sizeof margins[nmargins].lab, "%s", l->name);
                    snprintf(margins[nmargins].id, sizeof margins[nmargins].id, "%s", id);
                    nmargins++;
                }
            } else if (!strcmp(key, "plan") && nplanned < MAX_PLANNED) {
                snprintf(planned[nplanned++], sizeof planned[0], "%s", value);
            } else if (!strcmp(key, "end")) {
                l->ended = 1;
            } else if (!strcmp(key, "lab"))
                snprintf(l->name, sizeof l->name, "%s", value);
            else if (!strcmp(key, "src"))
                snprintf(l->src, sizeof l->src, "%s", value);
            else if (!strcmp(key, "gpu"))
                snprintf(l->gpu, sizeof l->gpu, "%s", value);
            else if (!strcmp(key, "seed"))
                snprintf(l->seed, sizeof l->seed, "%s", value);
            else if (!strcmp(key, "build"))
                snprintf(l->build, sizeof l->build, "%s", value);
            else if (!strcmp(key, "file"))
                snprintf(l->file, sizeof l->file, "%s", value);
            else if (!strcmp(key, "protections"))
                snprintf(l->protections, sizeof l->protections, "%s", value);
            else if (!strcmp(key, "isolated"))
                snprintf(l->isolated, sizeof l->isolated, "%s", value);
            else if (!strcmp(key, "compiler"))
                snprintf(l->compiler, sizeof l->compiler, "%s", value);
            else if (!strcmp(key, "review")) {
                size_t n = strlen(l->review);
                snprintf(l->review + n, sizeof l->review - n, "%s\n", value);
            }
            continue;
        }
        if (nresults == MAX_RESULTS)
            break;
        results[nresults++] = r;
        l->max += r.max;
        if (r.status == GL_NOT_RUN) {
            l->not_run += r.max;
        } else if (r.status == GL_SKIP) {
            l->skipped += r.max;
            l->would_fail += !strncmp(r.message, "no GPU here: this would fail", 28);
        } else {
            l->ran++;
            l->got += r.score;
            l->failed += r.status == GL_FAIL;
        }
    }
    fclose(f);
    if (!l->name[0]) {
        fprintf(stderr, "gl-report: %s names no lab\n", path);
        return -1;
    }
    for (i = 0; i < nplanned; i++) { /* what the runner meant to run and never reported */
        char id[128];
        int found = 0;
        snprintf(id, sizeof id, "%.*s", (int)strcspn(planned[i], "\t"), planned[i]);
        for (j = first; j < nresults && !found; j++)
            found = !strcmp(results[j].id, id);
        if (!found)
            add_not_run(l, planned[i], l->ended ? "the grader did not report this test"
                                                : "the grader stopped before this test "
                                                  "(its log says why)");
    }
    return 0;
}
