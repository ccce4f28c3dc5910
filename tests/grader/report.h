/* report.h: what gl-report's parts share (report.c, report_read.c, report_write.c): the
 * tables of the results read, defined in report_read.c. */
#ifndef GL_REPORT_H
#define GL_REPORT_H

#include "results.h"

#include <stdio.h>

#define MAX_RESULTS 1024
#define MAX_PLANNED 256
#define MAX_LABS 64
#define MAX_MARGINS 256

/* gl_test_margin's numbers, one per performance or profile verdict */
struct margin {
    char lab[64], id[96];
    double measured, threshold;
    int larger;
};
extern struct margin margins[MAX_MARGINS];
extern int nmargins;

typedef struct {
    char name[64], src[1024], gpu[300], seed[32], build[16], file[64], protections[512];
    char isolated[8];
    int ended;           /* the runner wrote #end: it finished */
    int not_run;         /* points of tests NOT RUN: the grading broke */
    int would_fail;      /* technique previews (no GPU) that would fail */
    char review[4096];   /* the "to review" lines, one per line */
    char compiler[4096]; /* what the compiler said when the file did not compile */
    int got, max, skipped, failed, ran;
} lab;

extern gl_result results[MAX_RESULTS];
extern int nresults;
extern lab lab_list[MAX_LABS];
extern int nlab;

/* Reads a runner's results file into the tables: 0, or -1 (said why) when it cannot. */
int read_results(const char *path);

/* The outputs, in dir: results.json (Gradescope; got: the total), check.xml (Check's XML),
 * results.tap (TAP). */
void write_json(const char *dir, int got);
void write_check_xml(const char *dir);
void write_tap(const char *dir);

#endif
