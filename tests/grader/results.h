/* results.h: one lab's results as lines of text, written by the runner and
 * read by the report (scoreboard, results.json, Check XML, TAP).
 *
 *   #key<TAB>value                            the lab's facts: lab, file, src, gpu, seed, build;
 *                                             #plan: a test the runner means to run (id, kind,
 *                                             points, title); #end: the runner finished
 *   test<TAB>lab<TAB>id<TAB>kind<TAB>status<TAB>score<TAB>max<TAB>seconds<TAB>title<TAB>message
 *
 * Fields are escaped (\t, \n, \\), so a message may hold anything. */
#ifndef GL_RESULTS_H
#define GL_RESULTS_H

#include <stdio.h>

/* GL_SKIP: the test cannot run on this machine (no GPU, no Nsight Compute): worth 0 of 0.
 * GL_NOT_RUN: the grader broke before the test could finish (GRADING.md rule 11): not the
 * student's file's fault, not a zero either; the run exits 2 and must be graded again. */
typedef enum { GL_PASS, GL_FAIL, GL_SKIP, GL_NOT_RUN } gl_status;

typedef struct {
    char lab[64], id[96], kind[16], title[192];
    gl_status status;
    int score, max;
    double seconds;
    char message[4096];
} gl_result;

const char *gl_status_name(gl_status s); /* "pass", "fail", "skip", "notrun" */

/* Is word one of the items of list (separated by commas or spaces)? */
int gl_in_list(const char *list, const char *word);

/* Escapes tab, newline, carriage return and backslash. */
void gl_escape(const char *in, char *out, size_t len);
void gl_unescape(const char *in, char *out, size_t len);

void gl_result_write(FILE *f, const gl_result *r);
void gl_fact_write(FILE *f, const char *key, const char *value);

/* Reads the next line: returns 1 for a result (r filled), 2 for a fact (key
 * and value filled), 0 at the end, -1 for a malformed line. */
int gl_result_read(FILE *f, gl_result *r, char *key, size_t keylen, char *value,
                   size_t valuelen);

#endif
